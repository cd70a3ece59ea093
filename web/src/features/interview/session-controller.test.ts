import { describe, expect, it } from 'vitest';
import type { LiveSession, RateRequest, TokenResponse } from '../../../../contract';
import { CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS } from '../../../../domain/interviewer-protocol';
import { TurnFailedError } from '../../lib/voice/turn-failure';
import type { StartOptions, TransportListener, VoiceTransport } from '../../lib/voice/types';
import {
  CONNECTION_LOST_CHOICE,
  CONTINUING_NOTICE,
  OutOfTokensError,
  RECONNECT_FAILED_CHOICE,
  RECONNECTING_NOTICE,
  ResumeRefusedError,
  SessionController,
  type RateOutcome,
  type SessionDeps,
} from './session-controller';

const token: TokenResponse = {
  transport: 'browser-speech',
  client_secret: { value: 'secret', expires_at: 2_000_000_000 },
  sessionId: 'sess-1',
};

/** A transport whose behaviour the test scripts: it records calls and lets the test emit events. */
class ScriptedTransport implements VoiceTransport {
  listener: TransportListener | null = null;
  startedAt: number | null = null;
  closed = 0;
  sent: string[] = [];
  constructor(
    readonly acceptsTypedAnswers: boolean,
    private readonly startResult: () => Promise<void> = () => Promise.resolve(),
  ) {}
  startOptions: StartOptions | undefined;
  async start(_token: TokenResponse, listener: TransportListener, startedAt: number, options?: StartOptions): Promise<void> {
    this.listener = listener;
    this.startedAt = startedAt;
    this.startOptions = options;
    await this.startResult();
  }
  sendText(text: string): void {
    this.sent.push(text);
  }
  close(): void {
    this.closed++;
  }
  emit: TransportListener = (event) => this.listener?.(event);
}

interface Harness {
  controller: SessionController;
  transport: ScriptedTransport;
  clock: { now: number };
  timers: { fn: () => void; ms: number; cancelled: boolean }[];
  rated: RateRequest[];
  logs: { level: 'info' | 'error'; text: string }[];
  wake: string[];
  calls: string[];
}

