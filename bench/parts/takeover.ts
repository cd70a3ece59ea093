/**
 * Takeover: what a candidate loses when a server of a group stops (README, Running several
 * servers). Two real server processes on one PostgreSQL database.
 *
 * - OpenAI calls: a call is opened through server A (the local stand-in for the OpenAI calls API,
 *   test-support/fake-realtime-server.ts), A is stopped (SIGTERM: it hands the call over; SIGKILL:
 *   its lease runs out), and the time from the signal to server B reopening the call's sideband is
 *   the takeover time. The stretch in which nobody listened (A's sideband closed, B's not open yet;
 *   lines said then are not in the transcript) is measured too: A stopped with SIGTERM listens
 *   until B has claimed the call, so it should be none.
 * - Turn-taking sessions (browser speech) through HAProxy (the README's recipe): a candidate sends
 *   a typed answer every TURN_GAP_MS while one server is stopped; a request that fails is sent
 *   again after RETRY_MS (as the app's resume does). The longest pause is the longest time from
 *   sending an answer to having the interviewer's reply.
 */
import { freePort, startHaproxy } from '../../e2e/support/haproxy';
import { createPostgresDatabase } from '../../test-support/postgres';
import { startServer, type RunningServer } from '../../test-support/server-process';
import { startFakeRealtimeServer, type FakeRealtimeServer } from '../../test-support/fake-realtime-server';
import type { BrowserSpeechToken, OpenAiToken } from '../../contract';

const OFFER = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
const TURN_GAP_MS = 100;
const RETRY_MS = 250;
const DRAIN_SECONDS = 1;

type Signal = 'SIGTERM' | 'SIGKILL';

export interface TakeoverResult {
  rounds: number;
  calls: Record<Signal, number[]>;
  /** Per run: from server A's sideband closing to server B's opening (0 when B opened first: someone always listened). */
  unheard: Record<Signal, number[]>;
  turns: Record<Signal, Array<{ longestPauseMs: number; failedRequests: number; answers: number }>>;
  drainSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | null | Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function json<T>(url: string, init: { method?: string; email?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (init.email) headers['x-user-email'] = init.email;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

async function firstSetId(base: string): Promise<number> {
  const sets = (await json<Array<{ id: number; index: number }>>(`${base}/api/question-sets`)).body;
  const id = sets.find((s) => s.index === 1)?.id;
  if (id === undefined) throw new Error('no question set with index 1');
  return id;
}

async function stopWith(server: RunningServer, signal: Signal): Promise<void> {
  if (signal === 'SIGKILL') process.kill(server.pid, 'SIGKILL');
  await server.stop();
}

async function callTakeovers(rounds: number, log: (line: string) => void): Promise<Pick<TakeoverResult, 'calls' | 'unheard'>> {
  const database = await createPostgresDatabase();
  const upstream: FakeRealtimeServer = await startFakeRealtimeServer();
  const env = {
    DATABASE_URL: database.url,
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: upstream.baseUrl,
    FREE_SESSION_LIMIT: '1000',
    DOG_IMAGE_API: 'off',
    LOG_LEVEL: 'warn',
  };
  let a = await startServer({ env });
  const b = await startServer({ env });
  const result: TakeoverResult['calls'] = { SIGTERM: [], SIGKILL: [] };
  const unheard: TakeoverResult['unheard'] = { SIGTERM: [], SIGKILL: [] };
  try {
    const setId = await firstSetId(a.url);
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      for (let round = 0; round < rounds; round++) {
        const email = `takeover-${signal}-${round}@example.com`;
        await json(`${a.url}/user/login`, { body: { email } });
        const token = (await json<OpenAiToken>(`${a.url}/interview/token?questionSetId=${setId}`, { email })).body;
        const offer = await fetch(`${a.url}${token.sdpUrl}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.client_secret.value}`, 'content-type': 'application/sdp' },
          body: OFFER,
        });
        if (offer.status !== 201) throw new Error(`the call did not open: ${offer.status} ${await offer.text()}`);
        const callId = upstream.calls.at(-1) ?? '';
        const opens = () => upstream.sidebandOpens.filter((open) => open.callId === callId);
        await until('server A to open the sideband', () => (opens().length > 0 ? true : null));
        const stoppedAt = performance.now();
        await stopWith(a, signal);
        const reopened = await until('server B to take the call over', () => opens()[1] ?? null).catch((error: unknown) => {
          log(`server B said:\n${b.output().slice(-3000)}\nserver A said:\n${a.output().slice(-2000)}`);
          throw error;
        });
        const ms = reopened.at - stoppedAt;
        result[signal].push(ms);
        const closed = await until("server A's sideband to close", () => upstream.sidebandCloses.find((c) => c.callId === callId) ?? null);
        unheard[signal].push(Math.max(0, reopened.at - closed.at));
        log(
          `  OpenAI call, ${signal}: taken over after ${(ms / 1000).toFixed(1)} s; nobody listened for ${(Math.max(0, reopened.at - closed.at) / 1000).toFixed(1)} s`,
        );
        a = await startServer({ env });
      }
    }
  } finally {
    await a.stop();
    await b.stop();
    await upstream.close();
    await database.drop();
  }
  return { calls: result, unheard };
}

