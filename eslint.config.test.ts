/**
 * Each rule of eslint.config.js that guards a boundary, probed: a file that breaks it is reported
 * (with the rule that says so), and its allowed neighbour is not. Probes are linted as text at a
 * path in the tree; they are never written to disk.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzonedFolders } from './eslint.config.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rule ids reported for `code` as if it were the file at `file`. */
async function rulesFired(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return [...new Set((result?.messages ?? []).map((message) => message.ruleId ?? `fatal: ${message.message}`))];
}

// The first lint of a file in server/ or web/src/ builds the TypeScript program of tsconfig.json
// for the type-aware rules: tens of seconds on a loaded machine, paid once here, not by one probe.
beforeAll(async () => {
  await rulesFired('server/services/probe.ts', 'export const x = 1;\n');
}, 300_000);

describe('domain/ and contract/ import only their allowed packages', () => {
  it.each([
    ['domain/probe.ts', "import { useState } from 'react';\nexport const x = useState;\n"],
    ['domain/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['domain/probe.ts', "import { z } from 'zod';\nexport const x = z;\n"],
    ['contract/probe.ts', "import pino from 'pino';\nexport const x = pino;\n"],
    ['contract/probe.ts', "import { describe } from 'vitest';\nexport const x = describe;\n"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await rulesFired(file, code)).toContain('no-restricted-imports');
  });

  it.each([
    ['contract/probe.ts', "import { z } from 'zod';\nexport const x = z.string();\n"],
    ['domain/probe.ts', "import { csvCell } from './csv';\nexport const x = csvCell;\n"],
    ['domain/probe.test.ts', "import fc from 'fast-check';\nimport { it } from 'vitest';\nit('x', () => fc);\n"],
  ])('%s: %s passes', async (file, code) => {
    expect(await rulesFired(file, code)).toEqual([]);
  });
});

describe('production code never imports test code', () => {
  it.each([
    ['server/services/probe.ts', "import { createTestApp } from '../../test-support/test-app';\nexport const x = createTestApp;\n"],
    ['server/probe.ts', "import { startAppServer } from '../e2e/support/app';\nexport const x = startAppServer;\n"],
    ['scripts/probe.ts', "import { createTestApp } from '../test-support/test-app';\nexport const x = createTestApp;\n"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await rulesFired(file, code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses test and build packages in production code', async () => {
    expect(await rulesFired('server/probe.ts', "import { describe } from 'vitest';\nexport const x = describe;\n")).toContain(
      'import-x/no-extraneous-dependencies',
    );
    expect(await rulesFired('web/src/lib/probe.ts', "import { defineConfig } from 'vite';\nexport const x = defineConfig;\n")).toContain(
      'import-x/no-extraneous-dependencies',
    );
  });

  it('lets tests import the test helpers', async () => {
    expect(
      await rulesFired(
        'server/services/probe.test.ts',
        "import { createTestApp } from '../../test-support/test-app';\nexport const x = createTestApp;\n",
      ),
    ).toEqual([]);
  });
});

describe('a wing of server/services has one door', () => {
  it.each([
    ['server/routes/probe.ts', "import { openRealtimeCall } from '../services/calls/registry';\nexport const x = openRealtimeCall;\n"],
    ['server/services/probe.ts', "import { createAdminGuard } from './admin/auth';\nexport const x = createAdminGuard;\n"],
    ['server/services/calls/probe.ts', "import { speechClip } from '../speech/turns';\nexport const x = speechClip;\n"],
    ['server/tests/probe.test.ts', "import { NOT_PCM_WAV } from '../services/speech/turns';\nexport const x = NOT_PCM_WAV;\n"],
    ['bench/probe.ts', "import { MAX_CLIP_BYTES } from '../server/services/speech/clips';\nexport const x = MAX_CLIP_BYTES;\n"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await rulesFired(file, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['server/routes/probe.ts', "import { openRealtimeCall } from '../services/calls';\nexport const x = openRealtimeCall;\n"],
    ['server/services/calls/probe.ts', "import { supervise } from './registry';\nexport const x = supervise;\n"],
    ['server/services/admin/probe.ts', "import { HttpError } from '../http-error';\nexport const x = HttpError;\n"],
  ])('%s: %s passes', async (file, code) => {
    expect(await rulesFired(file, code)).toEqual([]);
  });
});

describe('providers stay below the services', () => {
  it.each([
    ['server/providers/voice/probe.ts', "import { runningCall } from '../../services/calls';\nexport const x = runningCall;\n"],
    ['server/providers/probe.ts', "import { HttpError } from '../services/http-error';\nexport const x = HttpError;\n"],
    ['server/providers/upstream/probe.ts', "import { speakable } from '../interviewer/speakable';\nexport const x = speakable;\n"],
    ['server/providers/upstream/probe.ts', "import { sdpPath } from '../voice/openai-realtime-voice';\nexport const x = sdpPath;\n"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await rulesFired(file, code)).toContain('import-x/no-restricted-paths');
  });

  it('lets the voice, interviewer and rating parts use the upstream clients', async () => {
    expect(
      await rulesFired(
        'server/providers/rating/probe.ts',
        "import { extractJsonObject } from '../upstream/llm-client';\nexport const x = extractJsonObject;\n",
      ),
    ).toEqual([]);
  });
});

describe('the built-in rater has one door', () => {
  it.each([
    ['server/providers/interviewer/probe.ts', "import { countWords } from '../../rater/text-match';\nexport const x = countWords;\n"],
    ['server/services/probe.ts', "import { createRaterPool } from '../rater/rater-pool';\nexport const x = createRaterPool;\n"],
    ['server/probe.ts', "import { judgeAnswer } from './rater/rubric-rater-judge';\nexport const x = judgeAnswer;\n"],
    ['server/routes/probe.test.ts', "import { splitStatements } from '../rater/statements';\nexport const x = splitStatements;\n"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await rulesFired(file, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['server/providers/interviewer/probe.ts', "import { inThreadRater } from '../../rater';\nexport const x = inThreadRater;\n"],
    ['server/services/probe.ts', "import { createRaterPool } from '../rater/index';\nexport const x = createRaterPool;\n"],
    ['server/rater/probe.ts', "import { countWords } from './text-match';\nexport const x = countWords;\n"],
  ])('%s: %s passes', async (file, code) => {
    expect(await rulesFired(file, code)).toEqual([]);
  });
});

describe('server/db and server/catalogue stay at the bottom', () => {
  it.each([
    ['server/db/probe.ts', "import { requireAccount } from '../services/accounts';\nexport const x = requireAccount;\n"],
    ['server/db/probe.ts', "import { resolveVoiceMode } from '../config';\nexport const x = resolveVoiceMode;\n"],
    ['server/db/probe.ts', "import { readCatalogue } from '../catalogue/read-catalogue';\nexport const x = readCatalogue;\n"],
    ['server/catalogue/probe.ts', "import { findQuestionSet } from '../services/question-sets';\nexport const x = findQuestionSet;\n"],
    ['server/catalogue/probe.ts', "import { createProviders } from '../providers';\nexport const x = createProviders;\n"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await rulesFired(file, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    [
      'server/db/probe.ts',
      "import type { TranscriptEntry } from '../../contract';\nimport { events } from './schema';\nexport type X = TranscriptEntry;\nexport const x = events;\n",
    ],
    ['server/catalogue/probe.ts', "import type { CatalogueSet } from '../db/schema';\nexport type X = CatalogueSet;\n"],
  ])('%s: %s passes', async (file, code) => {
    expect(await rulesFired(file, code)).toEqual([]);
  });
});

describe('folders depend on each other one way (folder-cycles/no-folder-cycle)', () => {
  it.each([
    // providers/index.ts imports server/config.ts; plumbing.ts imports neither, so no file cycle.
    ['server/config.ts', "import { isAbort } from './providers/upstream/plumbing';\nexport const x = isAbort;\n"],
    // providers/index.ts picks the built-in rater.
    ['server/rater/probe.ts', "import { isAbort } from '../providers/upstream/plumbing';\nexport const x = isAbort;\n"],
  ])('%s: %s is refused', async (file, code) => {
    const fired = await rulesFired(file, code);
    expect(fired).toContain('folder-cycles/no-folder-cycle');
    expect(fired).not.toContain('import-x/no-cycle');
  });

  it('lets type-only imports and tests reach back', async () => {
    const typeOnly = "import type { Rater } from '../providers/types';\nexport type X = Rater;\n";
    expect(await rulesFired('server/rater/probe.ts', typeOnly)).not.toContain('folder-cycles/no-folder-cycle');
    const test = "import { isAbort } from '../providers/upstream/plumbing';\nexport const x = isAbort;\n";
    expect(await rulesFired('server/rater/probe.test.ts', test)).not.toContain('folder-cycles/no-folder-cycle');
  });
});

describe('every folder is in a zone', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'zones-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('covers every top-level folder of the repository', () => {
    expect(unzonedFolders(root)).toEqual([]);
  });

  it('names a new folder that no zone covers', () => {
    for (const name of ['server', 'docs', 'tools', '.git']) mkdirSync(path.join(scratch, name));
    expect(unzonedFolders(scratch)).toEqual(['tools']);
  });

  it.each([
    [
      'scripts/probe.ts',
      "import { SessionController } from '../web/src/features/interview/session-controller';\nexport const x = SessionController;\n",
    ],
    ['bench/probe.ts', "import { webBuildState } from '../scripts/web-build-stamp';\nexport const x = webBuildState;\n"],
    ['test-support/probe.ts', "import { test } from '../e2e/support/test';\nexport const x = test;\n"],
    ['server/tests/probe.test.ts', "import { test } from '../../e2e/support/test';\nexport const x = test;\n"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await rulesFired(file, code)).toContain('import-x/no-restricted-paths');
  });
});

describe('process.env is read only in server/config.ts', () => {
  it.each([
    'export const x = process.env.PORT;\n',
    "export const x = process['env'];\n",
    'export const x = globalThis.process.env.PORT;\n',
    'export const x = global.process;\n',
    'const { env } = process;\nexport const x = env;\n',
    "import { env } from 'node:process';\nexport const x = env;\n",
    "import proc from 'process';\nexport const x = proc;\n",
    "export const x = await import('node:process');\n",
    'const p = process;\nexport const x = p;\n',
    "export const x = Reflect.get(process, 'env');\n",
    'export const x = { p: process };\n',
    'const { process: p } = globalThis;\nexport const x = p;\n',
  ])('refuses %s', async (code) => {
    const fired = await rulesFired('server/services/probe.ts', code);
    expect(fired.filter((rule) => rule === 'no-restricted-properties' || rule === 'no-restricted-syntax')).not.toEqual([]);
  });

  it('allows the rest of process, and the environment in server/config.ts', async () => {
    expect(
      await rulesFired('server/services/probe.ts', "process.on('exit', () => process.exit(0));\nexport const x = process.pid;\n"),
    ).toEqual([]);
    expect(await rulesFired('server/config.ts', 'export const x = process.env.PORT;\n')).toEqual([]);
  });

  it('holds in the web app and the start-up scripts too', async () => {
    expect(await rulesFired('web/src/lib/probe.ts', 'export const x = globalThis.process.env;\n')).toContain('no-restricted-properties');
    expect(await rulesFired('scripts/probe.ts', 'export const x = process.env;\n')).toContain('no-restricted-properties');
  });
});

describe('react-hooks rules', () => {
  it('refuses a hook called conditionally', async () => {
    const code = "import { useState } from 'react';\nexport function useX(on: boolean) {\n  if (on) useState(0);\n}\n";
    expect(await rulesFired('web/src/lib/probe.ts', code)).toContain('react-hooks/rules-of-hooks');
  });

  it('refuses a ref written during render', async () => {
    const code =
      "import { useRef } from 'react';\nexport function useX(value: number) {\n  const ref = useRef(value);\n  ref.current = value;\n  return ref;\n}\n";
    expect(await rulesFired('web/src/lib/probe.ts', code)).toContain('react-hooks/refs');
  });
});

describe('promises are awaited or let go on purpose (type-aware)', () => {
  const work = 'async function work(): Promise<void> {}\n';

  it.each(['server/services/probe.ts', 'web/src/lib/probe.ts'])('%s: a promise nobody awaits is refused', async (file) => {
    expect(await rulesFired(file, `${work}export function run(): void {\n  work();\n}\n`)).toContain(
      '@typescript-eslint/no-floating-promises',
    );
  });

  it.each(['server/services/probe.ts', 'web/src/lib/probe.ts'])(
    '%s: an async callback where a void one is expected is refused',
    async (file) => {
      const code = `${work}export function run(): void {\n  setTimeout(async () => {\n    await work();\n  }, 1);\n}\n`;
      expect(await rulesFired(file, code)).toContain('@typescript-eslint/no-misused-promises');
    },
  );

  it('passes an awaited promise and one let go with `void`', async () => {
    const code = `${work}export async function run(): Promise<void> {\n  await work();\n  void work();\n  setTimeout(() => void work(), 1);\n}\n`;
    expect(await rulesFired('server/services/probe.ts', code)).toEqual([]);
  });
});
