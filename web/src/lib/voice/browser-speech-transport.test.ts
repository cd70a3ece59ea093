import { DEFAULT_TURN_PAUSES, type TurnPauses } from '../../../../domain/answer-ending';
import { describe, expect, it } from 'vitest';
import type { BrowserSpeechToken, TurnLine, TurnResponse } from '../../../../contract';
import { SPEECH_TURN_STREAM_TYPE } from '../../../../contract/limits';
import type { RecognitionErrorEventLike, RecognitionLike, RecognitionResultEventLike, SpeechOutput } from './browser-speech-io';
import {
  createBrowserSpeechTransport,
  NO_RECOGNITION_NOTICE,
  NO_SYNTHESIS_NOTICE,
  RECOGNITION_FAILED_NOTICE,
  speechGuardMs,
  type BrowserSpeechOptions,
} from './browser-speech-transport';
import { OFFLINE_MESSAGE } from './turn-failure';
import { TURN_FAILED_MESSAGE } from './turn-taking';
import type { Connectivity, ConnectivityChange } from './connectivity';
import type { TransportEvent } from './types';

/** The page's online state and visibility, changed by the test. */
function fakeConnectivity() {
  let online = true;
  const watchers = new Set<(change: ConnectivityChange) => void>();
  const connectivity: Connectivity = {
    online: () => online,
    watch(onChange) {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
  };
  return {
    connectivity,
    watchers,
    change(change: ConnectivityChange) {
      if (change === 'offline') online = false;
      if (change === 'online') online = true;
      for (const watcher of [...watchers]) watcher(change);
    },
  };
}

const token: BrowserSpeechToken = {
  transport: 'browser-speech',
  client_secret: { value: 'bs_secret', expires_at: 2_000_000_000 },
  sessionId: 'sess-1',
};

/** A manual clock: timers fire only when the test advances time. */
function manualClock() {
  let nowMs = 0;
  let seq = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();
  return {
    now: () => nowMs,
    schedule: (fn: () => void, ms: number) => {
      const id = ++seq;
      timers.set(id, { due: nowMs + ms, fn });
      return () => void timers.delete(id);
    },
    async advance(ms: number) {
      const target = nowMs + ms;
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.due <= target).sort((a, b) => a[1].due - b[1].due)[0];
        if (!next) break;
        timers.delete(next[0]);
        nowMs = next[1].due;
        next[1].fn();
        await flush();
      }
      nowMs = target;
      await flush();
    },
  };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

/** Answers each POST /interview/turn from a script and records what the transport sent. */
/** A streamed turn: its lines, the last one sent only once `hold` resolves. */
interface StreamedTurn {
  lines: TurnLine[];
  hold: Promise<void>;
}
type ScriptedTurn = TurnResponse | { status: number; body: unknown } | StreamedTurn;

function streamedBody(turn: StreamedTurn): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const line of turn.lines.slice(0, -1)) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      await turn.hold;
      controller.enqueue(encoder.encode(`${JSON.stringify(turn.lines.at(-1))}\n`));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': SPEECH_TURN_STREAM_TYPE } });
}

