/**
 * The admin secret check: constant time, and per-address throttling of failed attempts so the
 * secret cannot be guessed at speed. While an address is throttled even a right secret waits.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { WindowCounter } from './window-counter';

export const ADMIN_MAX_FAILURES = 10;
export const ADMIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

export const ADMIN_SECRET_WRONG = 'The admin secret is wrong.';
export const ADMIN_SECRET_MISSING = 'The admin secret is missing.';
export const ADMIN_THROTTLED = 'Too many failed admin attempts from your address. Please wait 15 minutes and try again.';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Equal-length digests make the comparison independent of where the strings differ. */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export type AdminCheck = { ok: true } | { ok: false; status: 401 | 429; error: string };

/** The throttle's key for an address (a row of `rate_limits` on PostgreSQL). */
export const adminThrottleKey = (address: string) => `admin:${address}`;

/**
 * Failures are counted per address in `counter` (shared by every server process on PostgreSQL),
 * in a window that starts at the first failure. A wrong secret counts before it is answered, so
 * concurrent guesses through several servers still get at most ADMIN_MAX_FAILURES 401s.
 */
export function createAdminGuard(expected: string, counter: WindowCounter) {
  /** The right secret: only an address under the failure limit gets in, and its failures are forgotten. */
  const settle = async (address: string, failures: number): Promise<AdminCheck> => {
    if (failures >= ADMIN_MAX_FAILURES) return { ok: false, status: 429, error: ADMIN_THROTTLED };
    if (failures > 0) await counter.clear(adminThrottleKey(address));
    return { ok: true };
  };
  return {
    /**
     * `deferPeek`: a right secret is let through without reading the failure count, because the
     * call's own statement reads it (one round trip instead of two on PostgreSQL) and passes it
     * to `settle` before answering. Only where the count is in the table (`counter.inTable`).
     */
    async check(address: string, given: string | undefined, deferPeek = false): Promise<AdminCheck> {
      const key = adminThrottleKey(address);
      if (given !== undefined && given !== '' && secretsEqual(given, expected)) {
        return deferPeek && counter.inTable ? { ok: true } : settle(address, await counter.peek(key));
      }
      const { hits } = await counter.hit(key, ADMIN_FAILURE_WINDOW_MS);
      if (hits > ADMIN_MAX_FAILURES) return { ok: false, status: 429, error: ADMIN_THROTTLED };
      return { ok: false, status: 401, error: given ? ADMIN_SECRET_WRONG : ADMIN_SECRET_MISSING };
    },
    settle,
    /** Whether `check(…, true)` leaves the count to the call's statement. */
    defers: counter.inTable,
  };
}
