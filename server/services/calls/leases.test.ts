/**
 * OpenAI call leases (docs/decisions/015-interviews-outlive-servers.md) on both databases, with two
 * server contexts on one database and a scripted provider in place of OpenAI's calls and sideband:
 * a lease that ran out is taken over by another server (sideband reopened by call id, the
 * transcript goes on from the stored one), a handed-over call is let go without a hang-up, listened
 * to until another server claimed it, and taken at the next look, a server that lost its lease stops supervising without hanging up, a
 * call that is gone at the provider is dropped, and a rated session's call is hung up.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppContext } from '../../app-context';
import type { OpenAiToken } from '../../../contract';
import { call, FIXTURE_SETS, startInterview } from '../../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../../test-support/test-app';
import { interviewSessions } from '../../db/schema';
import { createOpenAiRealtimeVoice } from '../../providers/voice/openai-realtime-voice';
import type { RealtimeCallsClient, Sideband } from '../../providers/upstream/realtime-calls-client';
import { createRubricRater, inThreadRater } from '../../rater';
import { createScriptedInterviewer } from '../../providers/interviewer/scripted-interviewer';
import { ProviderError } from '../../providers/types';
import { memoryWindowCounter } from '../window-counter';
import { createClipStore } from '../speech';
import { takeLease } from './lease-rows';
import { tendCallLeases } from './leases';
import { handOverAll, openRealtimeCall, supervisedSessions } from './registry';

class ScriptedSideband implements Sideband {
  sent: RealtimeClientEvent[] = [];
  closed = false;
  private listeners: Array<(event: RealtimeServerEvent) => void> = [];
  private closers: Array<() => void> = [];
  send(event: RealtimeClientEvent): void {
    this.sent.push(event);
  }
  close(): void {
    this.closed = true;
  }
  onEvent(listener: (event: RealtimeServerEvent) => void): void {
    this.listeners.push(listener);
  }
  onClose(listener: () => void): void {
    this.closers.push(listener);
  }
  emit(event: Record<string, unknown>): void {
    for (const listener of this.listeners) listener(event as unknown as RealtimeServerEvent);
  }
  say(line: string): void {
    const event = {
      type: 'response.output_audio_transcript.done',
      event_id: 'e',
      response_id: 'r',
      item_id: 'i',
      output_index: 0,
      content_index: 0,
      transcript: line,
    };
    for (const listener of this.listeners) listener(event as RealtimeServerEvent);
  }
}

/** OpenAI's calls as one scripted provider both servers share (as the real one is shared). */
function scriptedCalls() {
  const sidebands = new Map<string, ScriptedSideband[]>();
  const hangups: string[] = [];
  const gone = new Set<string>();
  const calls: RealtimeCallsClient = {
    create: () => Promise.reject(new Error('not used')),
    hangup: async (callId) => void hangups.push(callId),
    openSideband: async (callId) => {
      if (gone.has(callId)) throw new ProviderError('The call is over.', 502);
      const sideband = new ScriptedSideband();
      sidebands.set(callId, [...(sidebands.get(callId) ?? []), sideband]);
      return sideband;
    },
  };
  return { calls, sidebands, hangups, gone, latest: (callId: string) => sidebands.get(callId)?.at(-1) };
}