function scriptedServer(turns: ScriptedTurn[]) {
  const requests: Array<{ url: string; headers: Record<string, string>; body: unknown }> = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({
      url: String(input),
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(String(init?.body)),
    });
    const next = turns.shift();
    if (!next) throw new TypeError('Failed to fetch');
    if ('status' in next) return new Response(JSON.stringify(next.body), { status: next.status });
    if ('lines' in next) return streamedBody(next);
    return new Response(JSON.stringify(next), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { requests, fetchFn };
}

function fakeSpeech(mode: 'ok' | 'fail' | 'hang') {
  const spoken: string[] = [];
  let cancels = 0;
  const output: SpeechOutput = {
    speak(text, _lang, done) {
      spoken.push(text);
      if (mode === 'ok') queueMicrotask(() => done(true));
      if (mode === 'fail') queueMicrotask(() => done(false));
    },
    cancel() {
      cancels++;
    },
    // Boundary events reached the 9th character of the line being spoken.
    spokenChars: () => 9,
  };
  return { output, spoken, cancels: () => cancels };
}

/** A scripted stand-in for the browser's recogniser. */
function fakeRecognition() {
  const instances: FakeRecognizer[] = [];
  class FakeRecognizer implements RecognitionLike {
    continuous = false;
    interimResults = false;
    lang = '';
    onresult: ((event: RecognitionResultEventLike) => void) | null = null;
    onerror: ((event: RecognitionErrorEventLike) => void) | null = null;
    onend: (() => void) | null = null;
    running = false;
    starts = 0;
    constructor() {
      instances.push(this);
    }
    start() {
      this.running = true;
      this.starts++;
    }
    stop() {
      this.running = false;
    }
    abort() {
      this.running = false;
    }
    say(...parts: Array<[string, boolean]>) {
      const results = parts.map(([transcript, isFinal]) => ({ isFinal, length: 1, 0: { transcript } }));
      this.onresult?.({ resultIndex: 0, results });
    }
  }
  return { ctor: FakeRecognizer, instances };
}

/** Most tests wait one pause whatever the words; the rule's own test uses the defaults. */
const END_OF_ANSWER_PAUSE_MS = 2500;
const ONE_PAUSE = {
  pieceMs: END_OF_ANSWER_PAUSE_MS,
  finishedMs: END_OF_ANSWER_PAUSE_MS,
  unsureMs: END_OF_ANSWER_PAUSE_MS,
  unfinishedMs: END_OF_ANSWER_PAUSE_MS,
  heldMs: 0,
};

function setup(turns: ScriptedTurn[], opts: { speech?: 'ok' | 'fail' | 'hang' | null; recognition?: boolean; pauses?: TurnPauses } = {}) {
  const clock = manualClock();
  const server = scriptedServer(turns);
  const speech = opts.speech === null ? null : fakeSpeech(opts.speech ?? 'ok');
  const recognition = opts.recognition ? fakeRecognition() : null;
  const network = fakeConnectivity();
  const options: BrowserSpeechOptions = {
    connectivity: network.connectivity,
    fetch: server.fetchFn,
    speech: speech?.output ?? null,
    recognition: recognition?.ctor ?? null,
    now: clock.now,
    schedule: clock.schedule,
  };
  const transport = createBrowserSpeechTransport(token, { userEmail: 'ann@example.com', turnPauses: opts.pauses ?? ONE_PAUSE }, options);
  const events: TransportEvent[] = [];
  return { clock, server, speech, recognition, network, transport, events, listener: (e: TransportEvent) => events.push(e) };
}

const say = (text: string): TurnResponse => ({ say: text, closeSession: null });

describe('browser-speech transport', () => {
  it('runs a whole interview by typing: opening turn, answers as next turns, close_session', async () => {
    const t = setup([
      say('Hello! First question: what is a closure?'),
      say('Thanks. Second: what is the event loop?'),
      { say: 'Thank you, that is all. Your feedback is being prepared.', closeSession: { reason: 'all questions covered' } },
    ]);
    await t.transport.start(token, t.listener, 0);
    expect(t.transport.acceptsTypedAnswers).toBe(true);
    expect(t.server.requests[0]).toEqual({
      url: '/interview/turn',
      headers: { 'content-type': 'application/json', 'x-user-email': 'ann@example.com' },
      body: { sessionToken: 'bs_secret' },
    });
    await t.clock.advance(0);
    expect(t.events).toEqual([
      { type: 'notice', text: NO_RECOGNITION_NOTICE },
      { type: 'interviewer', text: 'Hello! First question: what is a closure?', at: 0 },
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
      { type: 'heard', text: 'Hello! First question: what is a closure?' },
    ]);
    expect(t.speech?.spoken).toEqual(['Hello! First question: what is a closure?']);

    t.events.length = 0;
    await t.clock.advance(1500);
    t.transport.sendText('  A function with its lexical scope.  ');
    await flush();
    // Typed: the server stores it as typed (shown so after a reload).
    expect(t.server.requests[1]?.body).toEqual({
      sessionToken: 'bs_secret',
      utterance: 'A function with its lexical scope.',
      input: 'typed',
    });
    expect(t.events).toEqual([
      { type: 'candidate', text: 'A function with its lexical scope.', at: 1500 },
      { type: 'interviewer', text: 'Thanks. Second: what is the event loop?', at: 1500 },
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
      { type: 'heard', text: 'Thanks. Second: what is the event loop?' },
    ]);

    t.events.length = 0;
    t.transport.sendText('   ');
    t.transport.sendText('It runs queued tasks when the stack is empty.');
    await flush();
    expect(t.server.requests).toHaveLength(3);
    // The close is requested as the remark arrives (the 4-second timer runs while it is spoken).
    expect(t.events.map((e) => e.type)).toEqual([
      'candidate',
      'interviewer',
      'close-requested',
      'speaking',
      'speaking',
      'closing-remark-done',
    ]);
    expect(t.events[2]).toEqual({ type: 'close-requested', reason: 'all questions covered' });

    // After the close nothing more is sent.
    t.transport.sendText('one more thing');
    await flush();
    expect(t.server.requests).toHaveLength(3);
  });

  it('shows the line and carries on when synthesis fails, with one plain notice', async () => {
    const t = setup([say('Question one?'), say('Question two?')], { speech: 'fail' });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    t.transport.sendText('answer one');
    await flush();
    const notices = t.events.filter((e) => e.type === 'notice').map((e) => (e as { text: string }).text);
    // One notice on screen at a time: the second carries the first along.
    expect(notices).toEqual([NO_RECOGNITION_NOTICE, `${NO_RECOGNITION_NOTICE} ${NO_SYNTHESIS_NOTICE}`]);
    expect(t.events.filter((e) => e.type === 'interviewer')).toHaveLength(2);
  });

  it('never hangs when synthesis reports no end: the guard moves on after the estimated time', async () => {
    const line = 'Tell me about a time you disagreed with a colleague and how you resolved it.';
    const t = setup([say(line)], { speech: 'hang', recognition: true });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    expect(t.events.at(-1)).toEqual({ type: 'speaking', speaking: true });
    expect(t.recognition?.instances).toHaveLength(0);
    await t.clock.advance(speechGuardMs(line) - 1);
    expect(t.events.at(-1)).toEqual({ type: 'speaking', speaking: true });
    await t.clock.advance(1);
    expect(t.events.at(-2)).toEqual({ type: 'speaking', speaking: false });
    expect(t.speech?.cancels()).toBe(1);
    expect(t.recognition?.instances[0]?.running).toBe(true);
  });

  it('the words say how long a pause ends the answer; endAnswer (Done, Enter) sends it at once', async () => {
    const t = setup([say('What is a closure?'), say('Go on: what is a closure, in one sentence?'), say('Thanks.')], {
      recognition: true,
      pauses: DEFAULT_TURN_PAUSES,
    });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    const rec = t.recognition?.instances[0];
    if (!rec) throw new Error('no recogniser');
    // A word that leads on: the long pause.
    rec.say(['a closure keeps its scope because', false]);
    await t.clock.advance(DEFAULT_TURN_PAUSES.unfinishedMs - 1);
    expect(t.server.requests).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.server.requests[1]?.body).toEqual({ sessionToken: 'bs_secret', utterance: 'a closure keeps its scope because' });
    await t.clock.advance(0);
    // Words that answer the question: the short pause.
    const next = t.recognition?.instances[0];
    next?.say(['a closure is a function that keeps its scope', false]);
    await t.clock.advance(DEFAULT_TURN_PAUSES.finishedMs);
    expect(t.server.requests[2]?.body).toEqual({ sessionToken: 'bs_secret', utterance: 'a closure is a function that keeps its scope' });
  });

  it('endAnswer (Done, Enter) sends the words heard so far at once', async () => {
    const t = setup([say('What is a closure?'), say('Thanks.')], { recognition: true });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    t.transport.endAnswer?.();
    expect(t.server.requests).toHaveLength(1);
    t.recognition?.instances[0]?.say(['it keeps the scope and', false]);
    t.transport.endAnswer?.();
    await t.clock.advance(0);
    expect(t.server.requests[1]?.body).toEqual({ sessionToken: 'bs_secret', utterance: 'it keeps the scope and' });
  });

  it('hears an answer through the recogniser: interim text, end after a patient pause', async () => {
    const t = setup([say('What is a closure?'), { say: 'Thanks, goodbye.', closeSession: { reason: 'the candidate asked to stop' } }], {
      recognition: true,
    });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    const rec = t.recognition?.instances[0];
    expect(rec).toBeDefined();
    if (!rec) return;
    expect({ continuous: rec.continuous, interimResults: rec.interimResults, lang: rec.lang, running: rec.running }).toEqual({
      continuous: true,
      interimResults: true,
      lang: 'en-US',
      running: true,
    });
    expect(t.events.some((e) => e.type === 'notice')).toBe(false);
    t.events.length = 0;

    rec.say(['A closure', false]);
    await t.clock.advance(2000);
    rec.say(['A closure is a function', true], ['that keeps its scope', false]);
    // The recogniser ends a run by itself; the words so far are kept and it listens on.
    rec.onend?.();
    expect(rec.starts).toBe(2);
    await t.clock.advance(END_OF_ANSWER_PAUSE_MS - 1);
    rec.say(['even after returning', false]);
    await t.clock.advance(END_OF_ANSWER_PAUSE_MS - 1);
    expect(t.server.requests).toHaveLength(1);
    await t.clock.advance(1);

    const answer = 'A closure is a function that keeps its scope even after returning';
    expect(t.events).toEqual([
      { type: 'interim', text: 'A closure' },
      { type: 'interim', text: 'A closure is a function that keeps its scope' },
      { type: 'interim', text: answer },
      { type: 'candidate', text: answer, at: 2000 + 2 * END_OF_ANSWER_PAUSE_MS - 1 },
      { type: 'interviewer', text: 'Thanks, goodbye.', at: 2000 + 2 * END_OF_ANSWER_PAUSE_MS - 1 },
      { type: 'close-requested', reason: 'the candidate asked to stop' },
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
      { type: 'closing-remark-done' },
    ]);
    expect(t.server.requests[1]?.body).toEqual({ sessionToken: 'bs_secret', utterance: answer });
    // The microphone is off after the close, and results arriving late are ignored.
    expect(rec.running).toBe(false);
    rec.say(['late words', false]);
    await t.clock.advance(END_OF_ANSWER_PAUSE_MS * 2);
    expect(t.events.at(-1)).toEqual({ type: 'closing-remark-done' });
  });

  it('two answers typed quickly go in order; the recogniser waits for the last line', async () => {
    const t = setup([say('Question one?'), say('Question two?'), say('Question three?')], { recognition: true });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    const rec = t.recognition?.instances[0];
    expect(rec?.running).toBe(true);
    t.events.length = 0;
    t.transport.sendText('first');
    t.transport.sendText('second');
    expect(rec?.running).toBe(false);
    await flush();
    expect(t.server.requests.map((r) => (r.body as { utterance?: string }).utterance)).toEqual([undefined, 'first', 'second']);
    // The line answered past already is shown but not spoken; the last one is spoken, then we listen.
    expect(t.events).toEqual([
      { type: 'candidate', text: 'first', at: 0 },
      { type: 'candidate', text: 'second', at: 0 },
      { type: 'interviewer', text: 'Question two?', at: 0 },
      { type: 'interviewer', text: 'Question three?', at: 0 },
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
      { type: 'heard', text: 'Question three?' },
    ]);
    expect(t.speech?.spoken).toEqual(['Question one?', 'Question three?']);
    expect(rec?.running).toBe(true);
  });

  it('says plainly to type when the recogniser fails (network, not-allowed, audio-capture)', async () => {
    for (const error of ['network', 'not-allowed', 'audio-capture']) {
      const t = setup([say('Question?')], { recognition: true });
      await t.transport.start(token, t.listener, 0);
      await t.clock.advance(0);
      const rec = t.recognition?.instances[0];
      rec?.onerror?.({ error: 'no-speech' });
      expect(t.events.some((e) => e.type === 'notice')).toBe(false);
      rec?.onerror?.({ error });
      rec?.onend?.();
      expect(t.events.filter((e) => e.type === 'notice')).toEqual([{ type: 'notice', text: RECOGNITION_FAILED_NOTICE }]);
      expect(rec?.running).toBe(false);
      expect(rec?.starts).toBe(1);
      t.transport.close();
    }
  });

  it('a server error on a later turn fails the session with the server sentence', async () => {
    const t = setup([say('Question?'), { status: 409, body: { error: 'This interview session has already ended.' } }]);
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    t.transport.sendText('my answer');
    await flush();
    expect(t.events.at(-1)).toEqual({ type: 'failed', message: 'This interview session has already ended.' });
  });

  it('a network failure fails the session with a plain sentence; start rejects when the opening fails', async () => {
    const t = setup([say('Question?')]);
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    t.transport.sendText('my answer');
    await flush();
    // The call did not get through: the session may go on after a resume, sending the answer again.
    expect(t.events.at(-1)).toEqual({
      type: 'failed',
      message: TURN_FAILED_MESSAGE,
      reconnectable: true,
      pendingAnswer: 'my answer',
      pendingTyped: true,
    });

    const u = setup([{ status: 500, body: 'not json' }]);
    await expect(u.transport.start(token, u.listener, 0)).rejects.toThrow(TURN_FAILED_MESSAGE);
    const v = setup([{ status: 200, body: { say: 42 } }]);
    await expect(v.transport.start(token, v.listener, 0)).rejects.toThrow(TURN_FAILED_MESSAGE);
  });

  it('close() is idempotent, cancels speech and the recogniser, and silences all events', async () => {
    const t = setup([say('Question?')], { recognition: true });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    const rec = t.recognition?.instances[0];
    rec?.say(['half an answer', false]);
    const before = t.events.length;
    t.transport.close();
    t.transport.close();
    expect(rec?.running).toBe(false);
    expect(t.speech?.cancels()).toBe(1);
    await t.clock.advance(END_OF_ANSWER_PAUSE_MS * 2);
    t.transport.sendText('typed after close');
    await flush();
    expect(t.events.length).toBe(before);
    expect(t.server.requests).toHaveLength(1);
  });

  it('a server failure (5xx) is reconnectable too; a 4xx sentence is final', async () => {
    const t = setup([
      say('Question?'),
      { status: 503, body: { error: 'The interviewer is not available right now. Please try again in a few minutes.' } },
    ]);
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    t.transport.sendText('my answer');
    await flush();
    expect(t.events.at(-1)).toEqual({
      type: 'failed',
      message: TURN_FAILED_MESSAGE,
      reconnectable: true,
      pendingAnswer: 'my answer',
      pendingTyped: true,
    });
  });

  it('going offline ends this connection once, reconnectable, with the answer that got no reply; nothing after', async () => {
    let answerTurn: (r: Response) => void = () => undefined;
    const t = setup([say('Question?')]);
    const fetchFn = t.server.fetchFn;
    let calls = 0;
    const options = {
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        calls++;
        if (calls === 1) return fetchFn(input, init);
        return new Promise<Response>((resolve, reject) => {
          answerTurn = resolve;
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      }) as typeof fetch,
    };
    const network = fakeConnectivity();
    const transport = createBrowserSpeechTransport(
      token,
      { userEmail: 'ann@example.com', turnPauses: DEFAULT_TURN_PAUSES },
      {
        ...options,
        speech: null,
        recognition: null,
        now: t.clock.now,
        schedule: t.clock.schedule,
        connectivity: network.connectivity,
      },
    );
    const events: TransportEvent[] = [];
    await transport.start(token, (e) => events.push(e), 0);
    await t.clock.advance(5000);
    transport.sendText('half of my answer');
    await flush();
    network.change('offline');
    await flush();
    answerTurn(new Response(JSON.stringify(say('late')), { status: 200 }));
    await flush();
    expect(events.filter((e) => e.type === 'failed')).toEqual([
      { type: 'failed', message: OFFLINE_MESSAGE, reconnectable: true, pendingAnswer: 'half of my answer', pendingTyped: true },
    ]);
    expect(events.some((e) => e.type === 'interviewer' && e.text === 'late')).toBe(false);
    transport.close();
    expect(network.watchers.size).toBe(0);
  });

  it('coming back to the page while offline fails reconnectable; while online it starts hearing afresh', async () => {
    const t = setup([say('Question?')], { recognition: true });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    await flush();
    const rec = t.recognition?.instances[0];
    expect(rec?.starts).toBe(1);
    t.network.change('hidden');
    t.network.change('visible');
    expect(rec?.starts).toBe(2);
    expect(t.events.some((e) => e.type === 'failed')).toBe(false);
    // navigator.onLine turned false without an offline event reaching us (the page was frozen).
    (t.network.connectivity as { online: () => boolean }).online = () => false;
    t.network.change('visible');
    expect(t.events.filter((e) => e.type === 'failed')).toEqual([{ type: 'failed', message: OFFLINE_MESSAGE, reconnectable: true }]);
  });

  it('the recogniser failing because the device is offline is reconnectable; online it only says to type', async () => {
    const t = setup([say('Question?')], { recognition: true });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    (t.network.connectivity as { online: () => boolean }).online = () => false;
    t.recognition?.instances[0]?.onerror?.({ error: 'network' });
    expect(t.events.filter((e) => e.type === 'failed' || e.type === 'notice')).toEqual([
      { type: 'failed', message: OFFLINE_MESSAGE, reconnectable: true },
    ]);
  });

  it('a resumed start asks for the continuation turn, sending again the answer that got no reply', async () => {
    const t = setup([say('Welcome back. Question two?')], { recognition: true });
    await t.transport.start(token, t.listener, 0, { resumed: { pendingAnswer: 'my lost answer', pendingTyped: true } });
    await t.clock.advance(0);
    expect(t.server.requests[0]?.body).toEqual({ sessionToken: 'bs_secret', utterance: 'my lost answer', resume: true, input: 'typed' });
    expect(t.events.filter((e) => e.type === 'interviewer').map((e) => (e as { text: string }).text)).toEqual([
      'Welcome back. Question two?',
    ]);
    expect(t.events.some((e) => e.type === 'candidate')).toBe(false);

    const u = setup([say('Welcome back. Question one?')]);
    await u.transport.start(token, u.listener, 0, { resumed: {} });
    expect(u.server.requests[0]?.body).toEqual({ sessionToken: 'bs_secret', resume: true });
  });

  it('a typed answer that cuts the interviewer off marks where the voice stopped (its last word boundary)', async () => {
    const t = setup([say('Welcome. What is a closure?'), say('Thanks.')], { speech: 'hang' });
    await t.transport.start(token, t.listener, 0);
    await t.clock.advance(0);
    await flush();
    expect(t.events.at(-1)).toEqual({ type: 'speaking', speaking: true });
    t.transport.sendText('A function with its scope.');
    expect(t.events).toContainEqual({ type: 'cut-off', text: 'Welcome. What is a closure?', cutAt: 9 });
    expect(t.speech?.cancels()).toBe(1);
  });

  it('after a resume, a line the candidate heard to its end is shown again but only "Welcome back." is said', async () => {
    const t = setup([say('Welcome back. Question one?'), say('Question two?')]);
    await t.transport.start(token, t.listener, 0, { resumed: { heard: 'Question one?' } });
    await t.clock.advance(0);
    await flush();
    expect(t.events.filter((e) => e.type === 'interviewer').map((e) => (e as { text: string }).text)).toEqual([
      'Welcome back. Question one?',
    ]);
    expect(t.speech?.spoken).toEqual(['Welcome back.']);
    // Heard (as far as it was said), so a further reload does not say it again either.
    expect(t.events).toContainEqual({ type: 'heard', text: 'Welcome back. Question one?' });
    t.transport.sendText('My answer.');
    await flush();
    expect(t.speech?.spoken).toEqual(['Welcome back.', 'Question two?']);
    expect(t.events.at(-1)).toEqual({ type: 'heard', text: 'Question two?' });

    // Never heard to its end (the page went away while it was spoken): said again in full.
    const u = setup([say('Welcome back. Question one?')]);
    await u.transport.start(token, u.listener, 0, { resumed: {} });
    await u.clock.advance(0);
    await flush();
    expect(u.speech?.spoken).toEqual(['Welcome back. Question one?']);
  });
  describe('a reply that comes in lines (a language model writes it)', () => {
    const FIRST = 'That is right, a closure keeps the scope it was made in.';
    const LINE = `${FIRST} Now, what does the event loop do?`;
    const streamed = () => {
      let release = (): void => undefined;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const turn: StreamedTurn = { lines: [{ say: FIRST }, { reply: say(LINE) }], hold };
      return { turn, release };
    };

    it("says the line's first part before the line is whole, then the rest; the line is shown once whole", async () => {
      const { turn, release } = streamed();
      const t = setup([say('Welcome. What is a closure?'), turn]);
      await t.transport.start(token, t.listener, 0);
      await t.clock.advance(0);
      t.events.length = 0;
      t.transport.sendText('A function with its scope.');
      await flush();
      // The answer's turn asks for lines; the first part is said while the rest is written.
      expect(t.server.requests[1]?.headers).toMatchObject({ accept: SPEECH_TURN_STREAM_TYPE });
      expect(t.speech?.spoken).toEqual(['Welcome. What is a closure?', FIRST]);
      expect(t.events.map((e) => e.type)).not.toContain('interviewer');

      release();
      await flush();
      expect(t.speech?.spoken).toEqual(['Welcome. What is a closure?', FIRST, 'Now, what does the event loop do?']);
      expect(t.events.filter((e) => e.type === 'interviewer')).toEqual([{ type: 'interviewer', text: LINE, at: 0 }]);
      expect(t.events.at(-1)).toEqual({ type: 'heard', text: LINE });
    });

    it('a server failure after its first part ends the connection as a 5xx does (reconnectable), and stops the voice', async () => {
      const failed: StreamedTurn = {
        lines: [{ say: FIRST }, { error: 'The interviewer is not available right now. Please try again in a few minutes.', status: 502 }],
        hold: Promise.resolve(),
      };
      const t = setup([say('Welcome. What is a closure?'), failed], { speech: 'hang' });
      await t.transport.start(token, t.listener, 0);
      await t.clock.advance(0);
      t.transport.sendText('A function with its scope.');
      await t.clock.advance(speechGuardMs('Welcome. What is a closure?'));
      expect(t.speech?.spoken).toEqual(['Welcome. What is a closure?', FIRST]);
      expect(t.events.at(-1)).toEqual({
        type: 'failed',
        message: TURN_FAILED_MESSAGE,
        reconnectable: true,
        pendingAnswer: 'A function with its scope.',
        pendingTyped: true,
      });
      // The part being said was cut off, and nothing of the failed line is said after it.
      expect(t.speech?.cancels()).toBeGreaterThanOrEqual(2);
      await t.clock.advance(speechGuardMs(FIRST));
      expect(t.speech?.spoken).toEqual(['Welcome. What is a closure?', FIRST]);
    });

    it('a typed answer that cuts it off before its text came marks where, in the whole line, once it comes', async () => {
      const { turn, release } = streamed();
      const t = setup([say('Welcome. What is a closure?'), turn, say('Thanks.')], { speech: 'hang' });
      await t.transport.start(token, t.listener, 0);
      await t.clock.advance(0);
      // Lines never end by themselves here: the first answer cuts the opening off, whose guard then moves on.
      t.transport.sendText('A function with its scope.');
      await t.clock.advance(speechGuardMs('Welcome. What is a closure?'));
      expect(t.speech?.spoken.at(-1)).toBe(FIRST);
      t.transport.sendText('And it can outlive the call.');
      release();
      await t.clock.advance(speechGuardMs(FIRST));
      expect(t.events).toContainEqual({ type: 'cut-off', text: LINE, cutAt: 9 });
      // The rest of the cut line is not said; the next line is.
      expect(t.speech?.spoken).toEqual(['Welcome. What is a closure?', FIRST, 'Thanks.']);
    });
  });
});
