/**
 * A seeded database for one benchmark pass, on PGlite (a temp DATA_DIR) or on a dedicated
 * PostgreSQL database `bench_<pid>_<n>` created here and dropped by `dispose`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/client';
import { createPgDatabase, dropPgDatabase, pgUrl } from './processes';
import { seedCounts, seedDatabase, type SeedPlan } from './seed';

export type DatabaseKind = 'pglite' | 'postgres';

export interface SeededDatabase {
  kind: DatabaseKind;
  dataDir: string;
  /** Set for PostgreSQL. */
  databaseUrl?: string;
  counts: Record<string, number>;
  dispose(): Promise<void>;
}

let serial = 0;

export async function seededDatabase(kind: DatabaseKind, plan: SeedPlan, log: (line: string) => void): Promise<SeededDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-${kind}-`));
  const pgName = `bench_${process.pid}_${(serial += 1)}`;
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    await createPgDatabase(pgName);
    databaseUrl = pgUrl(pgName);
  }
  const dispose = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') await dropPgDatabase(pgName);
  };
  try {
    const database = await openDatabase(
      kind === 'postgres' && databaseUrl
        ? { kind: 'postgres', url: databaseUrl }
        : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
    );
    try {
      await seedDatabase(database.db, plan, log);
      const counts = await seedCounts(database.db);
      return { kind, dataDir, databaseUrl, counts, dispose };
    } finally {
      await database.close();
    }
  } catch (error) {
    await dispose();
    throw error;
  }
}
