/**
 * The editor's phrasing lines (domain/phrasing-lines.ts) read as the catalogue reads them: on every
 * shipped set, the editor finds the same key points, and a phrasing it adds for a key point is read
 * as that point's "Also accepted" or "Contradicted by" phrasing and changes nothing else.
 */
import { describe, expect, it } from 'vitest';
import { addPhrasing, sectionKeyPoints, type PhrasingBlock } from '../../domain/phrasing-lines';
import { SHIPPED_CATALOGUE_DIR } from '../config';
import { parseModelAnswerSections, splitModelAnswers } from './model-answers';
import { readCatalogue } from './read-catalogue';

describe('the editor phrasing lines on the shipped sets', () => {
  it('find the key points the catalogue reads, and add phrasings the catalogue reads on the right point', async () => {
    const sets = await readCatalogue(SHIPPED_CATALOGUE_DIR);
    expect(sets.length).toBeGreaterThan(5);
    let added = 0;
    for (const set of sets) {
      const models = splitModelAnswers(set.modelAnswers, set.questions.length);
      models.forEach((model, q) => {
        expect(sectionKeyPoints(set.modelAnswers, q + 1)).toEqual(model.keyPoints);
        // The first and the last key point of each question, in both blocks.
        for (const at of new Set([0, model.keyPoints.length - 1])) {
          const point = model.keyPoints[at];
          if (point === undefined) continue;
          for (const block of ['Also accepted', 'Contradicted by'] as PhrasingBlock[]) {
            const edit = addPhrasing(set.modelAnswers, q + 1, point.toUpperCase(), block, 'a *brand* new | phrasing.');
            expect(edit.ok).toBe(true);
            if (!edit.ok) continue;
            const after = splitModelAnswers(edit.modelAnswers, set.questions.length);
            const list = (m: (typeof after)[number] | undefined) => (block === 'Also accepted' ? m?.accepted : m?.contradictions);
            expect(list(after[q])?.[at]).toEqual([...(list(model)?.[at] ?? []), 'a brand new phrasing']);
            // Nothing else moved.
            const untouched = (m: (typeof after)[number] | undefined) => ({
              ...m,
              accepted: block === 'Also accepted' ? m?.accepted.filter((_, i) => i !== at) : m?.accepted,
              contradictions: block === 'Contradicted by' ? m?.contradictions.filter((_, i) => i !== at) : m?.contradictions,
            });
            expect(untouched(after[q])).toEqual(untouched(model));
            expect(after.filter((_, i) => i !== q)).toEqual(models.filter((_, i) => i !== q));
            expect(parseModelAnswerSections(edit.modelAnswers).flatMap((s) => s.problems)).toEqual([]);
            added++;
          }
        }
      });
    }
    expect(added).toBeGreaterThan(100);
  });
});
