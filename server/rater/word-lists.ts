/**
 * The rater's word lists, read once from its data files (server/rater/lists/): words are data, not
 * code. A text list holds one entry a line (`#` starts a comment; blank lines are skipped);
 * word-sets.json holds the small sets of words the rules use (negations, fillers, stop words...),
 * by `module.name`, and word-maps.json the word-to-word tables (number words, synonyms, irregular
 * verbs). This module imports nothing of the rater's, so any part may read a list while it loads.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const LISTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lists');

const LINES = new Map<string, string[]>();

/** The lines of a list file, comments and blank lines out. */
export function dataLines(file: string): string[] {
  let lines = LINES.get(file);
  if (!lines) {
    lines = readFileSync(path.join(LISTS_DIR, file), 'utf8')
      .split(/\r?\n/)
      .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
      .filter(Boolean);
    LINES.set(file, lines);
  }
  return lines;
}

let sets: Record<string, string[]> | undefined;
let maps: Record<string, Record<string, string>> | undefined;

/** A list of word-sets.json, in its order. */
export function wordList(name: string): string[] {
  sets ??= JSON.parse(readFileSync(path.join(LISTS_DIR, 'word-sets.json'), 'utf8')) as Record<string, string[]>;
  const list = sets[name];
  if (!list) throw new Error(`server/rater/lists/word-sets.json has no list "${name}"`);
  return list;
}

/** A set of word-sets.json. */
export function wordSet(name: string): Set<string> {
  return new Set(wordList(name));
}

/** A word-to-word table of word-maps.json. */
export function wordMap(name: string): Record<string, string> {
  maps ??= JSON.parse(readFileSync(path.join(LISTS_DIR, 'word-maps.json'), 'utf8')) as Record<string, Record<string, string>>;
  const map = maps[name];
  if (!map) throw new Error(`server/rater/lists/word-maps.json has no table "${name}"`);
  return map;
}
