/** results.md keeps what no part writes when one part's section is rewritten. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Machine } from './machine';
import { mergeResults, writeResults } from './report';

const PREVIOUS = [
  '# Benchmark results',
  '',
  'Written by hand too.',
  '',
  '## Machine',
  '',
  '- Run: long ago',
  '',
  '## Built-in rater with the sentence model (issue 32)',
  '',
  'Hand-written:  kept  byte for byte.\t',
  '',
  '',
  '## Streamed CSV export',
  '',
  '| old | row |',
  '',
  '## CI time',
  '',
  'notes',
  '',
].join('\n');

const MACHINE: Machine = {
  cpus: 2,
  cpuModel: 'test cpu',
  memoryGb: 4,
  loadAverage: [1, 2, 3],
  node: 'v20',
  postgres: '16',
  pglite: '0.3',
  chromium: '140',
  lighthouse: '12',
  autocannon: '8',
  kernel: 'linux',
};

describe('bench results writer', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("replaces only the part's section and keeps a hand-written one byte for byte", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-report-'));
    dirs.push(dir);
    const out = path.join(dir, '.out');
    const file = path.join(dir, 'results.md');
    writeFileSync(file, PREVIOUS);
    // Only the machine's figures are in .out: the other parts did not run.
    mkdirSync(out);
    writeFileSync(path.join(out, 'machine.json'), JSON.stringify({ at: '2026-11-28T23:00:00.000Z', data: MACHINE }));
    writeResults(out, file, ['machine']);
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('- Run: 2026-11-28T23:00:00.000Z');
    expect(written).not.toContain('long ago');
    // Everything after the machine's section is the old file's, unchanged.
    const from = (text: string) => text.slice(text.indexOf('## Built-in rater with the sentence model'));
    expect(from(written)).toBe(from(PREVIOUS));
    expect(written.startsWith('# Benchmark results\n\nWritten by hand too.\n\n## Machine\n')).toBe(true);
  });

  it('adds a section the file does not have yet at the end', () => {
    const merged = mergeResults('# R\n\n## CI time\n\nnotes', '# R\n\n## Takeover\n\nnew\n', ['takeover']);
    expect(merged).toBe('# R\n\n## CI time\n\nnotes\n\n## Takeover\n\nnew\n');
  });
});
