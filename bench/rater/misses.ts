/**
 * Prints where the rubric rater and the labels disagree, answer by answer, for the sets a tuning
 * round may look at (role "tuning" or "seen" in LABELLED_SETS), with the sentence that earned
 * each false credit. It refuses a held-out set: looking at one answer's result would stop it being
 * held out (bench/rater/README.md). `--aggregate` prints one line per tuning or seen set; with
 * `--held-out` the held-out sets' lines too, for the before and after measurement of a round.
 *
 *   npx tsx bench/rater/misses.ts held-out-8 held-out-10
 *   npx tsx bench/rater/misses.ts --aggregate [--held-out]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { splitModelAnswers } from '../../server/catalogue/model-answers';
import { parseQuestionSetFile } from '../../server/catalogue/read-catalogue';
import { judgeAnswer } from '../../server/rater';
import { evaluateLabelled } from './evaluate';
import { LABEL_DIR, LABELLED_SETS, readLabelledSet } from './labelled-set';

const CATALOGUE_DIR = path.join(LABEL_DIR, '../../content/question-sets');

function aggregate(heldOut: boolean): void {
  for (const info of LABELLED_SETS.filter((s) => heldOut || s.role !== 'held-out')) {
    const f = evaluateLabelled(CATALOGUE_DIR, readLabelledSet(path.join(LABEL_DIR, info.dir)));
    console.log(
      `${info.dir || '(tuning)'} [${info.role}] ${f.answers} answers: precision ${f.precision.toFixed(3)}, recall ${f.recall.toFixed(3)}, paraphrase recall ${f.paraphraseRecall.toFixed(3)}, ordering ${f.orderingHolds ? 'holds' : 'broken'}, salad max ${f.saladMax}, off-topic max ${f.offTopicMax}`,
    );
  }
}

function misses(dir: string): void {
  const info = LABELLED_SETS.find((s) => s.dir === dir);
  if (!info) throw new Error(`No labelled set "${dir}" (see LABELLED_SETS in bench/rater/labelled-set.ts).`);
  if (info.role === 'held-out') throw new Error(`${dir} is held out: its answers' results are not to be looked at.`);
  for (const a of readLabelledSet(path.join(LABEL_DIR, dir))) {
    const file = path.join(CATALOGUE_DIR, `${a.set}.md`);
    const set = parseQuestionSetFile(file, readFileSync(file, 'utf8'));
    const model = splitModelAnswers(set.modelAnswers, set.questions.length)[a.question - 1]!;
    const truth = new Set(a.points.map((p) => model.keyPoints[p - 1] ?? `#${p}`));
    const j = judgeAnswer(a.answer ? [a.answer] : [], model, set.questions[a.question - 1]);
    const falseCredits = j.covered.flatMap((c, i) => (truth.has(c) ? [] : [`${c}  <=  "${j.evidence[i] ?? ''}"`]));
    const notCredited = [...truth].filter((t) => !j.covered.includes(t));
    if (falseCredits.length === 0 && notCredited.length === 0) continue;
    console.log(`\n== ${dir}/${a.set} q${a.question} ${a.label} score ${j.score}\n${a.answer}`);
    for (const f of falseCredits) console.log(`  + credited, not stated: ${f}`);
    for (const n of notCredited) console.log(`  - stated, not credited: ${n}`);
  }
}

const args = process.argv.slice(2);
if (args.includes('--aggregate')) aggregate(args.includes('--held-out'));
else for (const dir of args) misses(dir);
