import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { CATALOGUE_DIR } from '../app';
import { parseQuestionSetFile, readCatalogue } from '../catalogue/read-catalogue';
import { formatQuestionSetFile, questionSetFileName } from '../catalogue/write-catalogue';
import { openDatabase } from '../db/client';
import { questionSets } from '../db/schema';
import { exportCatalogue, importCatalogue, loadCatalogueIfEmpty, upsertCatalogue } from './catalogue';

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

describe('catalogue import and export', () => {
  it('refuses to overwrite a set edited in the admin unless forced, and skips unchanged sets', async () => {
    const database = await openDatabase({ kind: 'pglite' });
    try {
      const { db } = database;
      await loadCatalogueIfEmpty(db, async () => FIXTURE_SETS);
      expect(await importCatalogue(db, FIXTURE_SETS, false)).toEqual({ written: 0, unchanged: 4, refused: [] });

      await db
        .update(questionSets)
        .set({ name: 'Edited in the admin', editedAt: sql`now()` })
        .where(eq(questionSets.index, 2));
      const files = FIXTURE_SETS.map((s) => (s.index === 3 ? { ...s, instructions: 'New guidance.' } : s));
      expect(await importCatalogue(db, files, false)).toEqual({
        written: 0,
        unchanged: 2,
        refused: [{ index: 2, name: 'Edited in the admin' }],
      });
      // Nothing was written, not even the set nobody edited.
      const [three] = await db.select().from(questionSets).where(eq(questionSets.index, 3));
      expect(three?.instructions).toBe('');

      expect(await importCatalogue(db, files, true)).toEqual({ written: 2, unchanged: 2, refused: [] });
      const [two] = await db.select().from(questionSets).where(eq(questionSets.index, 2));
      expect(two).toMatchObject({ name: 'JavaScript', editedAt: null });
      expect((await exportCatalogue(db)).map((s) => s.index)).toEqual([1, 2, 3, 4]);
    } finally {
      await database.close();
    }
  }, 300_000);

  it('writes files the catalogue reader reads back to the same sets', async () => {
    for (const set of await readCatalogue(CATALOGUE_DIR)) {
      const file = questionSetFileName(set);
      expect(file).toMatch(/^\d{2}-[a-z0-9-]+\.md$/);
      expect(parseQuestionSetFile(file, formatQuestionSetFile(set))).toEqual(set);
    }
    expect(questionSetFileName({ index: 7, name: 'System Design & Scale!' })).toBe('07-system-design-scale.md');
  });
});
