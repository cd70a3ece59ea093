/**
 * The two databases the product runs on, for end-to-end tests that must hold on both:
 *
 *   for (const database of E2E_DATABASES) test.describe(database, () => {
 *     const db = e2eDatabase(database);   // db.env() before starting a server, db.drop() after
 *   });
 *
 * PGlite: each server's own DATA_DIR (nothing to set). PostgreSQL: a fresh database on
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards; several
 * server processes may share it (DATABASE_URL).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { readTestEnv } from '../../test-support/env';

export const E2E_DATABASES = ['pglite', 'postgres'] as const;
export type E2eDatabase = (typeof E2E_DATABASES)[number];

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: readTestEnv().testDatabaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL database; `url` goes into DATABASE_URL. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `e2e_${process.pid}_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(readTestEnv().testDatabaseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** The settings a server needs for `kind` (a PostgreSQL database is created on first use), and its clean-up. */
export function e2eDatabase(kind: E2eDatabase) {
  let created: { url: string; drop(): Promise<void> } | null = null;
  return {
    async env(): Promise<Record<string, string>> {
      if (kind === 'pglite') return {};
      created ??= await createPostgresDatabase();
      return { DATABASE_URL: created.url };
    },
    async drop(): Promise<void> {
      await created?.drop();
      created = null;
    },
  };
}
