/**
 * `npm start`'s first step: build the web app only when its sources changed since the last
 * successful build (see web-build-stamp.ts). `--force` (`npm run build:web`) always builds, quietly,
 * and leaves the stamp too, so the next `npm start` does not build the same sources again.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webBuildEnv } from '../server/config';
import { stampPath, webBuildIsStale, webSourcesDigest } from './web-build-stamp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'web/dist');

const digest = webSourcesDigest(root, webBuildEnv());
const force = process.argv.includes('--force');
if (force || webBuildIsStale(dist, digest)) {
  const started = Date.now();
  if (!force) console.log('Building the web app (its sources changed since the last build)…');
  rmSync(stampPath(dist), { force: true });
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  // Written only after a successful build: a failed one leaves no stamp and is retried next start.
  writeFileSync(stampPath(dist), `${digest}\n`);
  if (!force) console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
