/**
 * Fixed-window counters: the login and token rate limits and the admin-secret throttle count
 * hits per key; a key's window starts at its first hit and the count starts again after it.
 *
 * On PostgreSQL every server process counts in the `rate_limits` table (one atomic upsert per
 * hit), so N servers behind a load balancer allow N hits in total, not N per process. PGlite
 * serves one process, so it counts in memory (no write per login).
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';

export interface WindowCount {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

export interface WindowCounter {
  /** The counts are rows of `rate_limits` (PostgreSQL), so a call's own statement can read one. */
  readonly inTable: boolean;
  /** Counts one hit on `key` (or `amount`, e.g. characters sent); a new window of `windowMs` starts when none is running. */
  hit(key: string, windowMs: number, amount?: number): Promise<WindowCount>;
  /** Hits in the running window (0 when none), without counting one. */
  peek(key: string): Promise<number>;
  /** Ends the key's window (e.g. the right admin secret clears earlier failures). */
  clear(key: string): Promise<void>;
  /** Drops windows that ended (PostgreSQL: rows; memory: entries). */
  sweep(): Promise<void>;
  /** Ends every window whose key ends with `suffix` (an erased person's per-account keys). */
  forget(suffix: string): Promise<void>;
}

/** Memory holds at most this many keys between sweeps; more triggers a sweep of ended windows. */
const MEMORY_SWEEP_AT = 10_000;

export function memoryWindowCounter(now: () => number = Date.now): WindowCounter {
  const windows = new Map<string, { hits: number; endsAt: number }>();
  const running = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.endsAt <= now()) windows.delete(key);
    return entry && entry.endsAt > now() ? entry : undefined;
  };
  const sweep = async () => {
    const t = now();
    for (const [key, entry] of windows) if (entry.endsAt <= t) windows.delete(key);
  };
  return {
    inTable: false,
    async hit(key, windowMs, amount = 1) {
      if (windows.size > MEMORY_SWEEP_AT) await sweep();
      const entry = running(key) ?? { hits: 0, endsAt: now() + windowMs };
      entry.hits += amount;
      windows.set(key, entry);
      return { hits: entry.hits, ttlMs: entry.endsAt - now() };
    },
    async peek(key) {
      return running(key)?.hits ?? 0;
    },
    async clear(key) {
      windows.delete(key);
    },
    sweep,
    async forget(suffix) {
      for (const key of windows.keys()) if (key.endsWith(suffix)) windows.delete(key);
    },
  };
}

export function postgresWindowCounter(db: Db): WindowCounter {
  return {
    inTable: true,
    async hit(key, windowMs, amount = 1) {
      // One statement: the row lock of ON CONFLICT makes concurrent hits from any process count
      // one after the other; the database clock decides when a window ends, for every process.
      const result = await db.execute(sql`
        insert into rate_limits as r (key, hits, window_ends_at)
        values (${key}, ${amount}::int, now() + ${windowMs}::int * interval '1 millisecond')
        on conflict (key) do update set
          hits = case when r.window_ends_at <= now() then excluded.hits else r.hits + excluded.hits end,
          window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at else r.window_ends_at end
        returning hits, greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl_ms`);
      const row = (result as unknown as { rows: Array<{ hits: number; ttl_ms: number }> }).rows[0];
      if (!row) throw new Error('the rate-limit upsert returned no row');
      return { hits: Number(row.hits), ttlMs: Number(row.ttl_ms) };
    },
    async peek(key) {
      const [row] = await db
        .select({ hits: rateLimits.hits })
        .from(rateLimits)
        .where(and(eq(rateLimits.key, key), gt(rateLimits.windowEndsAt, sql`now()`)));
      return row?.hits ?? 0;
    },
    async clear(key) {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
    async sweep() {
      await db.delete(rateLimits).where(lt(rateLimits.windowEndsAt, sql`now()`));
    },
    async forget(suffix) {
      await db.delete(rateLimits).where(sql`right(${rateLimits.key}, ${suffix.length}) = ${suffix}`);
    },
  };
}
