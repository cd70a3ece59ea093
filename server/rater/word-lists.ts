/**
 * The rater's word lists, read once from its data files (server/rater/lists/): words are data, not
 * code. A list file holds one entry a line; `#` starts a comment; blank lines are skipped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stem } from './text-match';

export const LISTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lists');

/** The lines of a data file, comments and blank lines out. */
export function dataLines(file: string): string[] {
  return readFileSync(path.join(LISTS_DIR, file), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}

let antonyms: Map<string, string[]> | undefined;

/** Words (and their stems) that say the opposite of `word` (server/rater/lists/antonyms.txt). */
export function antonymsOf(word: string): readonly string[] {
  if (!antonyms) {
    antonyms = new Map();
    for (const line of dataLines('antonyms.txt')) {
      const [left, right = ''] = line.split('|').map((s) => s.trim());
      const opposites = right
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const key of [left!, stem(left!)]) {
        const list = antonyms.get(key) ?? [];
        for (const o of opposites) list.push(o, stem(o));
        antonyms.set(key, [...new Set(list)]);
      }
    }
  }
  return antonyms.get(word) ?? antonyms.get(stem(word)) ?? [];
}
