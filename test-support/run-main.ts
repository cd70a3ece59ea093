/**
 * Runs the real server process (`server/main.ts`) for start-up tests. One process (no tsx wrapper
 * relaying signals), so SIGTERM and the lock's PID are the server's own.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { minimalChildEnv } from './env';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface MainProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The exit code, once it exits. */
  exited: Promise<number | null>;
  /** Waits until the output so far matches; throws with the output if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  output(): string;
}

export function runMain(env: Record<string, string>): MainProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...minimalChildEnv(), PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp) => {
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`exited early:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, waitFor, output: () => output };
}
