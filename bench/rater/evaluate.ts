/**
 * Runs the rubric judge over the labelled answers and measures it against the labels: key-point
 * precision and recall (all answers, and the strong paraphrases alone), score ranges per class,
 * the class ordering, and the caps for keyword salad and off-topic answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { splitModelAnswers } from '../../server/catalogue/model-answers';
import { parseQuestionSetFile, type CatalogueSet } from '../../server/catalogue/read-catalogue';
import { answerTextsToEmbed, judgeAnswer, type SentenceMeaning } from '../../server/rater';
import { LABEL_CLASSES, readLabelledSet, type LabelClass, type LabelledAnswer } from './labelled-set';

export interface ClassFigures {
  label: LabelClass;
  answers: number;
  min: number;
  median: number;
  max: number;
  mean: number;
}

export interface Miss {
  where: string;
  label: LabelClass;
  score: number;
  /** Key points credited that the answer does not state. */
  falseCredits: string[];
  /** Key points the answer states that were not credited. */
  notCredited: string[];
}

export interface LabelledFigures {
  answers: number;
  precision: number;
  recall: number;
  paraphraseRecall: number;
  classes: ClassFigures[];
  /** Mean scores: strong (both kinds) > partial > each of off-topic, wrong, salad. */
  orderingHolds: boolean;
  saladMax: number;
  offTopicMax: number;
  misses: Miss[];
  pass: { precision: boolean; paraphraseRecall: boolean; ordering: boolean; caps: boolean };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** `meaning`: the sentence model's lookup over the answers' texts (labelledTexts); without it the words alone decide. */
export function evaluateLabelled(
  catalogueDir: string,
  answers: LabelledAnswer[] = readLabelledSet(),
  meaning?: SentenceMeaning,
): LabelledFigures {
  const byFile = new Map<string, CatalogueSet>();
  const setOf = (name: string) => {
    if (!byFile.has(name)) {
      const file = path.join(catalogueDir, `${name}.md`);
      byFile.set(name, parseQuestionSetFile(file, readFileSync(file, 'utf8')));
    }
    return byFile.get(name);
  };
  let credited = 0;
  let correct = 0;
  let stated = 0;
  let paraphraseStated = 0;
  let paraphraseFound = 0;
  const scores = new Map<LabelClass, number[]>(LABEL_CLASSES.map((c) => [c, []]));
  const misses: Miss[] = [];
  for (const a of answers) {
    const set = setOf(a.set);
    if (!set) throw new Error(`No question set file ${a.set}.md in ${catalogueDir}`);
    const model = splitModelAnswers(set.modelAnswers, set.questions.length)[a.question - 1];
    if (!model) throw new Error(`${a.set}: no question ${a.question}`);
    const truth = new Set(a.points.map((p) => model.keyPoints[p - 1] ?? `#${p}`));
    const j = judgeAnswer(a.answer ? [a.answer] : [], model, set.questions[a.question - 1], meaning);
    const hits = j.covered.filter((c) => truth.has(c));
    credited += j.covered.length;
    correct += hits.length;
    stated += truth.size;
    if (a.label === 'strong-paraphrase') {
      paraphraseStated += truth.size;
      paraphraseFound += hits.length;
    }
    scores.get(a.label)!.push(j.score);
    const falseCredits = j.covered.filter((c) => !truth.has(c));
    const notCredited = [...truth].filter((t) => !j.covered.includes(t));
    if (falseCredits.length || notCredited.length)
      misses.push({ where: `${a.set} q${a.question}`, label: a.label, score: j.score, falseCredits, notCredited });
  }
  const classes = LABEL_CLASSES.map((label) => {
    const xs = scores.get(label)!;
    return {
      label,
      answers: xs.length,
      min: xs.length ? Math.min(...xs) : NaN,
      median: median(xs),
      max: xs.length ? Math.max(...xs) : NaN,
      mean: mean(xs),
    };
  });
  const meanOf = (...labels: LabelClass[]) => mean(labels.flatMap((l) => scores.get(l)!));
  const strong = meanOf('strong-verbatim', 'strong-paraphrase');
  const partial = meanOf('partial');
  // Classes a set does not have (the held-out answers are mostly paraphrases) are left out of the comparison.
  const present = (x: number) => !Number.isNaN(x);
  const top = present(partial) ? partial : strong;
  const orderingHolds =
    (!present(partial) || !present(strong) || strong > partial) &&
    (['off-topic', 'wrong', 'salad'] as const).every((l) => !present(meanOf(l)) || !present(top) || top > meanOf(l));
  const saladMax = Math.max(0, ...scores.get('salad')!);
  const offTopicMax = Math.max(0, ...scores.get('off-topic')!);
  const precision = credited === 0 ? 1 : correct / credited;
  const recall = stated === 0 ? 1 : correct / stated;
  const paraphraseRecall = paraphraseStated === 0 ? 1 : paraphraseFound / paraphraseStated;
  return {
    answers: answers.length,
    precision,
    recall,
    paraphraseRecall,
    classes,
    orderingHolds,
    saladMax,
    offTopicMax,
    misses,
    pass: {
      precision: precision >= 0.95,
      paraphraseRecall: paraphraseRecall >= 0.75,
      ordering: orderingHolds,
      caps: saladMax <= 20 && offTopicMax <= 20,
    },
  };
}

/** Every text the judge asks the sentence model about for these answers (embed them, then pass the lookup to evaluateLabelled). */
export function labelledTexts(catalogueDir: string, answers: LabelledAnswer[]): string[] {
  const sets = new Map<string, CatalogueSet>();
  return answers.flatMap((a) => {
    if (!sets.has(a.set)) {
      const file = path.join(catalogueDir, `${a.set}.md`);
      sets.set(a.set, parseQuestionSetFile(file, readFileSync(file, 'utf8')));
    }
    const set = sets.get(a.set)!;
    const model = splitModelAnswers(set.modelAnswers, set.questions.length)[a.question - 1];
    return a.answer ? answerTextsToEmbed([a.answer], model, set.questions[a.question - 1]) : [];
  });
}
