import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, postgresAvailable } from '../../test-support/test-app';
import { openDatabase, type Database } from '../db/client';
import { memoryWindowCounter, postgresWindowCounter, type WindowCounter } from './window-counter';

describe('the in-memory window counter (PGlite: one process)', () => {
  it('counts hits in a window that starts at the first hit, then starts again', async () => {
    let clock = 1_000;
    const counter = memoryWindowCounter(() => clock);
    expect(await counter.hit('k', 100)).toEqual({ hits: 1, ttlMs: 100 });
    clock += 40;
    expect(await counter.hit('k', 100)).toEqual({ hits: 2, ttlMs: 60 });
    expect(await counter.peek('k')).toBe(2);
    expect(await counter.peek('other')).toBe(0);
    clock += 60;
    expect(await counter.peek('k')).toBe(0);
    expect(await counter.hit('k', 100)).toEqual({ hits: 1, ttlMs: 100 });
    await counter.clear('k');
    expect(await counter.peek('k')).toBe(0);
  });
});

describe.skipIf(!postgresAvailable)('the PostgreSQL window counter (shared by every server process)', () => {
  let database: { url: string; drop(): Promise<void> };
  let first: Database;
  let second: Database;
  let a: WindowCounter;
  let b: WindowCounter;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    first = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 10 });
    second = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 10 });
    a = postgresWindowCounter(first.db);
    b = postgresWindowCounter(second.db);
  }, 120_000);
  afterAll(async () => {
    await first.close();
    await second.close();
    await database.drop();
  });

  it('counts concurrent hits through two connection pools exactly once each', async () => {
    const hits = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).hit('together', 60_000)));
    expect(hits.map((h) => h.hits).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const h of hits) expect(h.ttlMs).toBeGreaterThan(50_000);
    expect(await b.peek('together')).toBe(40);
  });

  it('starts a new window once the last one ended, and clear ends one at once', async () => {
    expect((await a.hit('short', 150)).hits).toBe(1);
    expect((await b.hit('short', 150)).hits).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await a.peek('short')).toBe(0);
    expect((await b.hit('short', 150)).hits).toBe(1);
    await a.clear('short');
    expect(await b.peek('short')).toBe(0);
  });

  it('sweeps ended windows and keeps running ones', async () => {
    await a.hit('ends', 1);
    await a.hit('runs', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await b.sweep();
    const rows = await first.db.execute(sql`select key from rate_limits where key in ('ends', 'runs') order by key`);
    expect((rows as unknown as { rows: Array<{ key: string }> }).rows).toEqual([{ key: 'runs' }]);
  });
});
