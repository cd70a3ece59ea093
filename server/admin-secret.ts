/** ADMIN_SECRET, or one generated on first start and kept in DATA_DIR (mode 0600). */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ADMIN_SECRET_FILE = 'admin-secret';

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
