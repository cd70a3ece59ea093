import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { openDatabase, type Database } from '../db/client';
import { accounts, questionSets } from '../db/schema';
import { loadCatalogueIfEmpty } from './catalogue';
import { createQuestionSetCache, REFRESH_MS } from './question-set-cache';

type Listed = Array<{ index: number; name: string; isPremium: boolean; modelAnswers: string | null }>;

describe('the cached question-set list', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    await loadCatalogueIfEmpty(database.db, async () => FIXTURE_SETS);
    await database.db.insert(accounts).values([{ email: 'pro@example.com', subscriptionId: 'sub-1' }, { email: 'free@example.com' }]);
  }, 300_000);
  afterAll(() => database.close());

  it('hides premium model answers from everyone but an active pro', async () => {
    const list = createQuestionSetCache(database.db);
    const premium = FIXTURE_SETS.find((s) => s.isPremium);
    expect(premium).toBeDefined();
    for (const email of [null, 'free@example.com', 'nobody@example.com']) {
      const sets = JSON.parse(await list(email)) as Listed;
      expect(sets.find((s) => s.index === premium?.index)?.modelAnswers).toBeNull();
      expect(sets.map((s) => s.index)).toEqual([...FIXTURE_SETS].map((s) => s.index).sort((a, b) => a - b));
    }
    const forPro = JSON.parse(await list('pro@example.com')) as Listed;
    expect(forPro.find((s) => s.index === premium?.index)?.modelAnswers).toBe(premium?.modelAnswers);
  });

  it('shows a catalogue change to the first request after the refresh interval', async () => {
    let clock = 1_000_000;
    const list = createQuestionSetCache(database.db, () => clock);
    const names = async () => (JSON.parse(await list(null)) as Listed).map((s) => s.name);
    const before = await names();
    await database.db.update(questionSets).set({ name: 'Renamed' }).where(eq(questionSets.index, 1));
    // Within the interval the snapshot is served as it was.
    clock += REFRESH_MS;
    expect(await names()).toEqual(before);
    // After it, the next request reads the database again.
    clock += 1;
    expect((await names())[0]).toBe('Renamed');
  });

  it('reads the database once for many requests arriving when the snapshot is due', async () => {
    let clock = 2_000_000;
    const list = createQuestionSetCache(database.db, () => clock);
    await list(null);
    clock += REFRESH_MS + 1;
    const select = vi.spyOn(database.db, 'select');
    try {
      await Promise.all(Array.from({ length: 20 }, () => list(null)));
      expect(select).toHaveBeenCalledTimes(1);
    } finally {
      select.mockRestore();
    }
  });
});
