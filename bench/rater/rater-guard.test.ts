/**
 * CI guards the built-in rater (docs/decisions/016-rater-measured-on-people.md): on a fixed sample of real students' answers (Beetle,
 * read at test time from ../shared/data/beetle/, skipped with a loud line when absent) its
 * agreement with the annotators must not drop, and on the repository's own labelled sets
 * (bench/rater/, always) key-point precision and the salad and off-topic caps hold.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from '../../server/app';
import { beetleFigures, findBeetleDir, readBeetle, type BeetleQuestion } from '../../test-support/beetle';
import { perQuestionRater } from '../parts/beetle';
import { evaluateLabelled } from './evaluate';
import { LABEL_DIR, LABELLED_SETS, readLabelledSet } from './labelled-set';

const beetle = findBeetleDir();
if (!beetle)
  console.warn('\n!!!!!!!!!! No Beetle data at ../shared/data/beetle/: the rater is NOT checked against human answers. !!!!!!!!!!\n');

describe.skipIf(!beetle)('the rater on a fixed sample of human answers (Beetle)', () => {
  it('agrees with the annotators at least as well as when this guard was set, dismisses few correct answers, credits few contradictory ones', () => {
    // Every fourth answer of every question, in file order: 1,001 answers of both halves.
    const sample: BeetleQuestion[] = readBeetle(beetle!).map((q) => ({ ...q, answers: q.answers.filter((_, i) => i % 4 === 0) }));
    const f = beetleFigures(sample, perQuestionRater(sample));
    expect(f.answers).toBe(SAMPLE_ANSWERS);
    expect(f.agreementCredited).toBeGreaterThanOrEqual(SAMPLE_AGREEMENT - 0.01);
    // The score follows how much was stated: its correlation with the label must not drop either.
    expect(f.scoreCorrelation).toBeGreaterThanOrEqual(SAMPLE_CORRELATION - 0.02);
    expect(f.correctDismissed).toBeLessThanOrEqual(0.05);
    expect(f.contradictoryCredited).toBeLessThanOrEqual(0.1);
    expect(f.nonsenseMax).toBeLessThanOrEqual(10);
    expect(f.offTopicMax).toBeLessThanOrEqual(20);
  }, 120_000);
});

/** The sample's size, agreement and score correlation when this guard was last raised (bench/results.md has the full figures). */
const SAMPLE_ANSWERS = 1001;
const SAMPLE_AGREEMENT = 0.675;
const SAMPLE_CORRELATION = 0.389;

describe("the rater on the repository's labelled sets", () => {
  for (const info of LABELLED_SETS) {
    it(`keeps key-point precision, the class ordering and the caps on ${info.dir || 'the tuning set'}`, () => {
      const f = evaluateLabelled(CATALOGUE_DIR, readLabelledSet(path.join(LABEL_DIR, info.dir)));
      expect(f.precision).toBeGreaterThanOrEqual(0.95);
      expect(f.orderingHolds).toBe(true);
      expect(f.saladMax).toBeLessThanOrEqual(10);
      expect(f.offTopicMax).toBeLessThanOrEqual(20);
    }, 60_000);
  }
});
