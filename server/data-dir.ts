/**
 * DATA_DIR holds the embedded database and the admin secret: only the server's own user may read
 * it. The directory is made 0700 (also when it already existed), everything in it loses its group
 * and other permissions, and the process umask keeps new files private.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Strips group/other permissions below `dir` (not following symlinks). */
export function makePrivate(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) makePrivate(full);
    else {
      const mode = lstatSync(full).mode & 0o777;
      if (mode & 0o077) chmodSync(full, mode & 0o700);
    }
  }
}

export function prepareDataDir(dir: string): void {
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  makePrivate(dir);
}
