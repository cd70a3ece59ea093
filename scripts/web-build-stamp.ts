/**
 * What the web build depends on, as one digest: every file under web/ (but its output), the
 * contract and domain code it imports, the lock file (dependency versions), the shared TypeScript
 * config and the VITE_* build settings. `npm start` (scripts/start.ts) rebuilds only when the digest differs from
 * the stamp the last successful build left in web/dist, so a restart with nothing changed skips
 * the build (seconds on a small machine) and starts the server at once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Folders and files (relative to the repository root) the web build reads. */
export const WEB_BUILD_INPUTS = ['web', 'contract', 'domain', 'package-lock.json', 'tsconfig.json'];
/** Never inputs: build output, dependencies, editor and OS litter. */
const SKIPPED = new Set(['dist', 'node_modules', '.DS_Store']);
/** Written into web/dist after a successful build; emptyOutDir removes it when a build starts. */
export const STAMP_FILE = '.build-stamp';

function listFiles(root: string, relative: string, into: string[]): void {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  if (!statSync(full).isDirectory()) {
    into.push(relative);
    return;
  }
  for (const name of readdirSync(full).sort()) {
    if (SKIPPED.has(name)) continue;
    listFiles(root, path.join(relative, name), into);
  }
}

/** Test files change often and are not part of the bundle. */
const isTestFile = (file: string) => /\.test\.tsx?$/.test(file);

export function webSourcesDigest(root: string, env: Record<string, string | undefined>): string {
  const hash = createHash('sha256');
  const files: string[] = [];
  for (const input of WEB_BUILD_INPUTS) listFiles(root, input, files);
  for (const file of files.filter((f) => !isTestFile(f))) {
    // Names are hashed too, so a renamed or deleted file changes the digest.
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  const settings = Object.keys(env)
    .filter((key) => key.startsWith('VITE_'))
    .sort()
    .map((key) => `${key}=${env[key] ?? ''}`);
  hash.update(settings.join('\n'));
  return hash.digest('hex');
}

export function stampPath(distDir: string): string {
  return path.join(distDir, STAMP_FILE);
}

/** `missing`: no finished build; `stale`: one of other sources or settings; `fresh`: one of exactly these. */
export function webBuildState(distDir: string, digest: string): 'missing' | 'stale' | 'fresh' {
  const stamp = stampPath(distDir);
  if (!existsSync(path.join(distDir, 'index.html'))) return 'missing';
  if (!existsSync(stamp)) return 'stale';
  return readFileSync(stamp, 'utf8').trim() === digest ? 'fresh' : 'stale';
}
