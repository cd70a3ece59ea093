import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkModelFiles, MODEL_DIR } from './model-files';
import { loadSentenceEncoder, type SentenceEncoder } from './sentence-encoder';
import { meaningFor } from './sentence-meaning';
import fixture from './sentence-encoder.fixture.json';

// The real model files (server/rater/model/) against the vectors onnxruntime in Python gave for
// the same sentences (scripts/rater-model/export.py writes the fixture). The int8 model's kernels
// differ by processor: on an AMD EPYC with AVX2 and no VNNI (CI here) a value differs by up to 0.007
// and a cosine by up to 0.015 from the fixture, which was written on another machine
// (scripts/rater-model/README.md, "Processors"). So values are compared within VALUE_TOLERANCE
// and cosines within 0.05: a wrong tokenizer, pooling or file is off by far more.
const VALUE_TOLERANCE = 0.02;

describe('the sentence encoder', () => {
  let encoder: SentenceEncoder;
  beforeAll(async () => {
    encoder = await loadSentenceEncoder(MODEL_DIR);
  }, 60_000);

  it('gives the vectors Python gave, unit length, batched in any order', async () => {
    const vectors = await encoder.embed([...fixture.sentences].reverse());
    vectors.reverse();
    vectors.forEach((v, i) => {
      expect(v).toHaveLength(384);
      expect(Math.hypot(...v)).toBeCloseTo(1, 4);
      fixture.firstValues[i]!.forEach((x, d) => expect(Math.abs(v[d]! - x)).toBeLessThan(VALUE_TOLERANCE));
    });
    const meaning = await meaningFor(encoder, fixture.sentences);
    fixture.sentences.forEach((a, i) =>
      fixture.sentences.forEach((b, j) => expect(meaning.closeness(a, b)).toBeCloseTo(fixture.cosines[i]![j]!, 1)),
    );
    expect(meaning.closeness(fixture.sentences[0]!, 'a text never embedded')).toBeUndefined();
  });

  it('reads the same meaning in other words closer than another subject', async () => {
    const meaning = await meaningFor(encoder, fixture.sentences);
    const [note, cookie, , hiking] = fixture.sentences as [string, string, string, string];
    expect(meaning.closeness(note, cookie)).toBeGreaterThan(meaning.closeness(note, hiking)! + 0.3);
  });
});

describe('checking the model files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rater-model-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function copyModel(): string {
    const to = mkdtempSync(path.join(dir, 'm-'));
    for (const f of ['SHA256SUMS', 'tokenizer.json', 'tokenizer_config.json']) copyFileSync(path.join(MODEL_DIR, f), path.join(to, f));
    symlinkSync(path.join(MODEL_DIR, 'model.onnx'), path.join(to, 'model.onnx'));
    return to;
  }

  it('passes the committed files', () => {
    expect(() => checkModelFiles(MODEL_DIR)).not.toThrow();
    expect(() => checkModelFiles(copyModel())).not.toThrow();
  });

  it('names a missing file', async () => {
    const to = copyModel();
    rmSync(path.join(to, 'tokenizer.json'));
    expect(() => checkModelFiles(to)).toThrow(`The rater's model file tokenizer.json is missing from ${to}.`);
    await expect(loadSentenceEncoder(to)).rejects.toThrow(`The rater's model file tokenizer.json is missing from ${to}.`);
  });

  it('names a damaged file', () => {
    const to = copyModel();
    writeFileSync(path.join(to, 'tokenizer_config.json'), '{}');
    expect(() => checkModelFiles(to)).toThrow(
      `The rater's model file tokenizer_config.json in ${to} is damaged (its SHA-256 does not match SHA256SUMS).`,
    );
  });

  it('names a missing checksum list', () => {
    const to = copyModel();
    rmSync(path.join(to, 'SHA256SUMS'));
    expect(() => checkModelFiles(to)).toThrow(`The rater's model file SHA256SUMS is missing from ${to}.`);
  });
});
