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
import { createPostgresDatabase } from '../../test-support/postgres';

export { createPostgresDatabase };

export const E2E_DATABASES = ['pglite', 'postgres'] as const;
export type E2eDatabase = (typeof E2E_DATABASES)[number];

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
