/**
 * The processes a benchmark measures: the REAL server (`tsx server/main.ts`, started the way the
 * e2e launcher does) on PGlite or on a PostgreSQL database, and the ceiling server. RSS is read from
 * /proc of the node process that runs the server (tsx runs it as a child; the DATA_DIR lock
 * file names it).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inheritedChildEnv } from '../../test-support/env';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { LOCK_FILE_NAME } from '../../server/data-dir-lock';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export function pgUrl(database: string): string {
  return `postgres://postgres@127.0.0.1:5432/${database}`;
}

export async function createPgDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}"`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

export async function dropPgDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

export async function pgServerVersion(): Promise<string> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    const result = await client.query<{ server_version: string }>('show server_version');
    return result.rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

/** Resident memory of a process in MB, from /proc/<pid>/status (VmRSS). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!match?.[1]) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

export interface BenchServer {
  url: string;
  adminSecret: string;
  /** The node process that runs server/main.ts. */
  serverPid: number;
  stop(): Promise<void>;
}

export const BENCH_ADMIN_SECRET = 'bench-admin-secret-0123456789';

/**
 * Starts `tsx server/main.ts` like test-support/server-process.ts does, but its output (one log line per
 * request, as shipped) goes to a file, not through a pipe into this process: the load generator
 * runs here and must not pay for reading the server's logs.
 */
export async function startBenchServer(options: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Another checkout of the product (a baseline to compare with); default this one. */
  root?: string;
}): Promise<BenchServer> {
  const root = options.root ?? ROOT;
  const env: Record<string, string> = {
    ...inheritedChildEnv(),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    ADMIN_SECRET: BENCH_ADMIN_SECRET,
    // One client address makes all the load; the login/token limits would answer 429 instead.
    RATE_LIMIT_ALLOW: '127.0.0.1',
    DOG_IMAGE_API: 'off',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const logDir = mkdtempSync(path.join(tmpdir(), 'bench-server-log-'));
  const logFile = path.join(logDir, 'server.log');
  const fd = openSync(logFile, 'w');
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], { cwd: root, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(logDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  let url: string | null = null;
  while (Date.now() < deadline && !url) {
    if (child.exitCode !== null) {
      const output = readFileSync(logFile, 'utf8');
      await stop();
      throw new Error(`The server exited with code ${child.exitCode} before it was ready:\n${output}`);
    }
    const match = /Listening on (http:\/\/[^\s]+)/.exec(readFileSync(logFile, 'utf8').slice(0, 20_000));
    if (match?.[1] && (await fetch(`${match[1]}/healthz`).catch(() => null))?.ok) url = match[1];
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!url) {
    await stop();
    throw new Error('The server did not start in time.');
  }
  const serverPid = Number(readFileSync(path.join(options.dataDir, LOCK_FILE_NAME), 'utf8').trim());
  if (!Number.isInteger(serverPid) || serverPid <= 0) {
    await stop();
    throw new Error('could not read the server pid from the DATA_DIR lock');
  }
  return { url, adminSecret: BENCH_ADMIN_SECRET, serverPid, stop };
}

export interface CeilingRoute {
  method: 'GET' | 'POST';
  /** Path with query, exactly as the load generator sends it. */
  url: string;
  status: number;
  contentType: string;
  body: string;
}

export interface CeilingServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A bench-side server script (`tsx <script> ...args`) that prints `Listening on <url>` when
 * ready: the ceiling servers. Stops with SIGTERM.
 */
export async function spawnListening(script: string, args: string[]): Promise<CeilingServer> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid ?? -1,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A bare Fastify process answering the recorded bytes from memory (bench/ceiling-server.ts). */
export async function startCeiling(routes: CeilingRoute[], file: string): Promise<CeilingServer> {
  writeFileSync(file, JSON.stringify(routes));
  return spawnListening('bench/ceiling-server.ts', [file]);
}
