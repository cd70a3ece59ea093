/**
 * `npm start` as an operator runs it: one readable start-up line, and SIGTERM to npm stops the
 * server (npm runs one node process, which is the server, so the signal reaches it). Builds the
 * web app first when web/dist is missing or stale (`npm test` builds it before this runs).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalChildEnv } from '../test-support/env';

const root = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints one start-up line and stops the server when npm gets SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'npm-start-'));
    dirs.push(dataDir);
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: { ...minimalChildEnv(), DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_SECRET: 'npm-start-secret-123' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));

    let port = '';
    for (let waited = 0; !port; waited += 100) {
      if (npm.exitCode !== null || waited > 240_000) throw new Error(`npm start did not listen:\n${output}`);
      port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? '';
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(output.match(/Listening on/g)).toHaveLength(1);
    expect(output).not.toContain('Server listening at');
    // The built-in rater's worker threads load under `npm start` too (node --import tsx): a typed interview is rated.
    const base = `http://127.0.0.1:${port}`;
    const email = 'npm-start@example.com';
    const json = { 'content-type': 'application/json', 'x-user-email': email };
    expect((await fetch(`${base}/user/login`, { method: 'POST', headers: json, body: JSON.stringify({ email }) })).status).toBe(200);
    const sets = (await (await fetch(`${base}/api/question-sets`)).json()) as Array<{ id: number; questions: string[] }>;
    const set = sets[0]!;
    const token = (await (await fetch(`${base}/interview/token?questionSetId=${set.id}`, { headers: json })).json()) as {
      sessionId: string;
    };
    const rated = await fetch(`${base}/interview/rate-transcript`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        questionSetId: set.id,
        sessionId: token.sessionId,
        durationSeconds: 60,
        transcripts: [
          { role: 'interviewer', transcript: set.questions[0] },
          { role: 'interviewee', transcript: 'A closure is a function that keeps access to the variables of the scope it was created in.' },
        ],
      }),
    });
    expect(rated.status).toBe(200);
    expect(((await rated.json()) as { markdown: string }).markdown).toContain('# Interview feedback');

    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The server itself is gone: nothing answers on its port and it released the DATA_DIR lock.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  }, 300_000);
});
