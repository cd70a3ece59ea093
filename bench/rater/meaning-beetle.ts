/**
 * The rater with its sentence model (server/rater/sentence-encoder.ts) on the Beetle answers, each
 * question as an operator's own one-question set (test-support/beetle.ts), against the word matcher
 * alone (RATER_MODEL=off). Also the raw signal: for each answer, the highest cosine between a key
 * point and a usable statement not turned round, and the agreement of "credited" with `correct`
 * at each threshold (the threshold the rater uses is chosen on the tuning half only).
 *
 *   npx tsx bench/rater/meaning-beetle.ts [--model=DIR]              # tuning half only
 *   npx tsx bench/rater/meaning-beetle.ts [--model=DIR] --held-out   # also the held-out half, aggregates only
 *   npx tsx bench/rater/meaning-beetle.ts --model=DIR --fold=K/N [--credit=0.7,0.8]
 *
 * `--fold=K/N`: only the tuning half's K-th of N question groups, as fine_tune.py's leave-questions-out
 * draws them (sorted `beetle:<id>`, every N-th from the K-th), to measure a model fine-tuned on the
 * other groups. `--credit=t,…`: also as if MEANING_CREDIT were t (each closeness moved by
 * MEANING_CREDIT − t), to choose a fine-tuned model's threshold on the tuning half.
 *
 * Every `--held-out` run is a measurement on the held-out half: count it in bench/results.md. The
 * data is read from ../shared/data/beetle/ (never copied into the repository).
 */
import { beetleFigures, beetleHalves, beetleModel, findBeetleDir, readBeetle, type BeetleQuestion } from '../../test-support/beetle';
import { answerTextsToEmbed, judgeAnswer } from '../../server/rater/rubric-rater-judge';
import { MEANING_CREDIT } from '../../server/rater/rubric-rater-judge';
import { MODEL_DIR } from '../../server/rater/model-files';
import { loadSentenceEncoder, type SentenceEncoder } from '../../server/rater/sentence-encoder';
import { meaningFor, type SentenceMeaning } from '../../server/rater/sentence-meaning';
import { line } from '../parts/beetle';

async function meaningOf(encoder: SentenceEncoder, questions: readonly BeetleQuestion[]): Promise<SentenceMeaning> {
  const texts = questions.flatMap((q) => q.answers.flatMap((a) => answerTextsToEmbed([a.answer], beetleModel(q), q.question)));
  return meaningFor(encoder, texts);
}

async function measure(name: string, encoder: SentenceEncoder, questions: readonly BeetleQuestion[]): Promise<void> {
  const started = performance.now();
  const meaning = await meaningOf(encoder, questions);
  const embedMs = performance.now() - started;
  const models = new Map(questions.map((q) => [q.id, beetleModel(q)]));
  const judge = (m?: SentenceMeaning) => (answer: string, q: BeetleQuestion) => {
    const j = judgeAnswer([answer], models.get(q.id), q.question, m);
    return { verdict: j.verdict, score: j.score, covered: j.covered.length };
  };
  console.log(line(`${name}, words alone`, beetleFigures(questions, judge())));
  console.log(line(`${name}, with meaning`, beetleFigures(questions, judge(meaning))));
  for (const credit of credits) {
    const shifted: SentenceMeaning = {
      closeness: (a, b) => ((c) => (c === undefined ? c : c + MEANING_CREDIT - credit))(meaning.closeness(a, b)),
    };
    console.log(line(`${name}, with meaning credited from ${credit}`, beetleFigures(questions, judge(shifted))));
  }
  console.log(`  (embedding ${(embedMs / 1000).toFixed(1)} s)`);
}

const dir = findBeetleDir();
if (!dir) throw new Error('No Beetle data (../shared/data/beetle/beetle-train.tsv).');
const modelArg = process.argv.find((a) => a.startsWith('--model='))?.slice('--model='.length);
const encoder = await loadSentenceEncoder(modelArg ?? MODEL_DIR, 2);
const credits = (
  process.argv
    .find((a) => a.startsWith('--credit='))
    ?.slice('--credit='.length)
    .split(',') ?? []
).map(Number);
const { tune, heldOut } = beetleHalves(readBeetle(dir));
const fold = process.argv
  .find((a) => a.startsWith('--fold='))
  ?.slice('--fold='.length)
  .split('/')
  .map(Number);
if (fold) {
  const [k, n] = fold as [number, number];
  const groups = tune.map((q) => `beetle:${q.id}`).sort();
  const mine = new Set(groups.filter((_, i) => i % n === k - 1));
  await measure(
    `Tuning half, fold ${k}/${n}`,
    encoder,
    tune.filter((q) => mine.has(`beetle:${q.id}`)),
  );
} else await measure('Tuning half', encoder, tune);
if (process.argv.includes('--held-out')) await measure('HELD-OUT half (aggregates only; count this read)', encoder, heldOut);
