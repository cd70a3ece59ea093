/**
 * One side of the DATA_DIR lock race test (server/data-dir-lock.test.ts). For each trial it waits
 * for `<base>/go-<n>`, then tries to take the lock of `<base>/trial-<n>` at once and writes
 * `won` or `lost` to `<base>/trial-<n>/result-<pid>`. Won locks are kept until `<base>/done`.
 *
 *   node --import tsx test-support/lock-racer.ts <base> <trials>
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { acquireDataDirLock, DataDirLockedError } from '../server/data-dir-lock';

const [base = '', trialsText = '0'] = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));
const waitFor = (file: string) => {
  while (!existsSync(file)) Atomics.wait(pause, 0, 0, 0.2);
};

console.log('ready');
for (let n = 0; n < Number(trialsText); n += 1) {
  const dir = path.join(base, `trial-${n}`);
  waitFor(path.join(base, `go-${n}`));
  let result: string;
  try {
    acquireDataDirLock(dir);
    result = 'won';
  } catch (error) {
    result = error instanceof DataDirLockedError ? 'lost' : `error: ${(error as Error).message}`;
  }
  // Written aside, then renamed: the test lists result files and must never read a half-written one.
  writeFileSync(path.join(dir, `writing-${process.pid}`), result);
  renameSync(path.join(dir, `writing-${process.pid}`), path.join(dir, `result-${process.pid}`));
}
waitFor(path.join(base, 'done'));
