/** LOG_LEVEL reaches the real server process: at `warn` a served request writes no log line. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMain } from '../test-support/run-main';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function outputAfterOneRequest(logLevel: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'log-level-'));
  dirs.push(dir);
  const server = runMain({ DATA_DIR: dir, ADMIN_SECRET: 'log-level-secret-123', LOG_LEVEL: logLevel });
  try {
    const [, port] = await server.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)/);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  } finally {
    server.child.kill('SIGTERM');
  }
  expect(await server.exited).toBe(0);
  return server.output();
}

describe('LOG_LEVEL', () => {
  it('logs every request at info and none at warn', async () => {
    expect(await outputAfterOneRequest('info')).toContain('"url":"/healthz"');
    const quiet = await outputAfterOneRequest('warn');
    expect(quiet).toContain('Listening on');
    // No support settings were given: the start-up warning names them.
    expect(quiet).toContain('Warning: Support is not set up: SUPPORT_CHAT_URL and SUPPORT_CONTACTS are empty');
    expect(quiet).not.toContain('/healthz');
    expect(quiet).not.toContain('"level":30');
  }, 300_000);
});
