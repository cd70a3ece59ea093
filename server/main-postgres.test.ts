/**
 * `server/main.ts` on DATABASE_URL: the real process migrates an empty PostgreSQL database, loads
 * the shipped catalogue once, keeps nothing but its lock and secret in DATA_DIR, and a restart on
 * the same database finds the same data.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain, type MainProcess } from '../test-support/run-main';
import { createPostgresDatabase, postgresAvailable } from '../test-support/test-app';

describe.skipIf(!postgresAvailable)('server/main.ts on DATABASE_URL', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'main-postgres-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<{ server: MainProcess; base: string }> {
    const server = runMain({ DATA_DIR: dataDir, DATABASE_URL: database.url, ADMIN_SECRET: 'main-postgres-secret-123' });
    const [, port] = await server.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)/);
    return { server, base: `http://127.0.0.1:${port}` };
  }

  async function stop(server: MainProcess): Promise<void> {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }

  async function loginAs(base: string, email: string): Promise<{ isNewUser: boolean }> {
    const answer = await fetch(`${base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { isNewUser: boolean };
  }

  it('migrates, loads the catalogue once, stores nothing in DATA_DIR but the lock, and keeps data across a restart', async () => {
    const first = await start();
    try {
      const sets = (await (await fetch(`${first.base}/api/question-sets`)).json()) as Array<{ index: number }>;
      expect(sets.map((s) => s.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await loginAs(first.base, 'pg-user@example.com')).toMatchObject({ isNewUser: true });
      // No PGlite files: the data lives in PostgreSQL (the admin secret came from the environment).
      expect(readdirSync(dataDir)).toEqual(['server.lock']);
    } finally {
      await stop(first.server);
    }

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ email: string }>('select email from accounts');
      expect(rows).toEqual([{ email: 'pg-user@example.com' }]);
    } finally {
      await client.end();
    }

    const second = await start();
    try {
      const sets = (await (await fetch(`${second.base}/api/question-sets`)).json()) as unknown[];
      expect(sets).toHaveLength(8);
      expect(await loginAs(second.base, 'pg-user@example.com')).toMatchObject({ isNewUser: false });
    } finally {
      await stop(second.server);
    }
    expect(readdirSync(dataDir)).toEqual([]);
  }, 300_000);
});
