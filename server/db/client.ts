/**
 * Opens the database: PostgreSQL when a URL is given, PGlite persisted in a directory otherwise,
 * and applies the committed migrations. Both drivers expose the same Drizzle `Db` type.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { schema } from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** `dataDir` undefined = in memory. */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob }
  /** An already opened PGlite (tests clone a migrated template). */
  | { kind: 'pglite-client'; client: PGlite };

/** Any fixed number: names the advisory lock every server process takes around its migrations. */
const MIGRATION_LOCK = 7_316_016;

/**
 * Several servers starting at once on one PostgreSQL would each apply the same pending migration
 * (Drizzle's migrator takes no lock) and all but one would fail. A session advisory lock makes
 * them take turns; the later ones find nothing left to apply.
 */
async function migrateOnce(pool: pg.Pool, migrate: () => Promise<void>): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate();
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    lock.release();
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema });
    try {
      await migrateOnce(pool, () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }));
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const client =
    options.kind === 'pglite-client' ? options.client : new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/** From the app config: PostgreSQL via DATABASE_URL, else PGlite in DATA_DIR/pglite. */
export function databaseOptionsFor(config: { databaseUrl: string | null; dataDir: string }): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') };
}

/** The database is PGlite in this process (one server, files in DATA_DIR), not a PostgreSQL pool. */
export function isPglite(db: Db): boolean {
  return (db as unknown as { $client: unknown }).$client instanceof PGlite;
}

/**
 * Runs one hand-written statement of a hot call and returns its rows. On PostgreSQL it is a named
 * (prepared) statement: each pool connection parses and plans it once, later calls only bind and
 * execute. PGlite runs in this process, where a round trip costs nothing to save.
 * `text` must be a constant: the name stands for it on every connection.
 */
export async function preparedRows<T>(db: Db, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) return (await client.query<T & pg.QueryResultRow>({ name, text, values })).rows;
  if (client instanceof PGlite) return (await client.query<T>(text, values)).rows;
  throw new Error('preparedRows needs the database handle itself, not a transaction');
}