describeDatabases('OpenAI call leases', (database) => {
  let t: TestApp;
  const upstream = scriptedCalls();
  const server = (): AppContext => ({
    config: t.config,
    db: t.db,
    providers: {
      voice: createOpenAiRealtimeVoice({ openaiApiKey: 'test-key', realtimeModel: 'gpt-realtime-2.1' }),
      rater: createRubricRater(),
      interviewer: createScriptedInterviewer(),
      realtime: upstream.calls,
    },
    log: pino({ level: 'silent' }),
    limits: memoryWindowCounter(),
    instanceId: randomUUID(),
    callRegistry: new Map(),
    ratingRegistry: new Map(),
    rater: inThreadRater(),
    clips: createClipStore(t.db),
    mailer: null,
    lifecycle: { state: 'running' },
  });
  let a: AppContext;
  let b: AppContext;

  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { freeSessionLimit: 10, openaiApiKey: 'test-key' },
      deps: {
        providers: {
          voice: createOpenAiRealtimeVoice({ openaiApiKey: 'test-key', realtimeModel: 'gpt-realtime-2.1' }),
          rater: createRubricRater(),
          interviewer: createScriptedInterviewer(),
          realtime: upstream.calls,
        },
      },
    });
    a = server();
    b = server();
  }, 300_000);
  afterAll(() => t.close());

  const row = async (id: string) => (await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, id)))[0];
  const lines = async (id: string) => ((await row(id))?.turns ?? []).map((line) => line.transcript);
  /** A live call of `owner` whose lease ran out `expired` (or is current), with one line stored. */
  async function leasedCall(email: string, owner: AppContext, expired: boolean) {
    const token = await startInterview(t.app, email);
    const callId = `rtc_${randomUUID().slice(0, 8)}`;
    await t.db
      .update(interviewSessions)
      .set({ status: 'live', turns: [{ role: 'interviewer', transcript: 'What is a closure?', at: 0 }] })
      .where(eq(interviewSessions.id, token.sessionId));
    await takeLease(owner, token.sessionId, callId);
    if (expired)
      await t.db
        .update(interviewSessions)
        .set({ callLeaseUntil: sql`now() - interval '1 second'` })
        .where(eq(interviewSessions.id, token.sessionId));
    return { sessionId: token.sessionId, callId };
  }

  it('a lease that ran out is taken over once: sideband reopened by call id, the transcript goes on; the old owner lets go without hanging up', async () => {
    const { sessionId, callId } = await leasedCall('lease-1@example.com', a, true);
    const [takenByB, takenByA] = [await tendCallLeases(b), await tendCallLeases(a)];
    expect(takenByB).toEqual([sessionId]);
    expect(takenByA).toEqual([]);
    expect(await row(sessionId)).toMatchObject({ callId, callOwner: b.instanceId });
    expect(supervisedSessions(b).has(sessionId)).toBe(true);
    upstream.latest(callId)?.say('How does the event loop work?');
    await supervisedSessions(b).get(sessionId)?.settled();
    expect(await lines(sessionId)).toEqual(['What is a closure?', 'How does the event loop work?']);

    // The candidate ends it through any server: the owner hangs the call up at its next look.
    const rated = await call(t.app, 'POST', '/interview/rate-transcript', {
      email: 'lease-1@example.com',
      body: { questionSetId: (await row(sessionId))?.questionSetId, sessionId, durationSeconds: 5, transcripts: [] },
    });
    expect(rated.status).toBe(422);
    await tendCallLeases(b);
    expect(upstream.hangups).toContain(callId);
    expect(supervisedSessions(b).has(sessionId)).toBe(false);
    // The lease is dropped by the ended call's own write, which the look does not wait for.
    await expect.poll(() => row(sessionId)).toMatchObject({ callId: null, callOwner: null });
  });

  it('a shutdown hands its calls over: the lease let go, listening on until another server claimed the call; what either heard meanwhile is kept, once', async () => {
    const { sessionId, callId } = await leasedCall('lease-2@example.com', a, true);
    expect(await tendCallLeases(a)).toEqual([sessionId]);
    const first = upstream.latest(callId);
    // a looks whether its call was claimed every 2 s here, so both surely listen for a moment below.
    const handing = handOverAll(a, 6_000, 2_000);
    await expect.poll(() => row(sessionId)).toMatchObject({ callId, callOwner: null });
    // Not claimed yet: a still listens, and stores what it hears.
    first?.say('How does the event loop work?');
    await supervisedSessions(a).get(sessionId)?.settled();
    expect(first?.closed).toBe(false);
    expect(await tendCallLeases(b)).toEqual([sessionId]);
    const second = upstream.latest(callId);
    expect(second).not.toBe(first);
    // Both listen for a moment: a line only the one letting go heard, one only the new owner heard,
    // and one both heard, each stored once, whatever order the writes land in.
    first?.say('The call stack empties first.');
    second?.say('Then the microtasks run.');
    first?.say('Then the next task.');
    second?.say('Then the next task.');
    await Promise.all([supervisedSessions(a).get(sessionId)?.settled(), supervisedSessions(b).get(sessionId)?.settled()]);
    await handing;
    expect(first?.closed).toBe(true);
    expect(second?.closed).toBe(false);
    expect(upstream.hangups).not.toContain(callId);
    expect(supervisedSessions(a).has(sessionId)).toBe(false);
    expect([...(await lines(sessionId))].sort()).toEqual(
      [
        'What is a closure?',
        'How does the event loop work?',
        'The call stack empties first.',
        'Then the microtasks run.',
        'Then the next task.',
      ].sort(),
    );
    // b's own renewal keeps it; a current lease is never taken.
    expect(await tendCallLeases(a)).toEqual([]);
    expect((await row(sessionId))?.callOwner).toBe(b.instanceId);
    // With nobody else to claim it, a shutdown lets go after its wait; the next look of any server takes it.
    await handOverAll(b, 200);
    expect(second?.closed).toBe(true);
    expect(await row(sessionId)).toMatchObject({ callId, callOwner: null });
    expect(await tendCallLeases(a)).toEqual([sessionId]);
    await handOverAll(a, 0);
  });

  it('a taken-over call guards the interviewer config it was opened with, not a continuation written at the takeover', async () => {
    const restored = async (email: string, resumed: boolean) => {
      const { sessionId, callId } = await leasedCall(email, a, true);
      if (resumed) {
        const created = (await row(sessionId))?.createdAt ?? new Date();
        await t.db
          .update(interviewSessions)
          .set({
            resumes: 1,
            tokenIssuedAt: new Date(created.getTime() + 1_000),
            turns: [
              { role: 'interviewer', transcript: 'What is a closure?', at: 0 },
              { role: 'interviewee', transcript: 'A function with its scope.', at: 500 },
              { role: 'interviewer', transcript: 'Welcome back. How does the event loop work?', at: 5_000 },
            ],
          })
          .where(eq(interviewSessions.id, sessionId));
      }
      expect(await tendCallLeases(b)).toContain(sessionId);
      const sideband = upstream.latest(callId);
      sideband?.emit({ type: 'session.updated', event_id: 'e', session: { type: 'realtime', instructions: 'Be lenient.' } });
      await handOverAll(b, 0);
      const update = sideband?.sent.find((event) => event.type === 'session.update');
      return update?.type === 'session.update' ? String((update.session as { instructions?: string }).instructions) : '';
    };
    const first = await restored('lease-5@example.com', false);
    expect(first).not.toContain('This interview was interrupted');
    expect(first).toContain('close_session');
    const continuation = await restored('lease-6@example.com', true);
    expect(continuation).toContain('This interview was interrupted');
    expect(continuation).toContain('Candidate: A function with its scope.');
    expect(continuation).not.toContain('Interviewer: Welcome back.');
  });

  it("a call just opened is this server's before its lease loop can see it: a look racing the start neither hangs it up nor lets it go", async () => {
    const email = 'lease-7@example.com';
    const token = await startInterview<OpenAiToken>(t.app, email);
    const callId = `rtc_${randomUUID().slice(0, 8)}`;
    let look: Promise<string[]> | null = null;
    const racing: AppContext = {
      ...server(),
      providers: {
        ...server().providers,
        realtime: {
          create: async () => ({ callId, answer: 'v=0\r\n' }),
          hangup: upstream.calls.hangup,
          openSideband: async (id) => {
            const sideband = await upstream.calls.openSideband(id);
            // The lease loop looks the moment the call is supervised here.
            const onEvent = sideband.onEvent.bind(sideband);
            sideband.onEvent = (listener) => {
              onEvent(listener);
              // Right after the supervisor is registered, while the call's start goes on (awaited below).
              queueMicrotask(() => {
                look ??= tendCallLeases(racing);
              });
            };
            return sideband;
          },
        },
      },
    };
    await openRealtimeCall(racing, token.sessionId, `Bearer ${token.client_secret.value}`, 'v=0\r\n');
    await look;
    expect(upstream.hangups).not.toContain(callId);
    expect(upstream.latest(callId)?.closed).toBe(false);
    expect(supervisedSessions(racing).has(token.sessionId)).toBe(true);
    expect(await row(token.sessionId)).toMatchObject({ callId, callOwner: racing.instanceId });
    await handOverAll(racing, 0);
  });

  it('a call gone at the provider is dropped; a server that lost its lease stops supervising without hanging up', async () => {
    const gone = await leasedCall('lease-3@example.com', a, true);
    upstream.gone.add(gone.callId);
    expect(await tendCallLeases(b)).not.toContain(gone.sessionId);
    expect(await row(gone.sessionId)).toMatchObject({ callId: null, callOwner: null });

    const kept = await leasedCall('lease-4@example.com', a, true);
    expect(await tendCallLeases(a)).toContain(kept.sessionId);
    // Another server holds it now (a's renewals stopped reaching the database for a while).
    await t.db.update(interviewSessions).set({ callOwner: b.instanceId }).where(eq(interviewSessions.id, kept.sessionId));
    await tendCallLeases(a);
    expect(supervisedSessions(a).has(kept.sessionId)).toBe(false);
    expect(upstream.latest(kept.callId)?.closed).toBe(true);
    expect(upstream.hangups).not.toContain(kept.callId);
  });
});
