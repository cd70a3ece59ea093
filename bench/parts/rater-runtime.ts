/**
 * The built-in rater as the server runs it (issue 32, "Never on the event loop"): the real server
 * process (`node --import tsx server/main.ts`, as `npm start` runs it) on PGlite, over HTTP.
 *
 * - "Listening on": from spawning the process to that line, on a restart (the database exists),
 *   median of a few starts.
 * - `/healthz` while four interviews are rated at once (three 60-minute transcripts and one of ten
 *   fresh 20,000-letter words): one health check at a time for the whole round, every latency kept.
 * - A 60-minute transcript rated over HTTP, one at a time: median of the calls.
 * - The server's RSS (/proc) after start and at its peak while rating.
 *
 * With `--baseline=REF` the same is measured on the product as it was at REF (unpacked with
 * `git archive`, sharing node_modules), so "before" and "after" come from one run on one machine.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inheritedChildEnv } from '../../test-support/env';
import { LOCK_FILE_NAME } from '../../server/data-dir-lock';
import type { TranscriptEntry } from '../../contract';
import { ROOT, rssMb, BENCH_ADMIN_SECRET } from '../lib/processes';
import { hourLongTranscript } from './rater';

export interface RuntimeRun {
  /** What ran: `this checkout`, or the baseline ref. */
  label: string;
  env: Record<string, string>;
  /** Spawn → "Listening on", each restart. */
  listeningMs: number[];
  listeningMedianMs: number;
  healthz: { samples: number; p50Ms: number; p99Ms: number; maxMs: number; failed?: number };
  /** Each round's four ratings, wall time of the slowest. */
  concurrentRoundMs: number[];
  hourRatingMs: number[];
  hourRatingMedianMs: number;
  rssAfterStartMb: number;
  rssPeakMb: number;
}

export interface RaterRuntimeResult {
  rounds: number;
  runs: RuntimeRun[];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Ten fresh 20,000-letter words, each its own answer: no cache has seen them (issue 32). */
export function pathologicalTranscript(): TranscriptEntry[] {
  return Array.from({ length: 10 }, () => ({
    role: 'interviewee' as const,
    transcript: Array.from({ length: 20_000 }, () => LETTERS[Math.floor(Math.random() * LETTERS.length)]).join(''),
  }));
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const median = (values: readonly number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

interface Started {
  url: string;
  pid: number;
  listeningMs: number;
  /** What the server printed (for the error when it stops). */
  output(): string;
  stop(): Promise<void>;
}

async function startServer(root: string, dataDir: string, env: Record<string, string>): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...inheritedChildEnv(),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_SECRET: BENCH_ADMIN_SECRET,
      LOG_LEVEL: 'warn',
      DOG_IMAGE_API: 'off',
      RATE_LIMIT_ALLOW: '127.0.0.1',
      RATING_RATE_LIMIT: '100000',
      RATING_ACCOUNT_RATE_LIMIT: '100000',
      FREE_SESSION_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`The server exited with ${code} before it listened:\n${output}`)));
  });
  const listeningMs = performance.now() - began;
  const pid = Number(readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8').trim());
  return {
    url,
    pid,
    listeningMs,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function rate(url: string, email: string, setId: number, transcripts: TranscriptEntry[]): Promise<number> {
  const user = { 'x-user-email': email };
  const login = await fetch(`${url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const token = await fetch(`${url}/interview/token?questionSetId=${setId}`, { headers: user });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${await token.text()}`);
  const { sessionId } = (await token.json()) as { sessionId?: string };
  const started = performance.now();
  const response = await fetch(`${url}/interview/rate-transcript`, {
    method: 'POST',
    headers: { ...user, 'content-type': 'application/json' },
    body: JSON.stringify({ transcripts, durationSeconds: 3600, questionSetId: setId, ...(sessionId ? { sessionId } : {}) }),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`rate-transcript: ${response.status} ${body.slice(0, 300)}`);
  return performance.now() - started;
}

/** One health check at a time until `until` settles; each latency in ms, and how many failed (the connection dropped). */
async function watchHealth(url: string, until: Promise<unknown>): Promise<{ latencies: number[]; failed: number }> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  let failed = 0;
  while (!done) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
    } catch {
      failed += 1;
    }
    latencies.push(performance.now() - started);
  }
  return { latencies, failed };
}

