/**
 * The labelled sets (bench/rater/) judged by words alone and with the sentence model: precision,
 * recall, paraphrase recall, the class ordering and the caps, set by set.
 *
 *   npx tsx bench/rater/meaning-labelled.ts
 */
import path from 'node:path';
import { CATALOGUE_DIR } from '../../server/app';
import { loadSentenceEncoder, meaningFor } from '../../server/rater';
import { evaluateLabelled, labelledTexts, type LabelledFigures } from './evaluate';
import { LABEL_DIR, LABELLED_SETS, readLabelledSet } from './labelled-set';

const encoder = await loadSentenceEncoder(undefined, 2);
const show = (f: LabelledFigures) =>
  `precision ${f.precision.toFixed(3)}, recall ${f.recall.toFixed(3)}, paraphrase recall ${f.paraphraseRecall.toFixed(3)}, ordering ${f.orderingHolds}, salad max ${f.saladMax}, off-topic max ${f.offTopicMax}, medians ${f.classes.map((c) => `${c.label} ${c.median}`).join(' / ')}`;
for (const info of LABELLED_SETS) {
  const answers = readLabelledSet(path.join(LABEL_DIR, info.dir));
  const meaning = await meaningFor(encoder, labelledTexts(CATALOGUE_DIR, answers));
  console.log(`${info.dir || 'tuning'} (${info.role}), ${answers.length} answers`);
  console.log(`  words alone:  ${show(evaluateLabelled(CATALOGUE_DIR, answers))}`);
  console.log(`  with meaning: ${show(evaluateLabelled(CATALOGUE_DIR, answers, meaning))}`);
}
