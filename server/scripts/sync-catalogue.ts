/**
 * `npm run catalogue:sync`: re-reads content/question-sets/*.md and upserts every set by its
 * index into the configured database (DATABASE_URL, or PGlite in DATA_DIR). Sets are never
 * deleted here, so ratings that point at them stay intact.
 *
 * With PGlite the server must be stopped first: the script takes the same DATA_DIR lock.
 */
import { mkdirSync } from 'node:fs';
import { CATALOGUE_DIR } from '../app';
import { readCatalogue } from '../catalogue/read-catalogue';
import { readConfigOrExit } from '../config';
import { acquireDataDirLock, DataDirLockedError } from '../data-dir-lock';
import { databaseOptionsFor, openDatabase } from '../db/client';
import { upsertCatalogue } from '../services/catalogue';

async function main(): Promise<void> {
  const config = readConfigOrExit();
  const sets = await readCatalogue(CATALOGUE_DIR);
  let release = () => undefined as void;
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      release = acquireDataDirLock(config.dataDir).release;
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        console.error(`${error.message}\nThe catalogue sync needs the server stopped when it runs on PGlite.`);
        process.exit(1);
      }
      throw error;
    }
  }
  const database = await openDatabase(databaseOptionsFor(config));
  try {
    const written = await upsertCatalogue(database.db, sets);
    console.log(`Synced ${written} question sets from ${CATALOGUE_DIR}.`);
  } finally {
    await database.close();
    release();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Catalogue sync failed: ${error.message}` : error);
  process.exit(1);
});
