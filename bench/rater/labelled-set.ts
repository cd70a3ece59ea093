/**
 * The labelled answers of bench/rater/*.txt: one file per shipped question set (same base name).
 * Each answer starts with a line `@ <question number> <class> <key point numbers or ->`, and its
 * text runs to the next `@` line. The key point numbers are the points the answer really states
 * (1-based, in the order of the set's `**Key points:**` line), whatever any rater says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const LABEL_CLASSES = ['strong-verbatim', 'strong-paraphrase', 'partial', 'off-topic', 'wrong', 'salad', 'empty'] as const;
export type LabelClass = (typeof LABEL_CLASSES)[number];

export interface LabelledAnswer {
  /** Catalogue file base name, e.g. `01-javascript-fundamentals`. */
  set: string;
  /** 1-based question number. */
  question: number;
  label: LabelClass;
  /** 1-based numbers of the key points the answer states. */
  points: number[];
  answer: string;
}

export const LABEL_DIR = path.dirname(fileURLToPath(import.meta.url));

export function parseLabelled(set: string, text: string): LabelledAnswer[] {
  const answers: LabelledAnswer[] = [];
  let current: LabelledAnswer | null = null;
  for (const line of text.split(/\r?\n/)) {
    const head = /^@\s+(\d+)\s+(\S+)\s+(\S+)\s*$/.exec(line);
    if (head) {
      const label = head[2] as LabelClass;
      if (!LABEL_CLASSES.includes(label)) throw new Error(`${set}: unknown class "${head[2]}"`);
      const points = head[3] === '-' ? [] : (head[3] ?? '').split(',').map(Number);
      if (points.some((p) => !Number.isInteger(p) || p < 1)) throw new Error(`${set}: bad key point list "${head[3]}"`);
      current = { set, question: Number(head[1]), label, points, answer: '' };
      answers.push(current);
    } else if (current) {
      current.answer = `${current.answer} ${line}`.trim();
    } else if (line.trim()) {
      throw new Error(`${set}: text before the first "@" line`);
    }
  }
  return answers;
}

export function readLabelledSet(dir = LABEL_DIR): LabelledAnswer[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .flatMap((name) => parseLabelled(name.replace(/\.txt$/, ''), readFileSync(path.join(dir, name), 'utf8')));
}
