/**
 * SIGTERM stops a server without cutting anyone off (server/plugins/draining.ts): the REAL server
 * process (tsx server/main.ts, PGlite) with SHUTDOWN_DRAIN_SECONDS set drains first: GET /healthz
 * answers 503 `draining` at once (a load balancer moves away) while requests are still served,
 * each answer closing its connection; then it takes no new connection, the rating that was in
 * flight all along (held by a slow language model) still answers 200, and the process exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type RecordedRequest } from '../../test-support/fake-llm-server';
import { runMain, type MainProcess } from '../../test-support/run-main';
import { createTestApp } from '../../test-support/test-app';
import { SERVER_RESTARTING } from '../plugins/draining';

const EMAIL = 'draining@example.com';
const LLM_DELAY_MS = 4_000;
const DRAIN_SECONDS = 1.5;

function rating(request: RecordedRequest): FakeReply {
  const prompt = ((request.body.messages ?? []) as Array<{ content?: string }>).map((m) => m.content ?? '').join('\n');
  const block = prompt.split('Questions:\n')[1]?.split('\n\n')[0] ?? '';
  const count = block.split('\n').filter((line) => /^\d+\. /.test(line)).length;
  const questions = Array.from({ length: count }, (_, i) => ({ number: i + 1, credits: [], feedback: 'Name the trade-offs.' }));
  return { content: JSON.stringify({ summary: 'Clear answers.', questions, improvements: ['Give an example.'] }) };
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a server told to stop drains, then finishes what is in flight', () => {
  let llm: FakeLlmServer;
  let server: MainProcess | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'draining-'));

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await llm?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 draining on /healthz, still serves requests, then refuses connections and lets the rating in flight finish', async () => {
    llm = await startFakeLlmServer();
    llm.setFallback({ decide: (request) => ({ delayMs: LLM_DELAY_MS, then: rating(request) }) });
    server = runMain({
      DATA_DIR: dataDir,
      ADMIN_SECRET: 'draining-secret-0123456789',
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'drain-model',
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
      DOG_IMAGE_API: 'off',
      LOG_LEVEL: 'warn',
    });
    const [, port] = await server.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const base = `http://127.0.0.1:${port}`;
    const json = { 'content-type': 'application/json', 'x-user-email': EMAIL };
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/user/login`, { method: 'POST', headers: json, body: JSON.stringify({ email: EMAIL }) })).status).toBe(200);
    const sets = (await (await fetch(`${base}/api/question-sets`)).json()) as Array<{ id: number; index: number }>;
    const setId = sets.find((s) => s.index === 1)?.id;
    const token = (await (await fetch(`${base}/interview/token?questionSetId=${setId}`, { headers: json })).json()) as {
      sessionId: string;
    };

    // A rating the language model takes LLM_DELAY_MS to write: in flight through the drain and the close.
    const transcripts = [
      { role: 'interviewer', transcript: 'What is a closure in JavaScript?' },
      { role: 'interviewee', transcript: 'A closure keeps the variables of its outer scope alive after the outer function returns.' },
    ];
    const inFlight = fetch(`${base}/interview/rate-transcript`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ transcripts, durationSeconds: 60, questionSetId: setId, sessionId: token.sessionId }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as { markdown?: string } }));
    await until('the rating to reach the language model', async () => (llm.requests.length > 0 ? true : null));

    const stoppedAt = Date.now();
    server.child.kill('SIGTERM');
    const health = await until('the health check to say draining', async () => {
      const answer = await fetch(`${base}/healthz`);
      return answer.status === 503 ? answer : null;
    });
    expect(await health.json()).toEqual({ status: 'draining' });
    // Draining: a request is still served, and its answer closes the connection.
    const during = await fetch(`${base}/api/question-sets`);
    expect(during.status).toBe(200);
    expect(during.headers.get('connection')).toBe('close');
    expect(Date.now() - stoppedAt).toBeLessThan(DRAIN_SECONDS * 1000);

    // Closed: no new connection is taken...
    await until('the server to stop taking connections', async () =>
      fetch(`${base}/healthz`).then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000);
    // ...and the rating that was in flight finishes, then the process exits cleanly.
    const rated = await inFlight;
    expect(rated.status).toBe(200);
    expect(rated.body.markdown).toContain('drain-model');
    expect(await server.exited).toBe(0);
  }, 90_000);
});

describe('a request that reaches a closing server', () => {
  it('is refused with a sentence (503) and its connection closed; the health check says draining', async () => {
    const t = await createTestApp({ database: 'pglite' });
    try {
      // As between the start of close() and the end of the requests in flight.
      t.app.appContext.lifecycle.state = 'closing';
      const refused = await t.app.inject({ method: 'GET', url: '/api/question-sets' });
      expect([refused.statusCode, refused.json(), refused.headers.connection]).toEqual([503, { error: SERVER_RESTARTING }, 'close']);
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect([health.statusCode, health.json()]).toEqual([503, { status: 'draining' }]);
    } finally {
      t.app.appContext.lifecycle.state = 'running';
      await t.close();
    }
  }, 120_000);
});
