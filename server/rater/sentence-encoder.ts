/**
 * The rater's sentence model: all-MiniLM-L6-v2 as ONNX (server/rater/model/, made by
 * scripts/rater-model/), run by onnxruntime-node, with its WordPiece tokenizer run by
 * @huggingface/tokenizers from the committed tokenizer.json (nothing is fetched). A text becomes
 * the mean of its token vectors, L2-normalised, as sentence-transformers does, so the cosine of two
 * texts is the dot product of their vectors.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { InferenceSession, Tensor } from 'onnxruntime-node';

export interface SentenceEncoder {
  /** One unit-length vector per text, in the texts' order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The committed model's folder. */
export const MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model');
const CHECKSUMS = 'SHA256SUMS';
/** The model was trained on at most this many tokens a text (sentence_bert_config.json); longer is cut. */
const MAX_TOKENS = 256;
/** Texts run through the model together; sorted by length first, so a batch pads little. */
const BATCH = 32;

/** The files SHA256SUMS names, with their expected digests. */
function expectedFiles(dir: string): Array<{ file: string; sha256: string }> {
  const sums = path.join(dir, CHECKSUMS);
  if (!existsSync(sums)) throw new Error(`The rater's model file ${CHECKSUMS} is missing from ${dir}.`);
  return readFileSync(sums, 'utf8')
    .split('\n')
    .map((line) => /^([0-9a-f]{64}) {2}(\S+)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ sha256: m[1]!, file: m[2]! }));
}

/**
 * Every model file is there and unchanged (its SHA-256 as SHA256SUMS says); otherwise an Error
 * whose message names the file.
 */
export function checkModelFiles(dir: string = MODEL_DIR): void {
  const files = expectedFiles(dir);
  if (files.length === 0) throw new Error(`The rater's model file ${CHECKSUMS} in ${dir} lists no file.`);
  for (const { file, sha256 } of files) {
    const at = path.join(dir, file);
    if (!existsSync(at)) throw new Error(`The rater's model file ${file} is missing from ${dir}.`);
    const actual = createHash('sha256').update(readFileSync(at)).digest('hex');
    if (actual !== sha256)
      throw new Error(`The rater's model file ${file} in ${dir} is damaged (its SHA-256 does not match ${CHECKSUMS}).`);
  }
}

interface Encoded {
  ids: number[];
  mask: number[];
}

function encodeOne(tokenizer: Tokenizer, text: string): Encoded {
  const { ids } = tokenizer.encode(text);
  // Cut long texts as the Python tokenizer does: keep [CLS] and the closing [SEP].
  const kept = ids.length > MAX_TOKENS ? [...ids.slice(0, MAX_TOKENS - 1), ids[ids.length - 1]!] : ids;
  return { ids: kept, mask: kept.map(() => 1) };
}

function int64(rows: readonly number[][], width: number): Tensor {
  const data = new BigInt64Array(rows.length * width);
  rows.forEach((row, r) => row.forEach((v, c) => (data[r * width + c] = BigInt(v))));
  return new Tensor('int64', data, [rows.length, width]);
}

/** Mean of the token vectors under the mask, L2-normalised. */
function pool(hidden: Float32Array, mask: readonly number[], row: number, width: number, dim: number): Float32Array {
  const out = new Float32Array(dim);
  let count = 0;
  for (let t = 0; t < width; t++) {
    if (!mask[t]) continue;
    count += 1;
    const base = (row * width + t) * dim;
    for (let d = 0; d < dim; d++) out[d]! += hidden[base + d]!;
  }
  let norm = 0;
  for (let d = 0; d < dim; d++) {
    out[d]! /= Math.max(count, 1);
    norm += out[d]! * out[d]!;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let d = 0; d < dim; d++) out[d]! *= scale;
  return out;
}

async function runBatch(session: InferenceSession, batch: readonly Encoded[]): Promise<Float32Array[]> {
  const width = Math.max(...batch.map((e) => e.ids.length));
  const pad = (row: readonly number[]) => [...row, ...new Array<number>(width - row.length).fill(0)];
  const ids = batch.map((e) => pad(e.ids));
  const masks = batch.map((e) => pad(e.mask));
  const result = await session.run({
    input_ids: int64(ids, width),
    attention_mask: int64(masks, width),
    token_type_ids: int64(
      ids.map((row) => row.map(() => 0)),
      width,
    ),
  });
  const hidden = result.last_hidden_state;
  if (!hidden) throw new Error("The rater's sentence model gave no last_hidden_state.");
  const dim = hidden.dims[2]!;
  const data = hidden.data as Float32Array;
  return masks.map((mask, row) => pool(data, mask, row, width, dim));
}

/** Loads the model (after checking its files) with `threads` threads for one run at a time. */
export async function loadSentenceEncoder(dir: string = MODEL_DIR, threads = 1): Promise<SentenceEncoder> {
  checkModelFiles(dir);
  const [tokenizerJson, tokenizerConfig] = await Promise.all(
    ['tokenizer.json', 'tokenizer_config.json'].map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as object),
  );
  const tokenizer = new Tokenizer(tokenizerJson!, tokenizerConfig!);
  const session = await InferenceSession.create(path.join(dir, 'model.onnx'), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  return {
    async embed(texts) {
      const encoded = texts.map((t) => encodeOne(tokenizer, t));
      const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.ids.length - encoded[b]!.ids.length);
      const out = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += BATCH) {
        const slice = order.slice(start, start + BATCH);
        const vectors = await runBatch(
          session,
          slice.map((i) => encoded[i]!),
        );
        slice.forEach((i, k) => (out[i] = vectors[k]!));
      }
      return out;
    },
  };
}
