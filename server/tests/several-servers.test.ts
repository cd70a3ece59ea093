/**
 * Two real server processes (`server/main.ts`) on one PostgreSQL database, started at the same
 * moment (their migrations take turns), behave as one: a rate limit of N holds across both, the
 * admin-secret throttle counts failures from both, credits cannot be overspent by minting through
 * both at once, and a question set edited through one (the admin editor) is served by the other
 * within the documented delay.
 *
 * The servers trust 127.0.0.1 as their proxy (TRUST_PROXY), so each check sends its own client
 * address in X-Forwarded-For, as a load balancer would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain, type MainProcess } from '../../test-support/run-main';
import { createPostgresDatabase, postgresAvailable } from '../../test-support/test-app';
import { openDatabase, type Database } from '../db/client';
import { questionSets } from '../db/schema';
import { ADMIN_MAX_FAILURES, ADMIN_SECRET_WRONG, ADMIN_THROTTLED } from '../services/admin';
import { REFRESH_MS } from '../services/question-set-cache';
import { OUT_OF_CREDITS } from '../services/tokens';

const SECRET = 'several-servers-secret-42';
const LOGIN_LIMIT = 4;
const CREDITS = 3;

interface Server {
  process: MainProcess;
  base: string;
  dataDir: string;
}

describe.skipIf(!postgresAvailable)('two servers on one PostgreSQL database', () => {
  let database: { url: string; drop(): Promise<void> };
  let direct: Database;
  let servers: Server[] = [];

  async function start(): Promise<Server> {
    // One DATA_DIR per process (each holds its own lock); the data itself is in PostgreSQL.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'several-servers-'));
    const child = runMain({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      ADMIN_SECRET: SECRET,
      TRUST_PROXY: '127.0.0.1',
      LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
      FREE_SESSION_LIMIT: String(CREDITS),
      DOG_IMAGE_API: 'off',
      LOG_LEVEL: 'warn',
    });
    const [, port] = await child.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)/);
    return { process: child, base: `http://127.0.0.1:${port}`, dataDir };
  }

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // Both at once: an empty database, so both find the same migrations pending.
    servers = await Promise.all([start(), start()]);
    direct = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) {
      server.process.child.kill('SIGTERM');
      await server.process.exited;
      rmSync(server.dataDir, { recursive: true, force: true });
    }
    await direct?.close();
    await database.drop();
  }, 60_000);

  /** The i-th request of a sequence goes to server i % 2, like a round-robin load balancer. */
  const via = (i: number) => servers[i % 2]?.base ?? '';

  const login = (base: string, client: string, email: string) =>
    fetch(`${base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email }),
    });

  it('holds a login limit of N across both servers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_LIMIT + 2; i += 1) statuses.push((await login(via(i), '198.51.100.1', `limit-${i}@example.com`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // Another client behind the same balancer still has its own allowance on both.
    expect((await login(via(0), '198.51.100.9', 'other@example.com')).status).toBe(200);
  });

  it('counts wrong admin secrets from both servers in one throttle', async () => {
    const events = (i: number, secret: string, client: string) =>
      fetch(`${via(i)}/api/events`, { headers: { 'x-admin-secret': secret, 'x-forwarded-for': client } });
    for (let i = 0; i < ADMIN_MAX_FAILURES; i += 1) {
      const answer = await events(i, 'not-the-secret', '198.51.100.4');
      expect([answer.status, await answer.json()]).toEqual([401, { error: ADMIN_SECRET_WRONG }]);
    }
    const next = await events(0, 'not-the-secret', '198.51.100.4');
    expect([next.status, await next.json()]).toEqual([429, { error: ADMIN_THROTTLED }]);
    const other = await events(1, 'not-the-secret', '198.51.100.4');
    expect([other.status, await other.json()]).toEqual([429, { error: ADMIN_THROTTLED }]);
    // Wrong guesses never shut out the right secret, on either server.
    for (const i of [0, 1]) expect((await events(i, SECRET, '198.51.100.4')).status).toBe(200);
  });

  it('gives exactly 3 sessions to 12 concurrent mints split across both servers with 3 credits', async () => {
    const email = 'credits@example.com';
    expect((await login(via(0), '198.51.100.2', email)).status).toBe(200);
    const [first] = await direct.db.select({ id: questionSets.id }).from(questionSets).where(eq(questionSets.index, 1));
    const mints = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${via(i)}/interview/token?questionSetId=${first?.id}`, {
          headers: { 'x-user-email': email, 'x-forwarded-for': '198.51.100.3' },
        }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as { error?: string } })),
      ),
    );
    const statuses = mints.map((m) => m.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CREDITS);
    expect(statuses.filter((s) => s === 402)).toHaveLength(12 - CREDITS);
    for (const refused of mints.filter((m) => m.status === 402)) expect(refused.body).toEqual({ error: OUT_OF_CREDITS });
    // Both servers took part in answering the successful ones or the refusals.
    expect(new Set(mints.map((m, i) => `${i % 2}:${m.status === 200 || m.status === 402}`))).toEqual(new Set(['0:true', '1:true']));
  });

  it(`serves a question set edited through one server from the other within ${REFRESH_MS} ms`, async () => {
    const names = async (base: string) =>
      ((await (await fetch(`${base}/api/question-sets`)).json()) as Array<{ index: number; name: string }>).find((s) => s.index === 1)
        ?.name;
    const before = await names(via(0));
    // Both servers hold the current list in memory now.
    expect(await names(via(1))).toBe(before);
    const admin = { 'x-admin-secret': SECRET, 'x-forwarded-for': '198.51.100.6', 'content-type': 'application/json' };
    const sets = (await (await fetch(`${via(0)}/api/admin/question-sets`, { headers: admin })).json()) as Array<
      Record<string, unknown> & { id: number; index: number }
    >;
    const first = sets.find((s) => s.index === 1);
    if (!first) throw new Error('no set with index 1');
    const { name: _name, index, isPremium, requiresFeedback, instructions, questions, modelAnswers } = first;
    const edited = await fetch(`${via(0)}/api/admin/question-sets/${first.id}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({
        name: 'Renamed through one server',
        index,
        isPremium,
        requiresFeedback,
        instructions,
        questions,
        modelAnswers,
      }),
    });
    expect(edited.status).toBe(200);
    // The editing server shows it at once; the other within the documented delay.
    expect(await names(via(0))).toBe('Renamed through one server');
    await new Promise((resolve) => setTimeout(resolve, REFRESH_MS + 100));
    expect(await names(via(1))).toBe('Renamed through one server');
  });
});
