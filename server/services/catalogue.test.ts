import { asc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { openDatabase } from '../db/client';
import { questionSets } from '../db/schema';
import { loadCatalogueIfEmpty, upsertCatalogue } from './catalogue';

describe('catalogue loading', () => {
  it('loads into an empty database only, and sync upserts by index', async () => {
    const database = await openDatabase({ kind: 'pglite' });
    try {
      expect(await loadCatalogueIfEmpty(database.db, async () => FIXTURE_SETS)).toBe(4);
      expect(await loadCatalogueIfEmpty(database.db, async () => [])).toBe(0);
      const before = await database.db.select().from(questionSets).orderBy(asc(questionSets.index));
      const changed = FIXTURE_SETS.map((s) => (s.index === 2 ? { ...s, name: 'JavaScript II', questions: ['New?'] } : s));
      const extra = { ...FIXTURE_SETS[0]!, index: 5, name: 'Extra' };
      expect(await upsertCatalogue(database.db, [...changed, extra])).toBe(5);
      const after = await database.db.select().from(questionSets).orderBy(asc(questionSets.index));
      expect(after.map((s) => [s.index, s.name])).toEqual([
        [1, 'JavaScript'],
        [2, 'JavaScript II'],
        [3, 'Behavioural'],
        [4, 'System Design'],
        [5, 'Extra'],
      ]);
      // Same ids: ratings and sessions keep pointing at the same sets.
      expect(after.slice(0, 4).map((s) => s.id)).toEqual(before.map((s) => s.id));
      expect(after[1]?.questions).toEqual(['New?']);
    } finally {
      await database.close();
    }
  }, 300_000);
});
