/**
 * Playwright's global set-up (playwright.config.ts), once per `playwright test`: starts the real
 * server once on an empty DATA_DIR (PGlite's initdb and every migration, the first start an
 * operator sees), stops it, and leaves its database as the template that every later PGlite
 * server of the run starts from (TEST_PGLITE_TEMPLATE_DIR, test-support/server-process.ts). The
 * returned function removes it after the run.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startServer } from '../../test-support/server-process';

export default async function globalSetup(): Promise<() => void> {
  delete process.env.TEST_PGLITE_TEMPLATE_DIR; // this first start is from an empty directory
  const server = await startServer({ keepDataDir: true });
  await server.stop();
  process.env.TEST_PGLITE_TEMPLATE_DIR = path.join(server.dataDir, 'pglite');
  return () => rmSync(server.dataDir, { recursive: true, force: true });
}
