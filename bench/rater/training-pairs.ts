/**
 * The data recipe of the rater's fine-tuned sentence model (scripts/rater-model/README.md): writes
 * (text, key point, target closeness) pairs as JSON lines, read by fine_tune.py. Nothing of the
 * data is kept in the repository: the Beetle answers are read from ../shared/data/beetle/.
 *
 * - Beetle, TUNING HALF ONLY (the first 24 question ids; test-support/beetle.ts): each answer
 *   against its question's key points. A correct answer is paired with the key point it comes
 *   closest to by the base model (target 1: one of the reference answers says what it says); a
 *   partially correct one with that point at 0.5; contradictory, irrelevant and non-domain answers
 *   with every key point at 0 (a contradiction must end far from the point it denies).
 * - The repository's labelled answers (bench/rater/, the sets with role tuning or seen in
 *   bench/rater/labelled-set.ts; the held-out ones stay out): for each key point a person says the
 *   answer states, its closest statement (target 1); in wrong and off-topic answers, each point
 *   they do not state against its closest statement (target 0).
 *
 *   npx tsx bench/rater/training-pairs.ts OUT.jsonl
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { splitModelAnswers } from '../../server/catalogue/model-answers';
import { parseQuestionSetFile } from '../../server/catalogue/read-catalogue';
import { answerTextsToEmbed } from '../../server/rater/rubric-rater-judge';
import { loadSentenceEncoder } from '../../server/rater/sentence-encoder';
import { meaningFor } from '../../server/rater/sentence-meaning';
import { LABELLED_SETS, LABEL_DIR, readLabelledSet } from './labelled-set';
import { beetleHalves, beetleModel, findBeetleDir, readBeetle } from '../../test-support/beetle';

interface Pair {
  /** Questions are kept together when folds are drawn (fine_tune.py's leave-questions-out). */
  group: string;
  source: 'beetle' | 'labelled';
  label: string;
  text: string;
  point: string;
  target: number;
}

const BEETLE_TARGET: Record<string, number> = { correct: 1, partially_correct_incomplete: 0.5 };

const out = process.argv[2];
if (!out) throw new Error('usage: training-pairs.ts OUT.jsonl');
const encoder = await loadSentenceEncoder(undefined, 2);
const pairs: Pair[] = [];

const beetleDir = findBeetleDir();
if (!beetleDir) throw new Error('No Beetle data (../shared/data/beetle/beetle-train.tsv).');
for (const q of beetleHalves(readBeetle(beetleDir)).tune) {
  const model = beetleModel(q);
  const meaning = await meaningFor(encoder, [...model.keyPoints, ...q.answers.map((a) => a.answer)]);
  for (const a of q.answers) {
    if (!a.answer.trim()) continue;
    const target = BEETLE_TARGET[a.label];
    const points =
      target === undefined
        ? model.keyPoints
        : [model.keyPoints.reduce((b, p) => (meaning.closeness(a.answer, p)! > meaning.closeness(a.answer, b)! ? p : b))];
    for (const point of points)
      pairs.push({ group: `beetle:${q.id}`, source: 'beetle', label: a.label, text: a.answer, point, target: target ?? 0 });
  }
}

const catalogue = path.resolve(LABEL_DIR, '../../content/question-sets');
const trained = LABELLED_SETS.filter((s) => s.role !== 'held-out');
for (const info of trained) {
  for (const a of readLabelledSet(path.join(LABEL_DIR, info.dir))) {
    if (!['strong-verbatim', 'strong-paraphrase', 'partial', 'wrong', 'off-topic'].includes(a.label)) continue;
    const set = parseQuestionSetFile(a.set, readFileSync(path.join(catalogue, `${a.set}.md`), 'utf8'));
    const model = splitModelAnswers(set.modelAnswers, set.questions.length)[a.question - 1];
    if (!model) continue;
    const texts = answerTextsToEmbed([a.answer], model, set.questions[a.question - 1]);
    const statements = texts.slice(model.keyPoints.length);
    if (statements.length === 0) continue;
    const meaning = await meaningFor(encoder, texts);
    model.keyPoints.forEach((point, i) => {
      const stated = a.points.includes(i + 1);
      if (!stated && a.label !== 'wrong' && a.label !== 'off-topic') return;
      const closest = statements.reduce((b, s) => (meaning.closeness(point, s)! > meaning.closeness(point, b)! ? s : b));
      pairs.push({
        group: `labelled:${a.set}:${a.question}`,
        source: 'labelled',
        label: a.label,
        text: closest,
        point,
        target: stated ? 1 : 0,
      });
    });
  }
}

writeFileSync(out, pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
console.log(
  `${pairs.length} pairs (${pairs.filter((p) => p.source === 'beetle').length} Beetle tuning half, ${pairs.filter((p) => p.source === 'labelled').length} labelled) -> ${out}`,
);
