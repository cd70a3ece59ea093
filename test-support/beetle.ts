/**
 * The Beetle answers (SemEval-2013 Task 7: real students' answers to 47 questions about electric
 * circuits, labelled by annotators) as an operator's own question set would hold them: the
 * question, its reference answers as the model answer, their sentences as key points, no "Also
 * accepted" or "Contradicted by" lines. The data stays outside the repository (it is read from
 * `../shared/data/beetle/` next to the repository, or /work/shared/data/beetle/); the bench
 * (`npm run bench -- --only=beetle`) and a Vitest guard measure the rater on it.
 *
 * Honesty: the 47 question ids are sorted; the first 24 are the tuning half, the other 23 the
 * held-out half, read only as aggregate figures (never answer by answer).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelAnswer } from '../server/catalogue/model-answers';

export const BEETLE_LABELS = ['correct', 'partially_correct_incomplete', 'contradictory', 'irrelevant', 'non_domain'] as const;
export type BeetleLabel = (typeof BEETLE_LABELS)[number];

export interface BeetleAnswer {
  id: string;
  answer: string;
  label: BeetleLabel;
}

export interface BeetleQuestion {
  id: string;
  question: string;
  /** The instructor's reference answers. */
  references: string[];
  answers: BeetleAnswer[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BEETLE_FILE = 'beetle-train.tsv';

/** The folder holding beetle-train.tsv, or null when this machine has no copy. */
export function findBeetleDir(): string | null {
  const candidates = [path.join(ROOT, '..', 'shared', 'data', 'beetle'), '/work/shared/data/beetle'];
  return candidates.find((dir) => existsSync(path.join(dir, BEETLE_FILE))) ?? null;
}

/** Every question with its answers, sorted by question id. */
export function readBeetle(dir: string): BeetleQuestion[] {
  const lines = readFileSync(path.join(dir, BEETLE_FILE), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const header = lines.shift()?.split('\t') ?? [];
  const col = (name: string) => {
    const at = header.indexOf(name);
    if (at === -1) throw new Error(`${BEETLE_FILE}: no column "${name}"`);
    return at;
  };
  const [id, qid, question, answer, references, label] = [
    'id',
    'question_id',
    'question',
    'student_answer',
    'reference_answers',
    'label',
  ].map(col) as [number, number, number, number, number, number];
  const byId = new Map<string, BeetleQuestion>();
  for (const line of lines) {
    const cells = line.split('\t');
    const labelText = cells[label] as BeetleLabel;
    if (!BEETLE_LABELS.includes(labelText)) throw new Error(`${BEETLE_FILE}: unknown label "${cells[label]}"`);
    const questionId = cells[qid]!;
    let q = byId.get(questionId);
    if (!q) {
      q = {
        id: questionId,
        question: cells[question]!.trim(),
        references: cells[references]!.split(' | ')
          .map((r) => r.trim())
          .filter(Boolean),
        answers: [],
      };
      byId.set(questionId, q);
    }
    q.answers.push({ id: cells[id]!, answer: cells[answer] ?? '', label: labelText });
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The tuning half (the first 24 question ids in sorted order) and the held-out half (the rest). */
export function beetleHalves(questions: readonly BeetleQuestion[]): { tune: BeetleQuestion[]; heldOut: BeetleQuestion[] } {
  const sorted = [...questions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { tune: sorted.slice(0, 24), heldOut: sorted.slice(24) };
}

/** Sentences of the reference answers, each once, without the closing full stop: the key points. */
export function beetleKeyPoints(q: BeetleQuestion): string[] {
  const points = q.references
    .flatMap((r) => r.split(/(?<=[.!?])\s+/))
    .map((s) =>
      s
        .trim()
        .replace(/[.!]+$/, '')
        .trim(),
    )
    .filter(Boolean);
  return [...new Set(points)];
}

/** The question as the rater reads an operator's own set: the reference answers, their sentences as key points, no phrasings. */
export function beetleModel(q: BeetleQuestion): ModelAnswer {
  const keyPoints = beetleKeyPoints(q);
  return {
    answer: q.references.join('\n\n'),
    keyPoints,
    accepted: keyPoints.map(() => []),
    contradictions: keyPoints.map(() => []),
  };
}

/**
 * The question's model-answer section as an operator writes it (docs/question-sets.md): the
 * reference answers as the example answer, their sentences as a bullet list of key points.
 */
export function beetleModelAnswerSection(q: BeetleQuestion, number = 1): string {
  return [
    `### ${number}. ${q.question}`,
    '',
    q.references.join('\n\n'),
    '',
    '**Key points:**',
    '',
    ...beetleKeyPoints(q).map((p) => `- ${p}`),
    '',
  ].join('\n');
}

/** What a rater said about one answer. */
export interface BeetleVerdict {
  verdict: string;
  score: number;
  /** Key points credited. */
  covered: number;
}

export interface BeetleFigures {
  questions: number;
  answers: number;
  /** Share of answers where "a key point credited" equals label === correct. */
  agreementCredited: number;
  /** Share of answers where verdict "Answered well" equals label === correct. */
  agreementAnsweredWell: number;
  /** Always saying "not correct" (or always "correct", whichever is more often right). */
  majorityBaseline: number;
  /** Share of `correct` answers called "Off topic", "Not answered" or "Not a real answer". */
  correctDismissed: number;
  /** Share of `contradictory` answers credited with a key point. */
  contradictoryCredited: number;
  /** Median score per label. */
  medians: Record<BeetleLabel, number>;
  /** Pearson correlation of the score with the 2-way label (1 correct, 0 not). */
  scoreCorrelation: number;
  /** Pearson correlation of the score with the 3-level label (1 correct, 0.5 partially correct, 0 else). */
  scoreCorrelation3: number;
  /** Highest score of an answer the rater calls "Not a real answer" / "Off topic" (guards: ≤ 10 / ≤ 20). */
  nonsenseMax: number;
  offTopicMax: number;
  /** Verdict counts over all answers. */
  verdicts: Record<string, number>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function pearson(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

const DISMISSED = new Set(['Off topic', 'Not answered', 'Not a real answer']);

/** Aggregate figures of a rater over some questions (never per answer: the held-out half is read only so). */
export function beetleFigures(
  questions: readonly BeetleQuestion[],
  judge: (answer: string, q: BeetleQuestion) => BeetleVerdict,
): BeetleFigures {
  const rows: Array<{ label: BeetleLabel; v: BeetleVerdict }> = [];
  for (const q of questions) for (const a of q.answers) rows.push({ label: a.label, v: judge(a.answer, q) });
  const share = (xs: typeof rows, test: (r: (typeof rows)[number]) => boolean) =>
    xs.length === 0 ? NaN : xs.filter(test).length / xs.length;
  const correct = rows.filter((r) => r.label === 'correct');
  const contradictory = rows.filter((r) => r.label === 'contradictory');
  const correctShare = correct.length / Math.max(1, rows.length);
  const verdicts: Record<string, number> = {};
  for (const r of rows) verdicts[r.v.verdict] = (verdicts[r.v.verdict] ?? 0) + 1;
  const maxOf = (verdict: string) => Math.max(0, ...rows.filter((r) => r.v.verdict === verdict).map((r) => r.v.score));
  return {
    questions: questions.length,
    answers: rows.length,
    agreementCredited: share(rows, (r) => r.v.covered > 0 === (r.label === 'correct')),
    agreementAnsweredWell: share(rows, (r) => (r.v.verdict === 'Answered well') === (r.label === 'correct')),
    majorityBaseline: Math.max(correctShare, 1 - correctShare),
    correctDismissed: share(correct, (r) => DISMISSED.has(r.v.verdict)),
    contradictoryCredited: share(contradictory, (r) => r.v.covered > 0),
    medians: Object.fromEntries(BEETLE_LABELS.map((l) => [l, median(rows.filter((r) => r.label === l).map((r) => r.v.score))])) as Record<
      BeetleLabel,
      number
    >,
    scoreCorrelation: pearson(
      rows.map((r) => r.v.score),
      rows.map((r) => (r.label === 'correct' ? 1 : 0)),
    ),
    scoreCorrelation3: pearson(
      rows.map((r) => r.v.score),
      rows.map((r) => (r.label === 'correct' ? 1 : r.label === 'partially_correct_incomplete' ? 0.5 : 0)),
    ),
    nonsenseMax: maxOf('Not a real answer'),
    offTopicMax: maxOf('Off topic'),
    verdicts,
  };
}
