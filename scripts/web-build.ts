/**
 * Builds the web app into web/dist. `npm start` (scripts/start.ts) builds only when there is no
 * build yet or its sources changed since the last one (web-build-stamp.ts); `npm run build:web`
 * (scripts/build-web.ts) always builds, quietly. Either leaves the stamp after a successful
 * build, so the next start does not build the same sources again.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { webBuildEnv } from '../server/config';
import { stampPath, webBuildState, webSourcesDigest } from './web-build-stamp';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'web/dist');

export const FIRST_BUILD_TEXT = 'Building the web app for the first time (a minute or two on a small machine)…';
export const REBUILD_TEXT = 'Building the web app (its sources changed since the last build)…';

export function buildWeb(options: { force: boolean }): void {
  const digest = webSourcesDigest(root, webBuildEnv());
  const state = webBuildState(dist, digest);
  if (!options.force && state === 'fresh') return;
  const started = Date.now();
  if (!options.force) console.log(state === 'missing' ? FIRST_BUILD_TEXT : REBUILD_TEXT);
  rmSync(stampPath(dist), { force: true });
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  // Written only after a successful build: a failed one leaves no stamp and is retried next start.
  writeFileSync(stampPath(dist), `${digest}\n`);
  if (!options.force) console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
