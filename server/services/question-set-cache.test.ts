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

  it('shows a catalogue change once the refresh interval has passed', async () => {
    let clock = 1_000_000;
    const list = createQuestionSetCache(database.db, () => clock);
    const names = async () => (JSON.parse(await list(null)) as Listed).map((s) => s.name);
    const before = await names();
    await database.db.update(questionSets).set({ name: 'Renamed' }).where(eq(questionSets.index, 1));
    // Within the interval the snapshot is served as it was.
    clock += REFRESH_MS - 1;
    expect(await names()).toEqual(before);
    // After it, one request starts the refresh (and is answered from the old snapshot) ...
    clock += 2;
    await names();
    // ... and a later one sees the change once that refresh has landed.
    await vi.waitFor(async () => expect((await names())[0]).toBe('Renamed'), { timeout: 10_000 });
  });
});
