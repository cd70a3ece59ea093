import { describe, expect, it } from 'vitest';
import { OutOfTokensError } from './session-controller';
import { harness, ScriptedTransport, settle, token } from './fixtures/session-harness';

describe('session controller (docs/product-rules.md, Session lifecycle)', () => {
  it('opens the topic list instead of starting when no set is selected', async () => {
    const h = harness();
    await h.controller.start(null);
    expect(h.calls).toEqual(['need-topic']);
    expect(h.controller.getSnapshot().phase).toBe('idle');
    expect(h.transport.listener).toBeNull();
  });

  it('marks where the candidate cut the interviewer off on its newest line, and rates that mark with it', async () => {
    const h = harness();
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'interviewer', text: 'Welcome. What is a closure?', at: 10 });
    // A line that is no longer the newest is not marked.
    h.transport.emit({ type: 'cut-off', text: 'Some older line.', cutAt: 3 });
    h.transport.emit({ type: 'cut-off', text: 'Welcome. What is a closure?', cutAt: 7 });
    h.transport.emit({ type: 'candidate', text: 'A function with its scope.', at: 20 });
    expect(h.controller.getSnapshot().transcript[0]).toEqual({
      role: 'interviewer',
      transcript: 'Welcome. What is a closure?',
      at: 10,
      cutAt: 7,
    });
    await h.controller.stop();
    expect(h.rated[0]?.transcripts[0]?.cutAt).toBe(7);
  });

  it('goes idle → starting → active, records the start time and keeps the screen awake', async () => {
    const h = harness();
    const phases: string[] = [];
    h.controller.subscribe(() => phases.push(h.controller.getSnapshot().phase));
    await h.controller.start({ id: 7 });
    expect(phases[0]).toBe('starting');
    expect(h.controller.getSnapshot().phase).toBe('active');
    expect(h.transport.startedAt).toBe(1000);
    expect(h.wake).toEqual(['acquire']);
  });

  it('ignores a second start while starting (no double start)', async () => {
    let release: () => void = () => {};
    const transport = new ScriptedTransport(false, () => new Promise<void>((resolve) => (release = resolve)));
    const h = harness({ transport });
    const first = h.controller.start({ id: 7 });
    await settle();
    expect(h.controller.getSnapshot().phase).toBe('starting');
    let tokens = 0;
    await h.controller.start({ id: 7 }).then(() => tokens++);
    expect(h.controller.getSnapshot().phase).toBe('starting');
    release();
    await first;
    expect(h.controller.getSnapshot().phase).toBe('active');
    expect(tokens).toBe(1);
  });

  it('keeps the transcript with timings and shows only the last three interviewer lines', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'interviewer', text: 'Q1', at: 100.4 });
    h.transport.emit({ type: 'candidate', text: 'A1', at: 2000 });
    h.transport.emit({ type: 'interviewer', text: 'Q2', at: 3000 });
    h.transport.emit({ type: 'interviewer', text: 'Q3', at: 4000 });
    h.transport.emit({ type: 'interviewer', text: 'Q4', at: 5000 });
    const snap = h.controller.getSnapshot();
    expect(snap.interviewerMessages).toEqual(['Q2', 'Q3', 'Q4']);
    expect(snap.transcript).toEqual([
      { role: 'interviewer', transcript: 'Q1', at: 100 },
      { role: 'interviewee', transcript: 'A1', at: 2000 },
      { role: 'interviewer', transcript: 'Q2', at: 3000 },
      { role: 'interviewer', transcript: 'Q3', at: 4000 },
      { role: 'interviewer', transcript: 'Q4', at: 5000 },
    ]);
  });

  it('tracks speaking, interim words and notices', async () => {
    const h = harness({ typed: true });
    await h.controller.start({ id: 3 });
    expect(h.controller.getSnapshot().acceptsTypedAnswers).toBe(true);
    h.transport.emit({ type: 'speaking', speaking: true });
    expect(h.controller.getSnapshot().speaking).toBe(true);
    h.transport.emit({ type: 'interim', text: 'I think' });
    expect(h.controller.getSnapshot().interim).toBe('I think');
    h.transport.emit({ type: 'candidate', text: 'I think so', at: 10 });
    expect(h.controller.getSnapshot().interim).toBe('');
    h.transport.emit({ type: 'notice', text: 'This browser cannot recognise speech.' });
    expect(h.controller.getSnapshot().notice).toBe('This browser cannot recognise speech.');
  });

  it('passes typed answers to the transport only while active', async () => {
    const h = harness({ typed: true });
    expect(h.controller.sendText('early')).toBe(false);
    await h.controller.start({ id: 3 });
    expect(h.controller.sendText('  my answer  ')).toBe(true);
    expect(h.controller.sendText('   ')).toBe(false);
    expect(h.transport.sent).toEqual(['my answer']);
  });

  it('marks the transcript line of a typed answer as typed, and a recognised one as spoken', async () => {
    const transport = new ScriptedTransport(true);
    // Like the real transports: a typed answer is emitted as the candidate's line at once.
    transport.sendText = (text) => transport.emit({ type: 'candidate', text, at: 20 });
    const h = harness({ transport });
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'candidate', text: 'said out loud', at: 10 });
    h.controller.sendText('typed in');
    expect(h.controller.getSnapshot().transcript).toEqual([
      { role: 'interviewee', transcript: 'said out loud', at: 10 },
      { role: 'interviewee', transcript: 'typed in', at: 20, input: 'typed' },
    ]);
  });

  it('stops on disconnect: closes, rates with whole seconds, then shows the result', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'interviewer', text: 'Tell me about React.', at: 50 });
    h.clock.now = 1000 + 65_600;
    const stopping = h.controller.stop();
    expect(h.controller.getSnapshot().phase).toBe('rating');
    expect(h.controller.getSnapshot().rating).toEqual({ status: 'loading' });
    expect(h.transport.closed).toBe(1);
    expect(h.wake).toEqual(['acquire', 'release']);
    await stopping;
    expect(h.rated).toEqual([
      {
        transcripts: [{ role: 'interviewer', transcript: 'Tell me about React.', at: 50 }],
        durationSeconds: 66,
        questionSetId: 3,
        sessionId: 'sess-1',
        endReason: 'stopped-by-candidate',
      },
    ]);
    expect(h.controller.getSnapshot()).toMatchObject({
      phase: 'disconnected',
      rating: { status: 'ready', markdown: '# Great job', score: 84 },
    });
  });

  it('shows the rating error text the rate call produced, and the generic one when it throws', async () => {
    const h = harness({ rate: () => Promise.resolve({ ok: false, message: 'Error: Transcript is empty.' }) });
    await h.controller.start({ id: 3 });
    await h.controller.stop();
    expect(h.controller.getSnapshot().rating).toEqual({ status: 'error', message: 'Error: Transcript is empty.' });

    const g = harness({ rate: () => Promise.reject(new Error('boom')) });
    await g.controller.start({ id: 3 });
    await g.controller.stop();
    expect(g.controller.getSnapshot().rating).toEqual({ status: 'error', message: 'Error submitting transcript for rating.' });
  });

  it('places an answer whose transcription arrives late before the reply it led to', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'interviewer', text: 'Q1', at: 100 });
    h.transport.emit({ type: 'interviewer', text: 'Q2', at: 9000 });
    h.transport.emit({ type: 'candidate', text: 'A1', at: 8000 });
    expect(h.controller.getSnapshot().transcript.map((e) => e.transcript)).toEqual(['Q1', 'A1', 'Q2']);
    h.transport.emit({ type: 'candidate', text: 'A2', at: 9500 });
    expect(h.controller.getSnapshot().transcript.map((e) => e.transcript)).toEqual(['Q1', 'A1', 'Q2', 'A2']);
  });

  it('ends cleanly on a transport failure and still submits what was said', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'candidate', text: 'Hooks are functions.', at: 900 });
    h.transport.emit({ type: 'failed', message: 'Data channel closed' });
    await settle();
    expect(h.transport.closed).toBe(1);
    expect(h.rated[0]?.transcripts).toEqual([{ role: 'interviewee', transcript: 'Hooks are functions.', at: 900 }]);
    expect(h.controller.getSnapshot().phase).toBe('disconnected');
    expect(h.logs.some((l) => l.level === 'error' && l.text.includes('Data channel closed'))).toBe(true);
    // Late events from the closed transport are ignored.
    h.transport.emit({ type: 'interviewer', text: 'late', at: 1 });
    expect(h.controller.getSnapshot().interviewerMessages).toEqual([]);
  });

  it('logs a failed token call and returns to idle', async () => {
    const h = harness({ fetchToken: () => Promise.reject(new Error('Failed to get session token')) });
    await h.controller.start({ id: 3 });
    expect(h.controller.getSnapshot().phase).toBe('idle');
    expect(h.logs).toEqual([{ level: 'error', text: 'Failed to start session: Failed to get session token' }]);
    expect(h.calls).toEqual([]);
    expect(h.wake).toEqual([]);
  });

  it('a refused microphone stops the start before any token is minted, with the sentence shown', async () => {
    let minted = 0;
    const h = harness({
      checkMicrophone: async () => "Microphone access was blocked. Allow it in your browser's site settings and try again.",
      fetchToken: () => {
        minted += 1;
        return Promise.resolve(token);
      },
    });
    await h.controller.start({ id: 3 });
    expect(minted).toBe(0);
    expect(h.controller.getSnapshot()).toMatchObject({
      phase: 'idle',
      startError: "Microphone access was blocked. Allow it in your browser's site settings and try again.",
    });
    expect(h.logs[0]?.text).toMatch(/^Failed to start session: Microphone access was blocked/);
  });

  it('abandons a minted session whose transport fails to start and says the credit was returned', async () => {
    const abandoned: string[] = [];
    const transport = new ScriptedTransport(false, () => Promise.reject(new Error('SDP answer refused')));
    const h = harness({ transport, abandon: async (id) => (abandoned.push(id), true) });
    await h.controller.start({ id: 3 });
    expect(abandoned).toEqual([token.sessionId]);
    expect(h.controller.getSnapshot()).toMatchObject({
      phase: 'idle',
      startError: 'The voice connection could not be started. Your session credit was returned. Please try again.',
    });
  });

  it('opens the email dialog on 402 and returns to idle', async () => {
    const h = harness({ fetchToken: () => Promise.reject(new OutOfTokensError()) });
    await h.controller.start({ id: 3 });
    expect(h.calls).toEqual(['out-of-tokens']);
    expect(h.controller.getSnapshot()).toMatchObject({ phase: 'idle', startError: 'You have no interview sessions left.' });
  });

  it('closes the transport and returns to idle when it cannot start (e.g. no microphone)', async () => {
    const transport = new ScriptedTransport(false, () => Promise.reject(new Error('Permission denied')));
    const h = harness({ transport });
    await h.controller.start({ id: 3 });
    expect(transport.closed).toBe(1);
    expect(h.controller.getSnapshot().phase).toBe('idle');
    expect(h.logs[0]?.text).toBe('Failed to start session: Permission denied');
    // The button is back: a new start works.
    const again = harness();
    await again.controller.start({ id: 3 });
    expect(again.controller.getSnapshot().phase).toBe('active');
  });

  it('treats a failure reported while starting as a failed start', async () => {
    let release: () => void = () => {};
    const transport = new ScriptedTransport(false, () => new Promise<void>((resolve) => (release = resolve)));
    const h = harness({ transport });
    const starting = h.controller.start({ id: 3 });
    await settle();
    transport.emit({ type: 'failed', message: 'ICE failed' });
    release();
    await starting;
    expect(h.controller.getSnapshot().phase).toBe('idle');
    expect(h.rated).toEqual([]);
    expect(h.wake).toEqual([]);
  });

  it('allows a new session after a finished one and clears the old messages', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'interviewer', text: 'Q1', at: 1 });
    await h.controller.stop();
    await h.controller.start({ id: 4 });
    expect(h.controller.getSnapshot()).toMatchObject({ phase: 'active', interviewerMessages: [], rating: null });
  });

  it('leaving mid-interview still submits what the candidate said, in the background', async () => {
    const h = harness();
    await h.controller.start({ id: 5 });
    h.transport.emit({ type: 'interviewer', text: 'Tell me about closures.', at: 10 });
    h.transport.emit({ type: 'candidate', text: 'A closure keeps its scope.', at: 2000 });
    h.clock.now = 1000 + 42_400;
    h.controller.dispose();
    expect(h.transport.closed).toBe(1);
    expect(h.wake).toEqual(['acquire', 'release']);
    expect(h.rated).toEqual([
      {
        transcripts: [
          { role: 'interviewer', transcript: 'Tell me about closures.', at: 10 },
          { role: 'interviewee', transcript: 'A closure keeps its scope.', at: 2000 },
        ],
        durationSeconds: 42,
        questionSetId: 5,
        sessionId: 'sess-1',
        endReason: 'stopped-by-candidate',
      },
    ]);
    expect(h.controller.getSnapshot().phase).toBe('disconnected');
    // A pending close timer must not fire a second submission later.
    h.controller.dispose();
    expect(h.rated).toHaveLength(1);
  });

  it('leaving before the candidate said anything, or when no session runs, submits nothing', async () => {
    const silent = harness();
    await silent.controller.start({ id: 5 });
    silent.transport.emit({ type: 'interviewer', text: 'Hello!', at: 10 });
    silent.controller.dispose();
    expect(silent.transport.closed).toBe(1);
    expect(silent.rated).toEqual([]);

    const idle = harness();
    idle.controller.dispose();
    expect(idle.rated).toEqual([]);
  });
});
