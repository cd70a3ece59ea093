import { describe, expect, it } from 'vitest';
import type { LiveSession, TokenResponse } from '../../../../contract';
import { TurnFailedError } from '../../lib/voice/turn-failure';
import {
  CONNECTION_LOST_CHOICE,
  CONTINUING_NOTICE,
  RECONNECT_FAILED_CHOICE,
  RECONNECTING_NOTICE,
  ResumeRefusedError,
} from './session-controller';
import { harness, ScriptedTransport, settle, token } from './fixtures/session-harness';
import { createSessionMemory } from './session-memory';

/** The tab's session storage as a reload leaves it: what one page wrote, the next one reads. */
function tabStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('session controller: a dropped connection (docs/product-rules.md, Session lifecycle: Reconnecting)', () => {
  it('a dropped connection reconnects once by itself: same session, transcript kept, one rating', async () => {
    const second = new ScriptedTransport(false);
    const resumed: string[] = [];
    const h = harness({
      later: [second],
      resumeSession: async (id) => {
        resumed.push(id);
        return { ...token, client_secret: { value: 'secret-2', expires_at: 2_000_000_000 } };
      },
    });
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'interviewer', text: 'What is a closure?', at: 10 });
    h.transport.emit({ type: 'failed', message: 'The connection to the voice service was lost.', reconnectable: true });
    expect(h.controller.getSnapshot()).toMatchObject({
      phase: 'interrupted',
      reconnect: { trying: true, message: RECONNECTING_NOTICE, canRetry: true },
    });
    await settle();
    await settle();
    expect(resumed).toEqual(['sess-1']);
    expect(h.transport.closed).toBe(1);
    expect(second.listener).not.toBeNull();
    expect(h.controller.getSnapshot()).toMatchObject({ phase: 'active', reconnect: null });
    second.emit({ type: 'candidate', text: 'A function with its scope.', at: 20 });
    // A second drop is not reconnected by itself: the choice is offered, nothing is rated yet.
    second.emit({ type: 'failed', message: 'The connection to the voice service was lost.', reconnectable: true });
    await settle();
    expect(resumed).toHaveLength(1);
    expect(h.controller.getSnapshot()).toMatchObject({
      phase: 'interrupted',
      reconnect: { trying: false, message: CONNECTION_LOST_CHOICE, canRetry: true },
    });
    expect(h.rated).toHaveLength(0);
    // Ending from the choice rates everything said in both connections, once.
    await h.controller.stop();
    expect(h.rated).toHaveLength(1);
    expect(h.rated[0]!.transcripts.map((t) => t.transcript)).toEqual(['What is a closure?', 'A function with its scope.']);
    expect(h.rated[0]!.sessionId).toBe('sess-1');
    expect(h.controller.getSnapshot()).toMatchObject({ phase: 'disconnected', reconnect: null });
  });

  it('when the automatic reconnect fails, Reconnect tries again and the interview goes on', async () => {
    const second = new ScriptedTransport(false);
    let calls = 0;
    const h = harness({
      later: [second],
      resumeSession: async () => {
        calls++;
        if (calls === 1) throw new Error('Failed to fetch');
        return { ...token, client_secret: { value: 'secret-2', expires_at: 2_000_000_000 } };
      },
    });
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'interviewer', text: 'What is a closure?', at: 10 });
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    await settle();
    expect(h.controller.getSnapshot()).toMatchObject({
      phase: 'interrupted',
      reconnect: { trying: false, message: RECONNECT_FAILED_CHOICE, canRetry: true },
    });
    expect(h.logs.some((l) => l.level === 'error' && l.text === 'Reconnecting failed: Failed to fetch')).toBe(true);
    expect(h.rated).toHaveLength(0);
    h.controller.reconnect();
    h.controller.reconnect(); // a double press while trying does nothing more
    expect(h.controller.getSnapshot().reconnect?.trying).toBe(true);
    await settle();
    await settle();
    expect(calls).toBe(2);
    expect(h.controller.getSnapshot()).toMatchObject({ phase: 'active', reconnect: null });
    second.emit({ type: 'candidate', text: 'It keeps its scope.', at: 30 });
    await h.controller.stop();
    expect(h.rated[0]!.transcripts.map((t) => t.transcript)).toEqual(['What is a closure?', 'It keeps its scope.']);
  });

  it("a resume the server refuses shows the server's sentence and leaves only ending", async () => {
    const refusal = 'This interview has already been reconnected 2 times. Please start a new session.';
    const h = harness({ resumeSession: () => Promise.reject(new ResumeRefusedError(refusal)) });
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'candidate', text: 'Something.', at: 5 });
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    await settle();
    expect(h.controller.getSnapshot()).toMatchObject({
      phase: 'interrupted',
      reconnect: { trying: false, message: refusal, canRetry: false },
    });
    h.controller.reconnect();
    expect(h.controller.getSnapshot().reconnect?.trying).toBe(false);
    await h.controller.stop();
    expect(h.rated).toHaveLength(1);
  });

  it('ending while a reconnect is under way drops what the reconnect opens', async () => {
    const second = new ScriptedTransport(false);
    let answer: (t: TokenResponse) => void = () => {};
    const h = harness({ later: [second], resumeSession: () => new Promise<TokenResponse>((resolve) => (answer = resolve)) });
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'candidate', text: 'Something.', at: 5 });
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    await h.controller.stop();
    answer(token);
    await settle();
    expect(second.listener).toBeNull();
    expect(h.controller.getSnapshot().phase).toBe('disconnected');
    expect(h.rated).toHaveLength(1);
  });

  it('a browser-speech answer that got no reply before the drop goes to the continuation, once', async () => {
    const second = new ScriptedTransport(true);
    const third = new ScriptedTransport(true);
    const h = harness({ typed: true, later: [second, third], resumeSession: async () => token });
    await h.controller.start({ id: 7 });
    expect(h.transport.startOptions).toBeUndefined();
    h.transport.emit({ type: 'candidate', text: 'My answer.', at: 5 });
    h.transport.emit({ type: 'failed', message: 'offline', reconnectable: true, pendingAnswer: 'My answer.' });
    await settle();
    await settle();
    expect(second.startOptions).toEqual({ resumed: { pendingAnswer: 'My answer.' } });
    expect(h.controller.getSnapshot()).toMatchObject({ phase: 'active', acceptsTypedAnswers: true });
    second.emit({ type: 'failed', message: 'offline', reconnectable: true });
    h.controller.reconnect();
    await settle();
    await settle();
    expect(third.startOptions).toEqual({ resumed: {} });
    expect(h.controller.getSnapshot().transcript.map((e) => e.transcript)).toEqual(['My answer.']);
  });

  it("the new connection's first turn refused by the server (a 4xx sentence) is final; a failure that did not get through can be retried", async () => {
    const refused = new ScriptedTransport(true, () =>
      Promise.reject(new TurnFailedError('This interview session has already finished. Please start a new session.', false)),
    );
    const h = harness({ typed: true, later: [refused], resumeSession: async () => token });
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'failed', message: 'offline', reconnectable: true });
    await settle();
    await settle();
    expect(h.controller.getSnapshot().reconnect).toEqual({
      trying: false,
      message: 'This interview session has already finished. Please start a new session.',
      canRetry: false,
    });

    const flaky = new ScriptedTransport(true, () =>
      Promise.reject(new TurnFailedError('The interviewer could not be reached. Please try again in a moment.', true)),
    );
    const g = harness({ typed: true, later: [flaky], resumeSession: async () => token });
    await g.controller.start({ id: 7 });
    g.transport.emit({ type: 'failed', message: 'offline', reconnectable: true });
    await settle();
    await settle();
    expect(g.controller.getSnapshot().reconnect).toEqual({ trying: false, message: RECONNECT_FAILED_CHOICE, canRetry: true });
  });

  it('leaving for History while interrupted still submits what was said, once', async () => {
    const h = harness({ resumeSession: () => new Promise<TokenResponse>(() => undefined) });
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'candidate', text: 'Something.', at: 5 });
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    expect(h.controller.getSnapshot().phase).toBe('interrupted');
    h.controller.dispose();
    await settle();
    expect(h.rated).toHaveLength(1);
    expect(h.rated[0]!.transcripts.map((t) => t.transcript)).toEqual(['Something.']);
  });

  describe('an interview an earlier page left open (Leaving and coming back)', () => {
    const live: LiveSession = {
      sessionId: 'sess-live',
      questionSetId: 9,
      topic: 'JavaScript',
      transport: 'browser-speech',
      startedAt: '2026-11-27T05:00:00.000Z',
      elapsedSeconds: 120,
      transcript: [
        { role: 'interviewer', transcript: 'What is a closure?', at: 0 },
        { role: 'interviewee', transcript: 'A function with its scope.', at: 30_000 },
        { role: 'interviewer', transcript: 'How does the event loop work?', at: 31_000 },
      ],
      canContinue: true,
    };

    it('continues the same session through resume, no token minted, the stored transcript kept, one rating of all', async () => {
      const resumed: string[] = [];
      const h = harness({
        typed: true,
        fetchToken: () => Promise.reject(new Error('no new token expected')),
        resumeSession: (id) => {
          resumed.push(id);
          expect(h.controller.getSnapshot().reconnect?.message).toBe(CONTINUING_NOTICE);
          return Promise.resolve({ ...token, sessionId: id });
        },
      });
      await h.controller.continueLive(live);
      expect(resumed).toEqual(['sess-live']);
      const snapshot = h.controller.getSnapshot();
      expect(snapshot.phase).toBe('active');
      expect(snapshot.interviewerMessages).toEqual(['What is a closure?', 'How does the event loop work?']);
      expect(h.transport.startOptions).toEqual({ resumed: {} });
      // The session's clock goes on from when it began.
      expect(h.transport.startedAt).toBe(1000 - 120_000);
      h.transport.emit({ type: 'candidate', text: 'Tasks, then microtasks.', at: 125_000 });
      h.clock.now += 5000;
      await h.controller.stop();
      expect(h.rated).toHaveLength(1);
      expect(h.rated[0]).toMatchObject({
        sessionId: 'sess-live',
        questionSetId: 9,
        durationSeconds: 125,
        endReason: 'stopped-by-candidate',
      });
      expect(h.rated[0]!.transcripts.map((t) => t.transcript)).toEqual([
        'What is a closure?',
        'A function with its scope.',
        'How does the event loop work?',
        'Tasks, then microtasks.',
      ]);
    });

    it('after a reload, Continue brings back the unsent typed answer and the line heard; sending or ending clears them', async () => {
      const storage = tabStorage();
      const memory = createSessionMemory(() => storage);
      // The first page: the last line was heard to its end, an answer half typed, then the reload.
      const before = harness({ typed: true, memory, fetchToken: () => Promise.resolve({ ...token, sessionId: 'sess-live' }) });
      await before.controller.start({ id: 9 });
      before.transport.emit({ type: 'interviewer', text: 'How does the event loop work?', at: 31_000 });
      before.transport.emit({ type: 'heard', text: 'How does the event loop work?' });
      before.controller.saveDraft('It runs tasks from a qu');

      const after = harness({ typed: true, memory, resumeSession: (id) => Promise.resolve({ ...token, sessionId: id }) });
      await after.controller.continueLive(live);
      expect(after.transport.startOptions).toEqual({ resumed: { heard: 'How does the event loop work?' } });
      expect(after.controller.draft()).toBe('It runs tasks from a qu');
      // Another session of the tab has nothing of it.
      expect(memory.read('sess-other')).toEqual({});

      after.controller.saveDraft('It runs tasks from a queue.');
      expect(after.controller.sendText('It runs tasks from a queue.')).toBe(true);
      expect(after.controller.draft()).toBe('');
      after.controller.saveDraft('Microtasks go f');
      await after.controller.stop();
      expect(storage.length).toBe(0);
    });

    it('ending it rates what the server stored, without opening a connection', async () => {
      const h = harness({ resumeSession: () => Promise.reject(new Error('no resume expected')) });
      await h.controller.endLive(live);
      expect(h.transport.listener).toBeNull();
      expect(h.rated).toHaveLength(1);
      expect(h.rated[0]).toMatchObject({
        sessionId: 'sess-live',
        questionSetId: 9,
        durationSeconds: 120,
        endReason: 'stopped-by-candidate',
      });
      expect(h.rated[0]!.transcripts).toEqual(live.transcript);
      expect(h.controller.getSnapshot()).toMatchObject({
        phase: 'disconnected',
        rating: { status: 'ready', markdown: '# Great job', score: 84 },
      });
    });

    it('a continue that fails leaves the reconnect choice; a session under way here is not taken over', async () => {
      const h = harness({
        resumeSession: () =>
          Promise.reject(new ResumeRefusedError('This interview has already been reconnected 2 times. Please start a new session.')),
      });
      await h.controller.continueLive(live);
      expect(h.controller.getSnapshot()).toMatchObject({
        phase: 'interrupted',
        reconnect: {
          trying: false,
          canRetry: false,
          message: 'This interview has already been reconnected 2 times. Please start a new session.',
        },
      });
      await h.controller.endLive(live);
      expect(h.rated).toHaveLength(0);
    });
  });
});
