/**
 * The admin secret check: constant time, and throttled failures (docs/decisions/026-sign-in-links.md).
 * Wrong guesses are limited per address and overall, but never shut out the right secret: behind a
 * proxy without TRUST_PROXY every client shares one address, so a lock on the address would let any
 * stranger lock the operator out. What stops guessing is the secret's strength: a hand-set
 * ADMIN_SECRET too weak to survive guessing stops start-up (server/admin-secret.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { WindowCounter } from '../window-counter';

/** Wrong secrets one address may send per window before it is answered 429. */
export const ADMIN_MAX_FAILURES = 10;
/** Wrong secrets all addresses together may send per window before every wrong one is answered 429. */
export const ADMIN_MAX_FAILURES_OVERALL = 100;
export const ADMIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

export const ADMIN_SECRET_WRONG = 'The admin secret is wrong.';
export const ADMIN_SECRET_MISSING = 'The admin secret is missing.';
export const ADMIN_THROTTLED = 'Too many failed admin attempts from your address. Please wait 15 minutes and try again.';
export const ADMIN_THROTTLED_OVERALL = 'Too many failed admin attempts. Please wait 15 minutes and try again.';

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
/** The key counting every address's failures together. */
export const ADMIN_OVERALL_KEY = 'admin-overall';

/**
 * Failures are counted in `counter` (shared by every server process on PostgreSQL), per address
 * and overall, each in a window that starts at its first failure. A wrong secret counts before it
 * is answered, so concurrent guesses through several servers still get at most the limit's 401s.
 */
export function createAdminGuard(expected: string, counter: WindowCounter) {
  /** The right secret always gets in; an address's earlier failures are forgotten. */
  const settle = async (address: string, failures: number): Promise<AdminCheck> => {
    if (failures > 0) await counter.clear(adminThrottleKey(address));
    return { ok: true };
  };
  const fail = async (address: string, given: string | undefined): Promise<AdminCheck> => {
    const [own, overall] = await Promise.all([
      counter.hit(adminThrottleKey(address), ADMIN_FAILURE_WINDOW_MS),
      counter.hit(ADMIN_OVERALL_KEY, ADMIN_FAILURE_WINDOW_MS),
    ]);
    if (own.hits > ADMIN_MAX_FAILURES) return { ok: false, status: 429, error: ADMIN_THROTTLED };
    if (overall.hits > ADMIN_MAX_FAILURES_OVERALL) return { ok: false, status: 429, error: ADMIN_THROTTLED_OVERALL };
    return { ok: false, status: 401, error: given ? ADMIN_SECRET_WRONG : ADMIN_SECRET_MISSING };
  };
  return {
    /**
     * `deferPeek`: a right secret is let through without reading the failure count, because the
     * call's own statement reads it (one round trip instead of two on PostgreSQL) and passes it
     * to `settle` before answering. Only where the count is in the table (`counter.inTable`).
     */
    async check(address: string, given: string | undefined, deferPeek = false): Promise<AdminCheck> {
      if (given !== undefined && given !== '' && secretsEqual(given, expected)) {
        return deferPeek && counter.inTable ? { ok: true } : settle(address, await counter.peek(adminThrottleKey(address)));
      }
      return fail(address, given);
    },
    settle,
    /** Whether `check(…, true)` leaves the count to the call's statement. */
    defers: counter.inTable,
  };
}
