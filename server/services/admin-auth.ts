/**
 * The admin secret check: constant time, and per-address throttling of failed attempts so the
 * secret cannot be guessed at speed. While an address is throttled even a right secret waits.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

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

export function createAdminGuard(expected: string, now: () => number = Date.now) {
  const failures = new Map<string, { count: number; since: number }>();

  function forget(): void {
    const t = now();
    for (const [address, entry] of failures) if (t - entry.since > ADMIN_FAILURE_WINDOW_MS) failures.delete(address);
  }

  return {
    check(address: string, given: string | undefined): AdminCheck {
      if (failures.size > 10_000) forget();
      const entry = failures.get(address);
      if (entry && now() - entry.since > ADMIN_FAILURE_WINDOW_MS) failures.delete(address);
      const current = failures.get(address);
      if (current && current.count >= ADMIN_MAX_FAILURES) return { ok: false, status: 429, error: ADMIN_THROTTLED };
      if (given !== undefined && given !== '' && secretsEqual(given, expected)) {
        failures.delete(address);
        return { ok: true };
      }
      failures.set(address, { count: (current?.count ?? 0) + 1, since: current?.since ?? now() });
      return { ok: false, status: 401, error: given ? ADMIN_SECRET_WRONG : ADMIN_SECRET_MISSING };
    },
  };
}
