/** ADMIN_SECRET, or one generated on first start and kept in DATA_DIR (mode 0600). */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_ADMIN_SECRET_DISTINCT, MIN_ADMIN_SECRET_LENGTH } from '../domain/admin-pages';

export const ADMIN_SECRET_FILE = 'admin-secret';

/** A hand-set secret must carry at least this many bits by `secretStrengthBits` (the generated one has 192). */
export const MIN_ADMIN_SECRET_BITS = 72;
export const WEAK_ADMIN_SECRET =
  'is too weak to survive guessing: use at least 16 characters with at least 10 different ones, mixing letters, digits or symbols (for example the output of `openssl rand -base64 24`)';

/**
 * A cautious estimate of a secret's guessing strength: its length times the bits of the character
 * classes it uses (lower, upper, digits, other), counted over its distinct characters only when it
 * repeats itself, so `aaaa…` and `abab…` score low. It cannot see dictionary words: the README
 * asks for a random secret.
 */
export function secretStrengthBits(secret: string): number {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  const sizes = [26, 26, 10, 33];
  const pool = classes.reduce((sum, pattern, i) => sum + (pattern.test(secret) ? (sizes[i] ?? 0) : 0), 0);
  const chars = [...secret];
  const distinct = new Set(chars).size;
  const counted = Math.min(chars.length, distinct * 2);
  return distinct < MIN_ADMIN_SECRET_DISTINCT ? 0 : Math.floor(counted * Math.log2(Math.max(pool, 2)));
}

export const strongEnough = (secret: string) =>
  secret.length >= MIN_ADMIN_SECRET_LENGTH && secretStrengthBits(secret) >= MIN_ADMIN_SECRET_BITS;

export interface AdminSecretResult {
  secret: string;
  /** True only on the start that generated it: the one time it is printed. */
  generated: boolean;
  file: string | null;
}

export function resolveAdminSecret(configured: string | null, dataDir: string): AdminSecretResult {
  if (configured) return { secret: configured, generated: false, file: null };
  const file = path.join(dataDir, ADMIN_SECRET_FILE);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return { secret: stored, generated: false, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(24).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  // The umask may have widened the mode of an existing empty file; make it owner-only.
  chmodSync(file, 0o600);
  return { secret, generated: true, file };
}