async function turnPauses(rounds: number, log: (line: string) => void): Promise<TakeoverResult['turns']> {
  const database = await createPostgresDatabase();
  const ports = { a: await freePort(), b: await freePort() };
  const env = (port: number) => ({
    PORT: String(port),
    DATABASE_URL: database.url,
    TRUST_PROXY: '127.0.0.1',
    SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
    FREE_SESSION_LIMIT: '1000',
    VOICE_MODE: 'browser',
    // One client address (the balancer's) mints and answers far more often than a person would.
    TOKEN_RATE_LIMIT: '10000',
    TURN_RATE_LIMIT: '10000',
    TURN_ACCOUNT_RATE_LIMIT: '10000',
    LOGIN_RATE_LIMIT: '10000',
    DOG_IMAGE_API: 'off',
    LOG_LEVEL: 'warn',
  });
  const servers: Record<'a' | 'b', RunningServer> = {
    a: await startServer({ env: env(ports.a) }),
    b: await startServer({ env: env(ports.b) }),
  };
  const balancer = await startHaproxy([
    { name: 'a', port: ports.a },
    { name: 'b', port: ports.b },
  ]);
  const result: TakeoverResult['turns'] = { SIGTERM: [], SIGKILL: [] };
  try {
    const setId = await firstSetId(balancer.url);
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      for (let round = 0; round < rounds; round++) {
        const victim: 'a' | 'b' = round % 2 === 0 ? 'a' : 'b';
        const email = `pause-${signal}-${round}@example.com`;
        await json(`${balancer.url}/user/login`, { body: { email } });
        let failed = 0;
        /** One request as a candidate's app makes it: sent again after RETRY_MS until it gets an answer. */
        const persist = async <T>(send: () => Promise<{ status: number; body: T }>): Promise<{ status: number; body: T; ms: number }> => {
          const started = performance.now();
          for (;;) {
            const answer = await send().catch(() => null);
            if (answer && answer.status < 500) return { ...answer, ms: performance.now() - started };
            failed++;
            await sleep(RETRY_MS);
          }
        };
        const mint = async () => {
          const token = await persist(() => json<BrowserSpeechToken>(`${balancer.url}/interview/token?questionSetId=${setId}`, { email }));
          if (token.status !== 200) throw new Error(`no session: ${token.status} ${JSON.stringify(token.body)}`);
          return token.body.client_secret.value;
        };
        let session = await mint();
        await persist(() => json(`${balancer.url}/interview/turn`, { email, body: { sessionToken: session } }));
        let longest = 0;
        let answers = 0;
        const endAt = performance.now() + 6_000;
        let stopping: Promise<void> | null = null;
        while (performance.now() < endAt) {
          if (!stopping && performance.now() > endAt - 5_000) stopping = stopWith(servers[victim], signal);
          const turn = await persist(() =>
            json<{ closeSession: unknown }>(`${balancer.url}/interview/turn`, {
              email,
              body: { sessionToken: session, utterance: 'A closure keeps the variables of its outer scope alive.' },
            }),
          );
          answers++;
          longest = Math.max(longest, turn.ms);
          // A closed (or full) session: the candidate starts the next one.
          if (turn.status !== 200 || turn.body.closeSession) {
            session = await mint();
            await persist(() => json(`${balancer.url}/interview/turn`, { email, body: { sessionToken: session } }));
          }
          await sleep(TURN_GAP_MS);
        }
        await stopping;
        result[signal].push({ longestPauseMs: longest, failedRequests: failed, answers });
        log(
          `  turns through HAProxy, ${signal} of ${victim}: longest pause ${longest.toFixed(0)} ms, ${failed} failed requests, ${answers} answers`,
        );
        servers[victim] = await startServer({ env: env(ports[victim]) });
        // rise 2 × inter 500 ms: back in the balancer's rotation.
        await sleep(1_500);
      }
    }
  } finally {
    await balancer.stop();
    await servers.a.stop();
    await servers.b.stop();
    await database.drop();
  }
  return result;
}

export async function runTakeover(log: (line: string) => void, rounds: number): Promise<TakeoverResult> {
  const { calls, unheard } = await callTakeovers(rounds, log);
  const turns = await turnPauses(rounds, log);
  return { rounds, calls, unheard, turns, drainSeconds: DRAIN_SECONDS };
}
