/**
 * The configured database for a command-line script (DATABASE_URL, or PGlite in DATA_DIR). On
 * PGlite the script takes the DATA_DIR lock, so the server must be stopped while it runs: one
 * process at a time may open a PGlite directory.
 */
import { mkdirSync } from 'node:fs';
import type { AppConfig } from '../config';
import { acquireDataDirLock, DataDirLockedError } from '../data-dir-lock';
import { databaseOptionsFor, openDatabase, type Db } from '../db/client';

export async function withScriptDatabase<T>(config: AppConfig, what: string, run: (db: Db) => Promise<T>): Promise<T> {
  let release = () => undefined as void;
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      release = acquireDataDirLock(config.dataDir).release;
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        console.error(
          `${error.message}\nThe ${what} needs the server stopped when it runs on PGlite (or use the admin's question-set editor).`,
        );
        process.exit(1);
      }
      throw error;
    }
  }
  try {
    const database = await openDatabase(databaseOptionsFor(config));
    try {
      return await run(database.db);
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}
