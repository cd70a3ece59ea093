/**
 * One transcript per interview across a resume of an OpenAI voice call (docs/product-rules.md,
 * Reconnecting). Each call's supervisor stores its whole transcript at every line, so only the call
 * of the session's current token may write:
 * - on one server, a resume hangs up the call still running, after it stored what it heard;
 * - on two servers (PostgreSQL), the server that handles the resume cannot hang up the other's
 *   call itself: that call's later lines must not overwrite the continuation's transcript, and its
 *   server hangs it up once it sees the session's token changed (services/calls/registry.ts).
 * The local realtime peer stands in for OpenAI, werift peers for the browsers.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOffer, type TestOffer } from '../../test-support/realtime-peer/offer';
import { startRealtimePeer, type RealtimePeer } from '../../test-support/realtime-peer/server';
import { call, FIXTURE_SETS, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, postgresAvailable, type TestApp } from '../../test-support/test-app';
import type { Db } from '../db/client';
import { interviewSessions } from '../db/schema';
import { runningCall } from '../services/calls';
import type { OpenAiToken as Token } from '../../contract';

const QUESTIONS = FIXTURE_SETS[0]!.questions;

async function storedLines(db: Db, sessionId: string): Promise<string[]> {
  const [row] = await db.select({ turns: interviewSessions.turns }).from(interviewSessions).where(eq(interviewSessions.id, sessionId));
  return (row?.turns ?? []).map((entry) => entry.transcript);
}

/** A browser's call through `app`: the SDP answer accepted and the session created. */
async function connect(t: TestApp, token: Token, browser: TestOffer): Promise<void> {
  const answer = await t.app.inject({
    method: 'POST',
    url: token.sdpUrl,
    headers: { authorization: `Bearer ${token.client_secret.value}`, 'content-type': 'application/sdp' },
    payload: browser.sdp,
  });
  expect(answer.statusCode).toBe(201);
  await browser.accept(answer.body);
  await expect.poll(() => browser.events.some((e) => e.type === 'session.created'), { timeout: 30_000 }).toBe(true);
}

/** The browser asks for the interviewer's next turn and waits until it is spoken and `t`'s call heard it. */
async function nextLine(t: TestApp, sessionId: string, browser: TestOffer, lines: number): Promise<void> {
  const done = () => browser.events.filter((e) => e.type === 'response.done').length;
  const before = done();
  browser.channel.send(JSON.stringify({ type: 'response.create' }));
  await expect.poll(done, { timeout: 30_000 }).toBe(before + 1);
  await expect.poll(() => runningCall(t.app.appContext, sessionId)?.transcript.length ?? 0, { timeout: 15_000 }).toBe(lines);
  await runningCall(t.app.appContext, sessionId)?.settled();
}

const appConfig = (peer: RealtimePeer) => ({
  openaiApiKey: 'test-key',
  openaiBaseUrl: peer.baseUrl,
  realtimeModel: 'gpt-realtime-2.1-mini',
});

// WebRTC handshakes in this process: on a crowded machine they take tens of seconds.
describeDatabases('a resume while the old call still runs on the same server', (database) => {
  let peer: RealtimePeer;
  let t: TestApp;

  beforeAll(async () => {
    peer = await startRealtimePeer();
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: appConfig(peer) });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('hangs the old call up, keeps its lines and continues from them', { timeout: 120_000 }, async () => {
    const email = 'resume-same-server@example.com';
    const minted = await startInterview<Token>(t.app, email);
    const first = await makeOffer();
    const second = await makeOffer();
    try {
      await connect(t, minted, first);
      await nextLine(t, minted.sessionId, first, 1);
      const oldCall = peer.calls.at(-1)!.id;

      const resumed = await call<Token>(t.app, 'POST', `/interview/sessions/${minted.sessionId}/resume`, { email });
      expect(resumed.status).toBe(200);
      expect(runningCall(t.app.appContext, minted.sessionId)).toBeUndefined();
      await expect.poll(() => peer.hangups).toContain(oldCall);
      expect(await storedLines(t.db, minted.sessionId)).toEqual([`Hello and welcome to your practice interview. ${QUESTIONS[0]}`]);

      await connect(t, resumed.body, second);
      await nextLine(t, minted.sessionId, second, 2);
      expect(await storedLines(t.db, minted.sessionId)).toEqual([
        `Hello and welcome to your practice interview. ${QUESTIONS[0]}`,
        `Welcome back. ${QUESTIONS[0]}`,
      ]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe.skipIf(!postgresAvailable)('a resume handled by another server while the old call still runs [postgres]', () => {
  let peer: RealtimePeer;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    peer = await startRealtimePeer();
    a = await createTestApp({ database: 'postgres', questionSets: FIXTURE_SETS, config: appConfig(peer) });
    b = await createTestApp({ database: 'postgres', postgresUrl: a.databaseUrl, questionSets: FIXTURE_SETS, config: appConfig(peer) });
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await peer?.close();
  });

  it("the old call's later lines do not overwrite the continuation's transcript", { timeout: 120_000 }, async () => {
    const email = 'resume-other-server@example.com';
    const minted = await startInterview<Token>(a.app, email);
    const first = await makeOffer();
    const second = await makeOffer();
    try {
      await connect(a, minted, first);
      await nextLine(a, minted.sessionId, first, 1);

      // Server B takes the resume and the continuation; server A cannot hang its call up at once.
      const oldCallId = peer.calls.at(-1)?.id;
      const resumed = await call<Token>(b.app, 'POST', `/interview/sessions/${minted.sessionId}/resume`, { email });
      expect(resumed.status).toBe(200);
      await connect(b, resumed.body, second);
      await nextLine(b, minted.sessionId, second, 2);
      const continued = [`Hello and welcome to your practice interview. ${QUESTIONS[0]}`, `Welcome back. ${QUESTIONS[0]}`];
      expect(await storedLines(b.db, minted.sessionId)).toEqual(continued);

      // Server A sees that its call's token is no longer the session's and hangs it up (one token,
      // one call); whatever it said meanwhile was never stored over the continuation's transcript.
      await expect.poll(() => runningCall(a.app.appContext, minted.sessionId), { timeout: 15_000 }).toBeUndefined();
      await expect.poll(() => peer.hangups, { timeout: 15_000 }).toContain(oldCallId);
      expect(await storedLines(b.db, minted.sessionId)).toEqual(continued);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
