/**
 * The built-in rater on answers written by people: the Beetle answers (test-support/beetle.ts),
 * each question an operator's own one-question set (question, reference answers as the model
 * answer, their sentences as key points, no "Also accepted" lines), each answer rated as an
 * interview in which the interviewer asked that question and the student gave that answer.
 * Figures for the tuning half and the held-out half separately (aggregates only).
 *
 * A second reading rates each answer against all the questions of its half as one set (the
 * interviewer asking one of them): it reproduces the figures ADR 016 started from, most of whose
 * "Not answered" verdicts come from questions with the same text ("Explain your reasoning.")
 * taking each other's answers, not from the matcher.
 */
import type { TranscriptEntry } from '../../contract';
import { RUBRIC_RATER_NAME, rateWithRubric } from '../../server/rater';
import type { QuestionSetRecord } from '../../server/db/schema';
import { wordVectors } from '../../server/rater/word-vectors';
import {
  beetleFigures,
  beetleHalves,
  beetleModelAnswerSection,
  findBeetleDir,
  readBeetle,
  type BeetleFigures,
  type BeetleQuestion,
} from '../../test-support/beetle';

export interface BeetleResult {
  /** Where the data was read from, or null when this machine has none (then no figures). */
  dir: string | null;
  rater: string;
  perQuestion?: { tune: BeetleFigures; heldOut: BeetleFigures };
  wholeSet?: { tune: BeetleFigures; heldOut: BeetleFigures };
  /** Milliseconds to rate every answer once (per-question reading). */
  ratingMs?: number;
  /** Loading the word vectors (server/rater/vectors/), once per process: time and memory it adds. */
  vectors?: { loadMs: number; rssMb: number; heapMb: number };
}

function set(questions: readonly BeetleQuestion[]): QuestionSetRecord {
  return {
    id: 1,
    index: 1,
    name: 'Beetle',
    isPremium: false,
    requiresFeedback: false,
    instructions: '',
    questions: questions.map((q) => q.question),
    modelAnswers: questions.map((q, i) => beetleModelAnswerSection(q, i + 1)).join('\n'),
  } as QuestionSetRecord;
}

/** Rates `answer` as an interview asking `q` from `questions` (a set); the breakdown item of `q`. */
function rater(questions: readonly BeetleQuestion[]) {
  const record = set(questions);
  return (answer: string, q: BeetleQuestion) => {
    const transcripts: TranscriptEntry[] = [
      { role: 'interviewer', transcript: q.question },
      { role: 'interviewee', transcript: answer },
    ];
    const item = rateWithRubric({ set: record, transcripts, durationSeconds: 60 }).breakdown[questions.indexOf(q)];
    if (!item) throw new Error(`no breakdown for ${q.id}`);
    return { verdict: item.verdict, score: item.score, covered: item.covered.length };
  };
}

/** Rates each answer against its own question as a one-question set. */
export function perQuestionRater(questions: readonly BeetleQuestion[]) {
  const raters = new Map(questions.map((q) => [q.id, rater([q])]));
  return (answer: string, q: BeetleQuestion) => raters.get(q.id)!(answer, q);
}

function perQuestion(questions: readonly BeetleQuestion[]): BeetleFigures {
  return beetleFigures(questions, perQuestionRater(questions));
}

export function line(name: string, f: BeetleFigures): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    `${name}: ${f.answers} answers to ${f.questions} questions, agreement (a key point credited) ${f.agreementCredited.toFixed(3)}, ("answered well") ${f.agreementAnsweredWell.toFixed(3)}, ` +
    `majority ${f.majorityBaseline.toFixed(3)}, correct dismissed ${pct(f.correctDismissed)}, contradictory credited ${pct(f.contradictoryCredited)}, ` +
    `score medians ${Object.values(f.medians).join(' / ')}, r ${f.scoreCorrelation.toFixed(3)} (3-level ${f.scoreCorrelation3.toFixed(3)}), nonsense max ${f.nonsenseMax}, off-topic max ${f.offTopicMax}`
  );
}

/** What the rater's word vectors cost the server: load time and memory (measured before anything else loads them). */
function measureVectors(): { loadMs: number; rssMb: number; heapMb: number } {
  globalThis.gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  wordVectors();
  const loadMs = performance.now() - started;
  const after = process.memoryUsage();
  const mb = (n: number) => n / 1024 / 1024;
  return {
    loadMs,
    rssMb: mb(after.rss - before.rss),
    heapMb: mb(after.heapUsed + after.external + after.arrayBuffers - before.heapUsed - before.external - before.arrayBuffers),
  };
}

export function runBeetle(log: (line: string) => void): BeetleResult {
  const vectors = measureVectors();
  log(
    `  word vectors: loaded in ${vectors.loadMs.toFixed(0)} ms, RSS +${vectors.rssMb.toFixed(1)} MB, heap and buffers +${vectors.heapMb.toFixed(1)} MB (targets: ≤ 1 s, ≤ 60 MB)`,
  );
  const dir = findBeetleDir();
  if (!dir) {
    log('  !!!!!!!!!! No Beetle data (../shared/data/beetle/beetle-train.tsv): the rater is NOT measured on human answers. !!!!!!!!!!');
    return { dir: null, rater: RUBRIC_RATER_NAME, vectors };
  }
  const { tune, heldOut } = beetleHalves(readBeetle(dir));
  const started = performance.now();
  const result: BeetleResult = {
    dir,
    rater: RUBRIC_RATER_NAME,
    vectors,
    perQuestion: { tune: perQuestion(tune), heldOut: perQuestion(heldOut) },
  };
  result.ratingMs = performance.now() - started;
  result.wholeSet = { tune: beetleFigures(tune, rater(tune)), heldOut: beetleFigures(heldOut, rater(heldOut)) };
  log(`  ${line('per question, tuning half', result.perQuestion!.tune)}`);
  log(`  ${line('per question, held-out half', result.perQuestion!.heldOut)}`);
  log(`  ${line('whole half as one set, tuning half', result.wholeSet.tune)}`);
  log(`  ${line('whole half as one set, held-out half', result.wholeSet.heldOut)}`);
  log(`  rated ${result.perQuestion!.tune.answers + result.perQuestion!.heldOut.answers} answers in ${result.ratingMs.toFixed(0)} ms`);
  return result;
}