async function measure(label: string, root: string, env: Record<string, string>, rounds: number, log: (l: string) => void) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-rater-runtime-'));
  try {
    // The first start creates the database; the figures are restarts, as an operator's are.
    await (await startServer(root, dataDir, env)).stop();
    const listeningMs: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const server = await startServer(root, dataDir, env);
      listeningMs.push(server.listeningMs);
      await server.stop();
    }
    const server = await startServer(root, dataDir, env);
    listeningMs.push(server.listeningMs);
    try {
      const rssAfterStartMb = rssMb(server.pid);
      let rssPeakMb = rssAfterStartMb;
      const sampler = setInterval(() => {
        try {
          rssPeakMb = Math.max(rssPeakMb, rssMb(server.pid));
        } catch {
          // The server has stopped: the error that stopped it is reported by the calls.
        }
      }, 50);
      try {
        const sets = (await (await fetch(`${server.url}/api/question-sets`)).json()) as Array<{ id: number; index: number }>;
        const setId = sets.find((s) => s.index === 1)?.id;
        if (setId === undefined) throw new Error('no question set with index 1');
        const hour = hourLongTranscript();
        let account = 0;
        const email = () => `rater-runtime-${(account += 1)}@bench.example`;
        // Warm-up: the first rating may wait for the model to finish loading.
        await rate(server.url, email(), setId, hour);
        const health: number[] = [];
        let healthFailed = 0;
        const concurrentRoundMs: number[] = [];
        for (let round = 0; round < rounds; round += 1) {
          const started = performance.now();
          const ratings = Promise.all([
            rate(server.url, email(), setId, hour),
            rate(server.url, email(), setId, hour),
            rate(server.url, email(), setId, hour),
            rate(server.url, email(), setId, pathologicalTranscript()),
          ]);
          const watched = await watchHealth(server.url, ratings);
          health.push(...watched.latencies);
          healthFailed += watched.failed;
          await ratings;
          concurrentRoundMs.push(performance.now() - started);
        }
        const hourRatingMs: number[] = [];
        for (let i = 0; i < Math.max(5, rounds * 2); i += 1) hourRatingMs.push(await rate(server.url, email(), setId, hour));
        health.sort((a, b) => a - b);
        const run: RuntimeRun = {
          label,
          env,
          listeningMs,
          listeningMedianMs: median(listeningMs),
          healthz: {
            samples: health.length,
            p50Ms: quantile(health, 0.5),
            p99Ms: quantile(health, 0.99),
            maxMs: health.at(-1) ?? NaN,
            failed: healthFailed,
          },
          concurrentRoundMs,
          hourRatingMs,
          hourRatingMedianMs: median(hourRatingMs),
          rssAfterStartMb,
          rssPeakMb,
        };
        log(
          `  ${label}${Object.keys(env).length > 0 ? ` ${JSON.stringify(env)}` : ''}: Listening on after ${run.listeningMedianMs.toFixed(0)} ms (${listeningMs.map((m) => m.toFixed(0)).join(', ')}); /healthz under four ratings p50 ${run.healthz.p50Ms.toFixed(1)} ms, p99 ${run.healthz.p99Ms.toFixed(1)} ms, max ${run.healthz.maxMs.toFixed(0)} ms (${run.healthz.samples} checks, ${healthFailed} dropped); rounds ${concurrentRoundMs.map((m) => m.toFixed(0)).join(', ')} ms; 60-minute rating median ${run.hourRatingMedianMs.toFixed(0)} ms; RSS ${rssAfterStartMb.toFixed(0)} → peak ${rssPeakMb.toFixed(0)} MB`,
        );
        return run;
      } catch (error) {
        throw new Error(`${String(error)}\nThe server printed:\n${server.output().slice(-3000)}`);
      } finally {
        clearInterval(sampler);
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function checkout(ref: string): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-baseline-'));
  execFileSync('sh', ['-c', `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function runRaterRuntime(options: {
  rounds: number;
  baseline: string | null;
  /** Extra variants of this checkout, e.g. `RATER_MODEL: 'off'`. */
  variants: Array<Record<string, string>>;
  log: (line: string) => void;
}): Promise<RaterRuntimeResult> {
  const runs: RuntimeRun[] = [];
  if (options.baseline) {
    const base = checkout(options.baseline);
    try {
      runs.push(await measure(`before (${options.baseline})`, base.dir, {}, options.rounds, options.log));
    } finally {
      base.dispose();
    }
  }
  for (const env of [{}, ...options.variants]) runs.push(await measure('this checkout', ROOT, env, options.rounds, options.log));
  return { rounds: options.rounds, runs };
}
