/**
 * Vitest's global set-up (vitest.config.ts), run once per `vitest run` before any test file:
 * migrates one PGlite database and leaves its data directory as a tar file that every test app
 * clones (test-app.ts). Each test file runs in its own process, so without this every file would
 * pay PGlite's initdb and the migrations again (seconds each on a 2-core machine). The clone is the
 * same database the migrations produced; first starts on an empty directory are still proven by
 * the tests that start the real server process (server/main*.test.ts, server/tests/).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (tar), cloned by every PGlite test app. */
    pgliteTemplateFile: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  const client = new PGlite();
  const database = await openDatabase({ kind: 'pglite-client', client });
  const dump = await client.dumpDataDir('none');
  await database.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplateFile', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
