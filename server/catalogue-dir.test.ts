import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMain, type MainProcess } from '../test-support/run-main';
import { loadConfig } from './config';

const SHIPPED = path.resolve(import.meta.dirname, '../content/question-sets/01-javascript-fundamentals.md');

// Each case starts the real server process, which takes seconds on a busy machine.
describe('CATALOGUE_DIR', () => {
  const dirs: string[] = [];
  let server: MainProcess | null = null;
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-dir-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    server = null;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves a relative directory against the working directory', () => {
    expect(loadConfig({ CATALOGUE_DIR: 'my-sets' }).catalogueDir).toBe(path.resolve('my-sets'));
  });

  it("serves an operator's own question sets", async () => {
    const catalogue = tempDir();
    const own = readFileSync(SHIPPED, 'utf8').replace('name: JavaScript', 'name: Our JavaScript');
    writeFileSync(path.join(catalogue, 'ours.md'), own);
    server = runMain({ DATA_DIR: tempDir(), CATALOGUE_DIR: catalogue, ADMIN_SECRET: 'catalogue-dir-secret-123' });
    const [, url] = await server.waitFor(/Listening on (http:\/\/\S+)/);
    const sets = (await (await fetch(`${url}/api/question-sets`)).json()) as Array<{ name: string }>;
    expect(sets.map((s) => s.name)).toEqual(['Our JavaScript']);
  }, 120_000);

  it('stops start-up on a bad file, naming the file and the problem', async () => {
    const catalogue = tempDir();
    const bad = readFileSync(SHIPPED, 'utf8').replace('### 3. How does the this keyword', '### 4. How does the this keyword');
    writeFileSync(path.join(catalogue, 'broken.md'), bad);
    server = runMain({ DATA_DIR: tempDir(), CATALOGUE_DIR: catalogue, ADMIN_SECRET: 'catalogue-dir-secret-123' });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain(
      `Start-up failed: Question set ${path.join(catalogue, 'broken.md')}: model-answer section 3 is numbered 4; number them 1 to 5 in order`,
    );
  }, 120_000);
});
