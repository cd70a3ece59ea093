/**
 * Test harness: the real app (buildApp) on a real database, one fresh database per call.
 *
 *   const t = await createTestApp({ database: 'pglite' });          // or 'postgres'
 *   const res = await t.app.inject({ method: 'GET', url: '/healthz' });
 *   await t.close();
 *
 * Options: `config` (Partial<AppConfig>, merged over test defaults: ADMIN_SECRET =
 * TEST_ADMIN_SECRET, a temp DATA_DIR, generous per-call limits, everything else the config defaults), `questionSets`
 * (catalogue to load; default the shipped content/question-sets), `deps` (AppDeps such as
 * `providers` or `webDist`; default webDist null), `listen: true` (binds 127.0.0.1 on a random
 * port and returns `baseUrl`), `postgresUrl` (a second app on an existing database, as a second
 * server process would be).
 * Returns {app, config, db, databaseUrl?, baseUrl?, close()}. `db` is the Drizzle handle for assertions.
 *
 * PGlite: migrated once per run (vitest-setup.ts) into a template that each call clones (cheap).
 * PostgreSQL: TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); each call
 * creates its own database (dropped on close) since several suites and people run at once.
 *
 * describeDatabases(name, fn) runs a suite on both. When PostgreSQL is unreachable the
 * PostgreSQL half is skipped with a loud console line, or fails under CI=true.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { buildApp, CATALOGUE_DIR, type AppDeps } from '../server/app';
import { readCatalogue } from '../server/catalogue/read-catalogue';
import { loadConfig, type AppConfig } from '../server/config';
import { readTestEnv } from './env';
import { createPostgresDatabase } from './postgres';
import { openDatabase, type Database, type Db } from '../server/db/client';
import type { CatalogueSet } from '../server/services/catalogue';

export { createPostgresDatabase };

export type TestDatabaseKind = 'pglite' | 'postgres';
export const TEST_ADMIN_SECRET = 'test-admin-secret-0123456789';

export interface TestAppOptions {
  database: TestDatabaseKind;
  config?: Partial<AppConfig>;
  questionSets?: CatalogueSet[];
  deps?: Omit<AppDeps, 'database' | 'catalogue'>;
  listen?: boolean;
  /** PostgreSQL only: open this existing database (another app's, to act as a second server process) and leave it on close. */
  postgresUrl?: string;
}

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig & { adminSecret: string };
  db: Db;
  /** PostgreSQL: the database's address (for a second app on it). */
  databaseUrl?: string;
  baseUrl?: string;
  close(): Promise<void>;
}

const testEnv = readTestEnv();

let templatePromise: Promise<Blob> | null = null;
/** The migrated data directory the global set-up (vitest-setup.ts) made once for the whole run. */
function pgliteTemplate(): Promise<Blob> {
  templatePromise ??= readFile(inject('pgliteTemplateFile')).then((bytes) => new Blob([bytes]));
  return templatePromise;
}

async function openTestDatabase(kind: TestDatabaseKind): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const client = new PGlite({ loadDataDir: await pgliteTemplate() });
    const database = await openDatabase({ kind: 'pglite-client', client });
    return { database, drop: async () => undefined };
  }
  const { url, drop } = await createPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 25 });
  return { database, url, drop };
}

const generous = { perAddress: 100_000, perAccount: 100_000 };
export const GENEROUS_CALL_LIMITS: AppConfig['callLimits'] = { rating: generous, turn: generous, abandon: generous, feedback: generous };

let shippedCatalogue: Promise<CatalogueSet[]> | null = null;

export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'interview-test-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, ADMIN_SECRET: TEST_ADMIN_SECRET }),
    // Suites make many calls as one user from one address; the limit tests set their own.
    callLimits: GENEROUS_CALL_LIMITS,
    ...options.config,
  };
  const adminSecret = config.adminSecret ?? TEST_ADMIN_SECRET;
  const { database, url, drop } = options.postgresUrl
    ? {
        database: await openDatabase({ kind: 'postgres', url: options.postgresUrl, poolSize: 25 }),
        url: options.postgresUrl,
        drop: async () => undefined,
      }
    : await openTestDatabase(options.database);
  const catalogue = options.questionSets
    ? async () => options.questionSets ?? []
    : () => (shippedCatalogue ??= readCatalogue(CATALOGUE_DIR));
  let app: FastifyInstance;
  try {
    app = await buildApp({ ...config, adminSecret }, { webDist: null, ...options.deps, database, catalogue });
  } catch (error) {
    await database.close();
    await drop();
    throw error;
  }
  let baseUrl: string | undefined;
  if (options.listen) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address && typeof address === 'object') baseUrl = `http://127.0.0.1:${address.port}`;
  }
  let closed = false;
  return {
    app,
    config: { ...config, adminSecret },
    db: database.db,
    databaseUrl: url,
    baseUrl,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: testEnv.testDatabaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgresProblem = await probePostgres();
if (postgresProblem !== null) {
  const line = `PostgreSQL at ${testEnv.testDatabaseUrl} is unreachable (${postgresProblem})`;
  if (testEnv.ci) throw new Error(`${line}; PostgreSQL suites are required under CI.`);
  console.warn(`\n!!!!!!!!!! ${line}: SKIPPING the PostgreSQL suites. !!!!!!!!!!\n`);
}

export const postgresAvailable = postgresProblem === null;

/** Runs `fn` once on PGlite and once on PostgreSQL (skipped loudly when unreachable, outside CI). */
export function describeDatabases(name: string, fn: (database: TestDatabaseKind) => void): void {
  describe(`${name} [pglite]`, () => fn('pglite'));
  describe.skipIf(!postgresAvailable)(`${name} [postgres]`, () => fn('postgres'));
}