function harness(
  options: {
    typed?: boolean;
    fetchToken?: () => Promise<TokenResponse>;
    rate?: (request: RateRequest) => Promise<RateOutcome>;
    transport?: ScriptedTransport;
    /** Transports handed out after the first (a reconnect gets the next one). */
    later?: ScriptedTransport[];
    resumeSession?: (sessionId: string) => Promise<TokenResponse>;
    checkMicrophone?: () => Promise<string | null>;
    abandon?: (sessionId: string) => Promise<boolean>;
  } = {},
): Harness {
  const transport = options.transport ?? new ScriptedTransport(options.typed ?? false);
  const h: Omit<Harness, 'controller'> = { transport, clock: { now: 1000 }, timers: [], rated: [], logs: [], wake: [], calls: [] };
  const deps: SessionDeps = {
    fetchToken: options.fetchToken ?? (() => Promise.resolve(token)),
    resumeSession: options.resumeSession ?? (() => Promise.reject(new Error('409 This interview session has already ended.'))),
    createTransport: (() => {
      let first = true;
      return () => {
        const next = first ? transport : (options.later?.shift() ?? transport);
        first = false;
        return Promise.resolve(next);
      };
    })(),
    rate: async (request) => {
      h.rated.push(request);
      return options.rate ? options.rate(request) : { ok: true, markdown: '# Great job', score: 84 };
    },
    now: () => h.clock.now,
    schedule: (fn, ms) => {
      const timer = { fn, ms, cancelled: false };
      h.timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    wakeLock: { acquire: () => h.wake.push('acquire'), release: () => h.wake.push('release') },
    log: {
      info: (...args) => h.logs.push({ level: 'info', text: args.join(' ') }),
      error: (...args) => h.logs.push({ level: 'error', text: args.join(' ') }),
    },
    onNeedTopic: () => h.calls.push('need-topic'),
    onOutOfTokens: () => h.calls.push('out-of-tokens'),
    ...(options.checkMicrophone ? { checkMicrophone: options.checkMicrophone } : {}),
    ...(options.abandon ? { abandon: options.abandon } : {}),
  };
  return { ...h, controller: new SessionController(deps) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('session controller (docs/product-rules.md, Session lifecycle)', () => {
  it('opens the topic list instead of starting when no set is selected', async () => {
    const h = harness();
    await h.controller.start(null);
    expect(h.calls).toEqual(['need-topic']);
    expect(h.controller.getSnapshot().phase).toBe('idle');
    expect(h.transport.listener).toBeNull();
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

  it('ends CLOSE_DELAY_MS after close_session, honouring it once', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'close-requested', reason: 'All questions answered' });
    h.transport.emit({ type: 'close-requested', reason: 'again' });
    expect(h.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS]);
    expect(CLOSE_DELAY_MS).toBe(4000);
    expect(h.logs.some((l) => l.level === 'info' && l.text.includes('4 seconds') && l.text.includes('All questions answered'))).toBe(true);
    expect(h.controller.getSnapshot().phase).toBe('active');
    h.transport.emit({ type: 'closing-remark-done' }); // a short goodbye, heard before the delay ends
    expect(h.controller.getSnapshot().phase).toBe('active');
    h.timers[0]?.fn();
    expect(h.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(h.controller.getSnapshot().phase).toBe('disconnected');
    expect(h.rated).toHaveLength(1);
  });

  it('lets a closing remark still playing at the delay finish, but waits no longer than the cap', async () => {
    const heard = harness();
    await heard.controller.start({ id: 3 });
    heard.transport.emit({ type: 'closing-remark-done' }); // before close_session: ignored
    heard.transport.emit({ type: 'close-requested', reason: 'done' });
    heard.timers[0]?.fn();
    expect(heard.controller.getSnapshot().phase).toBe('active');
    expect(heard.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS]);
    heard.transport.emit({ type: 'closing-remark-done' });
    expect(heard.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(heard.timers[1]?.cancelled).toBe(true);
    expect(heard.rated).toHaveLength(1);

    const silent = harness();
    await silent.controller.start({ id: 3 });
    silent.transport.emit({ type: 'close-requested', reason: 'done' });
    silent.timers[0]?.fn();
    expect(silent.controller.getSnapshot().phase).toBe('active');
    silent.timers[1]?.fn(); // the remark never reported its end
    expect(silent.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(silent.rated).toHaveLength(1);
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

  it('cancels the close timer when the candidate disconnects first', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'close-requested', reason: 'done' });
    await h.controller.stop();
    expect(h.timers[0]?.cancelled).toBe(true);
    h.timers[0]?.fn(); // a timer that fires anyway changes nothing
    expect(h.rated).toHaveLength(1);
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

  it('a connection that goes away after the closing remark began ends the session normally, with no error logged', async () => {
    const h = harness();
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'candidate', text: 'Something.', at: 5 });
    h.transport.emit({ type: 'close-requested', reason: 'done' });
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    expect(h.controller.getSnapshot().phase).toBe('active');
    h.timers[0]!.fn();
    await settle();
    expect(h.rated).toHaveLength(1);
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
    expect(h.logs.some((l) => l.text === 'The voice connection ended after the closing remark.')).toBe(true);
  });

  it('a connection that goes away while the closing remark runs past the delay ends the session at once', async () => {
    const h = harness();
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'close-requested', reason: 'done' });
    h.timers[0]!.fn(); // the delay passed; the remark still plays
    expect(h.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS]);
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    expect(h.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(h.timers[1]?.cancelled).toBe(true);
    expect(h.rated.map((r) => r.endReason)).toEqual(['closed-by-interviewer']);
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
