import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './client';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('committed migrations', () => {
  it('match the Drizzle schema (drizzle-kit finds nothing to generate)', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'migrations-check-'));
    try {
      const out = path.join(work, 'migrations');
      execFileSync('cp', ['-r', MIGRATIONS_DIR, out]);
      // drizzle-kit wants paths relative to the working directory.
      const config = path.join(work, 'drizzle.config.ts');
      writeFileSync(
        config,
        `export default { dialect: 'postgresql', schema: './server/db/schema.ts', out: ${JSON.stringify(path.relative(ROOT, out))} };\n`,
      );
      const before = readdirSync(out).sort();
      const output = execFileSync(path.join(ROOT, 'node_modules/.bin/drizzle-kit'), ['generate', '--config', config], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(output).toContain('No schema changes, nothing to migrate');
      expect(readdirSync(out).sort()).toEqual(before);
      expect(readFileSync(path.join(out, 'meta/_journal.json'), 'utf8')).toBe(
        readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'),
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
