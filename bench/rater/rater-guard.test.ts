/**
 * CI guards the built-in rater (docs/decisions/016-rater-measured-on-people.md): on a fixed sample of real students' answers (Beetle,
 * read at test time from ../shared/data/beetle/, skipped with a loud line when absent) its
 * agreement with the annotators must not drop, and on the repository's own labelled sets
 * (bench/rater/, always) key-point precision and the salad and off-topic caps hold.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from '../../server/app';
import { beetleFigures, findBeetleDir, readBeetle, type BeetleFigures, type BeetleQuestion } from '../../test-support/beetle';
import { perQuestionRater } from '../parts/beetle';
import { answerTextsToEmbed, judgeAnswer, loadSentenceEncoder, meaningFor } from '../../server/rater';
import { beetleModel } from '../../test-support/beetle';
import { evaluateLabelled } from './evaluate';
import { LABEL_DIR, LABELLED_SETS, readLabelledSet } from './labelled-set';

const beetle = findBeetleDir();
if (!beetle)
  console.warn('\n!!!!!!!!!! No Beetle data at ../shared/data/beetle/: the rater is NOT checked against human answers. !!!!!!!!!!\n');

/** Agreement and score correlation no lower than when the guard was set; few correct answers dismissed, few contradictory ones credited; the caps. */
function expectAtLeast(f: BeetleFigures, agreement: number, correlation: number): void {
  expect(f.agreementCredited).toBeGreaterThanOrEqual(agreement - 0.01);
  // The score follows how much was stated: its correlation with the label must not drop either.
  expect(f.scoreCorrelation).toBeGreaterThanOrEqual(correlation - 0.02);
  expect(f.correctDismissed).toBeLessThanOrEqual(0.05);
  expect(f.contradictoryCredited).toBeLessThanOrEqual(0.1);
  expect(f.nonsenseMax).toBeLessThanOrEqual(10);
  expect(f.offTopicMax).toBeLessThanOrEqual(20);
}

describe.skipIf(!beetle)('the rater on a fixed sample of human answers (Beetle)', () => {
  it('agrees with the annotators at least as well as when this guard was set, dismisses few correct answers, credits few contradictory ones', () => {
    // Every fourth answer of every question, in file order: 1,001 answers of both halves.
    const sample: BeetleQuestion[] = readBeetle(beetle!).map((q) => ({ ...q, answers: q.answers.filter((_, i) => i % 4 === 0) }));
    const f = beetleFigures(sample, perQuestionRater(sample));
    expect(f.answers).toBe(SAMPLE_ANSWERS);
    expectAtLeast(f, SAMPLE_AGREEMENT, SAMPLE_CORRELATION);
  }, 120_000);

  it('with the sentence model (RATER_MODEL on): agrees at least as well as when this guard was set, within the same bounds', async () => {
    const sample: BeetleQuestion[] = readBeetle(beetle!).map((q) => ({ ...q, answers: q.answers.filter((_, i) => i % 4 === 0) }));
    const models = new Map(sample.map((q) => [q.id, beetleModel(q)]));
    const encoder = await loadSentenceEncoder(undefined, 2);
    const meaning = await meaningFor(
      encoder,
      sample.flatMap((q) => q.answers.flatMap((a) => answerTextsToEmbed([a.answer], models.get(q.id), q.question))),
    );
    const f = beetleFigures(sample, (answer, q) => {
      const j = judgeAnswer([answer], models.get(q.id), q.question, meaning);
      return { verdict: j.verdict, score: j.score, covered: j.covered.length };
    });
    expectAtLeast(f, MEANING_SAMPLE_AGREEMENT, MEANING_SAMPLE_CORRELATION);
    console.log(
      `guard sample with meaning: agreement ${f.agreementCredited.toFixed(3)}, r ${f.scoreCorrelation.toFixed(3)}, contradictory credited ${f.contradictoryCredited.toFixed(3)}, correct dismissed ${f.correctDismissed.toFixed(3)}`,
    );
  }, 180_000);
});

/** With the sentence model: the same sample's agreement and score correlation when this guard was set (bench/results.md). */
const MEANING_SAMPLE_AGREEMENT = 0.689;
const MEANING_SAMPLE_CORRELATION = 0.396;

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
