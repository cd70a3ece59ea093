/**
 * The rater's sentence model: all-MiniLM-L6-v2 as ONNX (server/rater/model/, made by
 * scripts/rater-model/), run by onnxruntime-node, with its WordPiece tokenizer run by
 * @huggingface/tokenizers from the committed tokenizer.json (nothing is fetched). A text becomes
 * the mean of its token vectors, L2-normalised, as sentence-transformers does, so the cosine of two
 * texts is the dot product of their vectors.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { checkModelFiles, MODEL_DIR } from './model-files';

/** onnxruntime-node, loaded when a model is (in the rater's workers), not when this file is imported. */
type Runtime = typeof import('onnxruntime-node');

export interface SentenceEncoder {
  /** One unit-length vector per text, in the texts' order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The model was trained on at most this many tokens a text (sentence_bert_config.json); longer is cut. */
const MAX_TOKENS = 256;
/** Texts run through the model together; sorted by length first, so a batch pads little. */
const BATCH = 32;

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

function int64(ort: Runtime, rows: readonly number[][], width: number): Tensor {
  const data = new BigInt64Array(rows.length * width);
  rows.forEach((row, r) => row.forEach((v, c) => (data[r * width + c] = BigInt(v))));
  return new ort.Tensor('int64', data, [rows.length, width]);
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

async function runBatch(ort: Runtime, session: InferenceSession, batch: readonly Encoded[]): Promise<Float32Array[]> {
  const width = Math.max(...batch.map((e) => e.ids.length));
  const pad = (row: readonly number[]) => [...row, ...new Array<number>(width - row.length).fill(0)];
  const ids = batch.map((e) => pad(e.ids));
  const masks = batch.map((e) => pad(e.mask));
  const result = await session.run({
    input_ids: int64(ort, ids, width),
    attention_mask: int64(ort, masks, width),
    token_type_ids: int64(
      ort,
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
export async function loadSentenceEncoder(
  dir: string = MODEL_DIR,
  threads = 1,
  /** False where start-up has checked the files already (the server's workers: model-setting.ts). */
  check = true,
): Promise<SentenceEncoder> {
  if (check) checkModelFiles(dir);
  const [ort, { Tokenizer }] = await Promise.all([import('onnxruntime-node'), import('@huggingface/tokenizers')]);
  const [tokenizerJson, tokenizerConfig] = await Promise.all(
    ['tokenizer.json', 'tokenizer_config.json'].map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as object),
  );
  const tokenizer = new Tokenizer(tokenizerJson!, tokenizerConfig!);
  const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'), {
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
          ort,
          session,
          slice.map((i) => encoded[i]!),
        );
        slice.forEach((i, k) => (out[i] = vectors[k]!));
      }
      return out;
    },
  };
}
