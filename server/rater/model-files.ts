/**
 * The rater's model files: where the shipped ones are, and the check that every file SHA256SUMS
 * names is there and unchanged. Kept apart from the runtime (sentence-encoder.ts), so start-up can
 * check the files without loading onnxruntime-node on the main thread: only the rater's worker
 * threads run the model (docs/decisions/028-rater-in-worker-threads.md).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The committed model's folder. */
export const MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model');
const CHECKSUMS = 'SHA256SUMS';

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
