/**
 * Fits the rater's learned point decision (server/rater/weights/point-decision.json): a logistic
 * regression over the general features of server/rater/point-features.ts (each weight held to
 * its sign, FEATURE_SIGNS: saying more of a point never counts against it), on the TUNING half of
 * the Beetle answers only (the first 24 question ids; the held-out half is never read here). Each
 * question is an operator's own set, as the bench sets it up (its reference answer as the model
 * answer, its sentences as key points, nothing else), and each (key point, answer) pair is labelled
 * by how much of it the annotators' label says was stated (correct 1, correct but incomplete ½,
 * anything else 0; Beetle's questions have one key point each). The probability from which a
 * point the word matcher missed is credited is chosen by leave-one-question-out on the tuning half:
 * the best agreement that keeps credited contradictory answers at most CONTRADICTION_BUDGET.
 *
 *   npx tsx bench/rater/fit-point-decision.ts   # writes server/rater/weights/point-decision.json
 *   npx prettier --write server/rater/weights/point-decision.json
 *
 * The data is read from ../shared/data/beetle/ at fit time (never copied into the repository);
 * without it the script says so loudly and writes nothing.
 */
import { writeFileSync } from 'node:fs';
import { beetleHalves, beetleModel, findBeetleDir, readBeetle, type BeetleQuestion } from '../../test-support/beetle';
import { answerPointFeatures } from '../../server/rater/rubric-rater-judge';
import { FEATURE_NAMES, FEATURE_SIGNS } from '../../server/rater/point-features';
import { WEIGHTS_FILE, type PointDecisionFile } from '../../server/rater/point-decision';
import { fitLogisticSigned, predict } from './logistic';

/** L2 penalty on the standardised weights: a little, so no feature's weight runs off on one subject. */
const L2 = 1;
/** Credited contradictory answers the chosen threshold may let through, on the tuning half (target ≤ 10 %). */
const CONTRADICTION_BUDGET = 0.09;
/** Least agreement a credit threshold must add to the matcher's, on questions it was not fitted on, to be used. */
const MIN_GAIN = 0.005;

interface Row {
  question: string;
  label: string;
  correct: number;
  /** How much of the point the label says was stated: correct 1, correct but incomplete ½, else 0. */
  stated: number;
  x: number[];
}

const STATED: Record<string, number> = { correct: 1, partially_correct_incomplete: 0.5 };

function rowsOf(questions: readonly BeetleQuestion[]): Row[] {
  const rows: Row[] = [];
  for (const q of questions) {
    const model = beetleModel(q);
    for (const a of q.answers) {
      for (const f of answerPointFeatures([a.answer], model, q.question)) {
        rows.push({ question: q.id, label: a.label, correct: a.label === 'correct' ? 1 : 0, stated: STATED[a.label] ?? 0, x: f.values });
      }
    }
  }
  return rows;
}

function figures(rows: readonly Row[], credited: (row: Row, i: number) => boolean) {
  const agreement = rows.filter((r, i) => credited(r, i) === (r.correct === 1)).length / rows.length;
  const contradictory = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.label === 'contradictory');
  const contradictoryCredited = contradictory.filter(({ r, i }) => credited(r, i)).length / Math.max(1, contradictory.length);
  return { agreement, contradictoryCredited };
}

const dir = findBeetleDir();
if (!dir) {
  console.error(
    '\n!!!!!!!!!! No Beetle data at ../shared/data/beetle/: nothing fitted, server/rater/weights/point-decision.json unchanged. !!!!!!!!!!\n',
  );
  process.exit(0);
}
const { tune } = beetleHalves(readBeetle(dir));
const rows = rowsOf(tune);
const matched = FEATURE_NAMES.indexOf('matched');
const signs = FEATURE_NAMES.map((n) => FEATURE_SIGNS[n]);
const fit = fitLogisticSigned(
  rows.map((r) => r.x),
  rows.map((r) => r.stated),
  signs,
  L2,
);
// Leave one question out: each question's answers judged by weights fitted on the other 23.
const held = new Array<number>(rows.length);
for (const q of new Set(rows.map((r) => r.question))) {
  const rest = rows.filter((r) => r.question !== q);
  const f = fitLogisticSigned(
    rest.map((r) => r.x),
    rest.map((r) => r.stated),
    signs,
    L2,
  );
  rows.forEach((r, i) => {
    if (r.question === q) held[i] = predict(f, r.x);
  });
}
let creditFrom = 1;
let chosen = figures(rows, (r) => r.x[matched] === 1);
const matcherAlone = chosen;
// Credited contradictions may not grow past the budget (or past the matcher's own, if that is higher),
// and a threshold must gain at least MIN_GAIN agreement over the matcher alone to be used at all.
const allowed = Math.max(CONTRADICTION_BUDGET, matcherAlone.contradictoryCredited);
for (let t = 0.5; t <= 0.99; t += 0.01) {
  const f = figures(rows, (r, i) => r.x[matched] === 1 || held[i]! >= t);
  if (f.contradictoryCredited <= allowed && f.agreement >= matcherAlone.agreement + MIN_GAIN && f.agreement > chosen.agreement + 1e-9) {
    chosen = f;
    creditFrom = Math.round(t * 100) / 100;
  }
}
const round = (x: number) => Math.round(x * 10_000) / 10_000;
const out: PointDecisionFile = {
  features: [...FEATURE_NAMES],
  bias: round(fit.bias),
  weights: fit.weights.map(round),
  creditFrom,
  fitted: {
    by: 'bench/rater/fit-point-decision.ts',
    data: 'Beetle (SemEval-2013 Task 7), tuning half: the first 24 question ids',
    rows: rows.length,
    l2: L2,
    target: 'how much of the point the label says was stated: correct 1, partially correct but incomplete 0.5, anything else 0',
    contradictionBudget: CONTRADICTION_BUDGET,
    minGain: MIN_GAIN,
    leaveOneQuestionOut: { agreement: round(chosen.agreement), contradictoryCredited: round(chosen.contradictoryCredited) },
    matcherAlone: { agreement: round(matcherAlone.agreement), contradictoryCredited: round(matcherAlone.contradictoryCredited) },
  },
};
writeFileSync(WEIGHTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify(out, null, 2));
