/**
 * Fresh PostgreSQL databases on the test server (TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test), one per suite or e2e server: several suites and people
 * run at once on one server. Used by the Vitest harness (test-app.ts) and the e2e specs
 * (e2e/support/databases.ts); free of Vitest and Playwright so both can import it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { readTestEnv } from './env';

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: readTestEnv().testDatabaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `url` (the test server's address) with its database replaced by `name`. */
function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A new, empty database; `url` goes into DATABASE_URL (of an app or a server process), `drop` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${process.pid}_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  return {
    url: withDatabase(readTestEnv().testDatabaseUrl, name),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
