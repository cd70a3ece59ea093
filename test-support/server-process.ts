/**
 * Starts the REAL server process (`tsx server/main.ts`) for end-to-end tests:
 *
 *   const server = await startServer({ env: { SIGNUP: 'invite' } });
 *   // server.url (http://127.0.0.1:PORT), server.adminSecret, server.dataDir, server.output()
 *   await server.stop();
 *
 * It uses a fresh temp DATA_DIR (PGlite; removed on stop unless `keepDataDir`), PORT=0 on
 * 127.0.0.1, ADMIN_SECRET = E2E_ADMIN_SECRET, and waits for `/healthz`. The server serves the
 * built web app from web/dist (run `npm run build:web` first; `npm run test:e2e` does).
 * `env` overrides any setting (e.g. OPENAI_BASE_URL pointing at a local peer). The OpenAI and
 * LLM keys of the calling shell are NOT inherited, so tests never reach the cloud by accident.
 *
 * When the run made a PGlite template (TEST_PGLITE_TEMPLATE_DIR, set by Playwright's global set-up
 * e2e/support/global-setup.ts, which gets it from a real first start of the server on an empty
 * directory), a fresh PGlite DATA_DIR starts as a copy of it: the server then opens a migrated
 * database, as on any restart, instead of running initdb again (seconds of CPU per server).
 *
 * Seeding: use the product's own calls over HTTP, via `seedUser(server, {...})` below (login,
 * plan, feedback, rated interviews), or `call(server, method, path, ...)` and `login(server, email)`
 * of test-support/fixtures.ts (the same helpers the server tests use in-process) for anything else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, login, type Answer } from './fixtures';
import { inheritedChildEnv, readTestEnv } from './env';

export const E2E_ADMIN_SECRET = 'e2e-admin-secret-0123456789';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface StartServerOptions {
  env?: Record<string, string>;
  /** Use this data directory instead of a fresh one (e.g. restart on the same data). */
  dataDir?: string;
  keepDataDir?: boolean;
  /** Time allowed for start-up (PGlite's first initdb takes a few seconds). */
  timeoutMs?: number;
}

export interface RunningServer {
  url: string;
  adminSecret: string;
  dataDir: string;
  pid: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

function childEnv(extra: Record<string, string>, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...inheritedChildEnv(),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_SECRET: E2E_ADMIN_SECRET,
    ...SEEDING_LIMITS,
    ...extra,
  };
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'interview-e2e-'));
  const removeDataDir = !options.dataDir && !options.keepDataDir;
  const env = childEnv(options.env ?? {}, dataDir);
  const template = readTestEnv().pgliteTemplateDir;
  if (template && !options.dataDir && !env.DATABASE_URL) cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
  // One process (tsx as a loader, no wrapper): `pid` is the server's and signals reach it directly.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await waitForExit(child);
      clearTimeout(timer);
    }
    if (removeDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  // Generous: a fresh PGlite directory runs initdb, slow on a loaded 2-core machine.
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  let url: string | null = null;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with code ${child.exitCode} before it was ready:\n${output}`);
    }
    const match = /Listening on (http:\/\/[^\s]+)/.exec(output);
    if (match?.[1]) {
      url = match[1];
      const health = await fetch(`${url}/healthz`).catch(() => null);
      if (health?.ok) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!url) {
    await stop();
    throw new Error(`The server did not start in time:\n${output}`);
  }
  return {
    url,
    adminSecret: env.ADMIN_SECRET ?? E2E_ADMIN_SECRET,
    dataDir,
    pid: child.pid ?? -1,
    output: () => output,
    stop,
  };
}

export interface SeedUserOptions {
  email: string;
  pro?: boolean;
  /** Topics to give feedback on (unlocks sets that require feedback). */
  feedbackTopics?: string[];
  /** Question-set ids to complete: token + a rated transcript each, in this order. */
  completeSetIds?: number[];
}

/** The answer's body; throws (failing the test) on an error status. */
export function must<T>(answer: Answer<T>, what: string): T {
  if (answer.status >= 300) throw new Error(`${what} failed with ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Seeding rates many interviews of one user at once; the per-account defaults would refuse that. */
const SEEDING_LIMITS: Record<string, string> = {
  RATING_ACCOUNT_RATE_LIMIT: '1000',
  FEEDBACK_ACCOUNT_RATE_LIMIT: '1000',
  RATING_RATE_LIMIT: '1000',
  FEEDBACK_RATE_LIMIT: '1000',
};

/** Seeds a user through the real calls, exactly as the web app would. */
export async function seedUser(server: RunningServer, options: SeedUserOptions): Promise<void> {
  const user = { 'x-user-email': options.email };
  await login(server, options.email);
  if (options.pro) {
    const admin = { 'x-admin-secret': server.adminSecret };
    must(
      await call(server, 'POST', '/api/emails', { headers: admin, body: { email: options.email, isPro: true, limit: null } }),
      'make pro',
    );
  }
  for (const topic of options.feedbackTopics ?? []) {
    const body = { feedback: `Seeded feedback on ${topic}: clear questions, good pace.`, topic, questionIndex: 1 };
    must(await call(server, 'POST', '/user/feedback', { headers: user, body }), 'feedback');
  }
  for (const questionSetId of options.completeSetIds ?? []) {
    const token = must(
      await call<{ sessionId: string }>(server, 'GET', `/interview/token?questionSetId=${questionSetId}`, { headers: user }),
      'token',
    );
    const transcripts = [
      { role: 'interviewer', transcript: 'Tell me about a project you are proud of.' },
      { role: 'interviewee', transcript: 'I rebuilt our billing service, cut errors in half and wrote tests for every edge case.' },
    ];
    const rate = { transcripts, durationSeconds: 95, questionSetId, sessionId: token.sessionId };
    must(await call(server, 'POST', '/interview/rate-transcript', { headers: user, body: rate }), 'rate');
  }
}
