/**
 * Words are data: the rater's word lists live in server/rater/lists/ and are read once; no source
 * file of the rater spells out a list of words.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dataLines, wordList, wordMap, wordSet } from './word-lists';
import { antonymsOf } from './semantic';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe("the rater's word lists", () => {
  it('are read from the data files: sets, tables and line lists', () => {
    expect(wordSet('text.stopWords').has('the')).toBe(true);
    expect(wordList('statements.conditionWords')).toContain('unless');
    expect(wordMap('text.irregularVerbs').ran).toBe('run');
    expect(dataLines('concepts.txt').some((l) => l.startsWith('prevent:'))).toBe(true);
    expect(dataLines('concepts.txt').some((l) => l.startsWith('#'))).toBe(false);
    expect(antonymsOf('same')).toContain('different');
    expect(() => wordList('no.such.list')).toThrow(/word-sets.json has no list "no.such.list"/);
  });

  it('are not spelled out in the source: no source file holds a run of quoted words', () => {
    // The Porter stemmer's suffix table is the algorithm, not a word list.
    const sources = readdirSync(HERE).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'porter-stem.ts');
    expect(sources.length).toBeGreaterThan(10);
    for (const file of sources) {
      const text = readFileSync(path.join(HERE, file), 'utf8');
      // Six or more quoted words in a row (an array literal of words) is a word list in code.
      const run = /(?:'[a-z' ]+',\s*){6,}/.exec(text);
      expect(run?.[0] ?? '', file).toBe('');
    }
  });
});
