/** The machine and versions a run used, for results.md. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, pgServerVersion } from './processes';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  loadAverage: number[];
  node: string;
  postgres: string;
  pglite: string;
  chromium: string;
  lighthouse: string;
  autocannon: string;
  kernel: string;
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

export async function describeMachine(): Promise<Machine> {
  let chromium = 'unknown';
  try {
    chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    chromium = 'not found at /usr/bin/chromium';
  }
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    node: process.version,
    postgres: await pgServerVersion().catch(() => 'unreachable'),
    pglite: packageVersion('@electric-sql/pglite'),
    chromium,
    lighthouse: packageVersion('lighthouse'),
    autocannon: packageVersion('autocannon'),
    kernel: `${os.type()} ${os.release()}`,
  };
}
