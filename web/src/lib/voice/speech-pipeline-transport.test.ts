import { DEFAULT_TURN_PAUSES } from '../../../../domain/answer-ending';
import { describe, expect, it } from 'vitest';
import type { SpeechPipelineToken, SpeechTurnResponse } from '../../../../contract';
import type { AnswerEvents, ClipEvents, ClipList, VoicePlayer } from './speech-pipeline-io';
import {
  createSpeechPipelineTransport,
  LISTENING_TEXT,
  NO_MICROPHONE_NOTICE,
  NO_VOICE_NOTICE,
  TRANSCRIBING_TEXT,
} from './speech-pipeline-transport';
import type { Connectivity, ConnectivityChange } from './connectivity';
import { OFFLINE_MESSAGE } from './turn-failure';
import type { StartOptions, TransportEvent } from './types';

const token: SpeechPipelineToken = {
  transport: 'speech-pipeline',
  client_secret: { value: 'sp_secret', expires_at: 2_000_000_000 },
  sessionId: 's1',
};
const turn = (over: Partial<SpeechTurnResponse>): SpeechTurnResponse => ({
  heard: null,
  say: '',
  closeSession: null,
  audio: [],
  retry: false,
  ...over,
});
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const settle = async () => {
  for (let i = 0; i < 6; i++) await tick();
};
const wav = () => new ArrayBuffer(44);

/** A streamed turn: its lines as the test writes them (`write`), NDJSON like the server's. */
interface Streamed {
  stream: ReadableStream<Uint8Array>;
}
type Reply = SpeechTurnResponse | { heard: string | null } | Streamed;

function streamedTurn(): Streamed & { write(line: unknown): void; end(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    write: (line) => controller.enqueue(new TextEncoder().encode(`${JSON.stringify(line)}\n`)),
    end: () => controller.close(),
  };
}

function harness(replies: Reply[], options: { micFails?: boolean; missing?: 'refused' | 'server-error' | 'network' } = {}) {
  const watchers = new Set<(change: ConnectivityChange) => void>();
  let online = true;
  const connectivity: Connectivity = {
    online: () => online,
    watch: (onChange) => {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
  };
  const requests: Array<{ url: string; headers: Record<string, string>; body: unknown }> = [];
  const events: TransportEvent[] = [];
  let answers: AnswerEvents | null = null;
  let destroyed = 0;
  let flushed = 0;
  let detectorPauseMs = 0;
  const playing: Array<{ urls: string[]; clips: ClipList; events: ClipEvents; done: () => void }> = [];
  let stops = 0;
  let holds = 0;
  let releases = 0;
  let clock = 10_000;
  const timers: Array<{ at: number; fn: () => void; cancelled: boolean }> = [];
  const player: VoicePlayer = {
    play: (clips, clipEvents) =>
      new Promise((resolve) => playing.push({ urls: clips.urls as string[], clips, events: clipEvents, done: () => resolve() })),
    // The first clip of two half played: a quarter of the line.
    played: () => (playing.length > 0 ? 0.25 : null),
    hold: () => void holds++,
    release: () => void releases++,
    stop: () => {
      stops++;
      for (const p of playing.splice(0)) p.done();
    },
  };
  const transport = createSpeechPipelineTransport(
    token,
    { userEmail: 'a@example.com', turnPauses: DEFAULT_TURN_PAUSES },
    {
      fetch: async (url, init) => {
        requests.push({ url: String(url), headers: init?.headers as Record<string, string>, body: init?.body });
        const reply = replies.shift();
        if (reply && 'stream' in reply)
          return new Response(reply.stream, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
        if (reply) return new Response(JSON.stringify(reply), { status: 200 });
        if (options.missing === 'network') throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ error: 'no reply' }), { status: options.missing === 'server-error' ? 503 : 409 });
      },
      connectivity,
      startDetector: async (e, detectorOptions) => {
        if (options.micFails) throw new Error('NotAllowedError');
        answers = e;
        detectorPauseMs = detectorOptions.pauseMs;
        return { destroy: () => void destroyed++, flush: () => void flushed++ };
      },
      player,
      now: () => clock,
      schedule: (fn, ms) => {
        const timer = { at: clock + ms, fn, cancelled: false };
        timers.push(timer);
        return () => void (timer.cancelled = true);
      },
    },
  );
  return {
    transport,
    requests,
    events,
    playing,
    answers: () => answers as AnswerEvents,
    destroyed: () => destroyed,
    flushed: () => flushed,
    detectorPauseMs: () => detectorPauseMs,
    stops: () => stops,
    holds: () => holds,
    releases: () => releases,
    /** Moves the clock on, running the timers due. */
    advance(ms: number) {
      clock += ms;
      for (const timer of timers.filter((t) => !t.cancelled && t.at <= clock)) {
        timer.cancelled = true;
        timer.fn();
      }
    },
    /** A piece of speech ended just now (the detector waited TURN_PAUSE_PIECE_MS). */
    piece: () => answers?.speechEnd(wav()),
    /** The pieces are written down, and the short pause (TURN_PAUSE_FINISHED_MS from the last word) has passed. */
    async written() {
      await settle();
      this.advance(DEFAULT_TURN_PAUSES.finishedMs - DEFAULT_TURN_PAUSES.pieceMs);
      await settle();
    },
    start: (startOptions?: StartOptions) => transport.start(token, (e) => events.push(e), 0, startOptions),
    watchers,
    goOffline: () => {
      online = false;
      for (const watcher of [...watchers]) watcher('offline');
    },
  };
}

const bodyOf = (request: { body: unknown } | undefined) => JSON.parse(String(request?.body)) as Record<string, unknown>;

describe('speech-pipeline transport', () => {
  it("asks for turns in lines and plays the first clip as soon as it is told, before the reply's text; the rest joins the same line", async () => {
    const opening = streamedTurn();
    const h = harness([opening]);
    const started = h.start();
    await settle();
    expect(h.requests[0]?.headers).toMatchObject({ accept: 'application/x-ndjson' });
    opening.write({ audio: '/interview/speech/a' });
    await settle();
    // Playing already, while the interviewer's line has not come.
    expect(h.playing).toHaveLength(1);
    expect(h.playing[0]?.urls).toEqual(['/interview/speech/a']);
    expect(h.playing[0]?.clips.ended).toBe(false);
    h.playing[0]?.events.started();
    expect(h.events).toEqual([{ type: 'speaking', speaking: true }]);
    opening.write({ audio: '/interview/speech/b' });
    const say = 'Welcome to the interview, it is good to have you here. What is a closure?';
    opening.write({ reply: turn({ say, audio: ['/interview/speech/a', '/interview/speech/b'] }) });
    opening.end();
    await started;
    await settle();
    expect(h.events).toContainEqual({ type: 'interviewer', text: say, at: 10_000 });
    // The same line plays on: no second play, its list complete and ended.
    expect(h.playing).toHaveLength(1);
    expect(h.playing[0]?.urls).toEqual(['/interview/speech/a', '/interview/speech/b']);
    expect(h.playing[0]?.clips.ended).toBe(true);
    h.playing[0]?.done();
    await settle();
    expect(h.events.slice(-2)).toEqual([
      { type: 'speaking', speaking: false },
      { type: 'heard', text: say },
    ]);
  });

  it('a reply talked over before its text came is not played again, and the transcript marks where it was cut', async () => {
    const reply = streamedTurn();
    const h = harness([turn({ say: 'Hello. What is a closure?', audio: ['/interview/speech/o'] }), reply]);
    await h.start();
    await settle();
    h.transport.sendText('A closure keeps its scope.');
    await settle();
    reply.write({ audio: '/interview/speech/a' });
    await settle();
    expect(h.playing.map((p) => p.urls)).toEqual([['/interview/speech/a']]);
    h.playing[0]?.events.started();
    // Barge-in a quarter into the one clip known then.
    h.answers().speechStart();
    expect(h.playing).toHaveLength(0);
    const say = 'That is right, closures keep their scope. What is hoisting?';
    reply.write({ audio: '/interview/speech/b' });
    reply.write({ reply: turn({ say, audio: ['/interview/speech/a', '/interview/speech/b'] }) });
    reply.end();
    await settle();
    expect(h.events).toContainEqual({ type: 'interviewer', text: say, at: 10_000 });
    // A quarter of one clip of the two: an eighth of the line.
    expect(h.events).toContainEqual({ type: 'cut-off', text: say, cutAt: Math.round(say.length / 8) });
    expect(h.playing).toHaveLength(0);
    expect(h.events).not.toContainEqual({ type: 'heard', text: say });
  });

  it('asks for the opening, plays its clips; a finished answer is written down at the first pause and sent after the short one', async () => {
    const h = harness([
      turn({ say: 'Welcome. What is a closure?', audio: ['/interview/speech/a', '/interview/speech/b'] }),
      { heard: 'A closure keeps its scope.' },
      turn({ heard: 'A closure keeps its scope.', say: 'Good. Next question.', audio: ['/interview/speech/c'] }),
    ]);
    await h.start();
    expect(h.requests[0]).toMatchObject({ url: '/interview/speech-turn', body: JSON.stringify({ sessionToken: 'sp_secret' }) });
    await tick();
    expect(h.detectorPauseMs()).toBe(DEFAULT_TURN_PAUSES.pieceMs);
    expect(h.events).toContainEqual({ type: 'interviewer', text: 'Welcome. What is a closure?', at: 10_000 });
    expect(h.playing[0]?.urls).toEqual(['/interview/speech/a', '/interview/speech/b']);
    h.playing[0]?.events.started();
    expect(h.events.at(-1)).toEqual({ type: 'speaking', speaking: true });

    // The candidate talks over the greeting: held at the first sound, stopped once it is speech (barge-in).
    h.answers().soundStart();
    expect(h.holds()).toBe(1);
    h.answers().speechStart();
    expect(h.stops()).toBe(1);
    expect(h.events).toContainEqual({ type: 'interim', text: LISTENING_TEXT });
    // The transcript marks about where the voice stopped: a quarter of the line's audio played.
    expect(h.events).toContainEqual({ type: 'cut-off', text: 'Welcome. What is a closure?', cutAt: 7 });
    await settle();
    // Cut off, so not heard to its end: a resume would say it again.
    expect(h.events).not.toContainEqual({ type: 'heard', text: 'Welcome. What is a closure?' });
    h.piece();
    await h.written();
    expect(h.requests[1]).toMatchObject({ url: '/interview/speech-transcript' });
    expect(h.requests[1]?.body).toBeInstanceOf(ArrayBuffer);
    expect(h.requests[1]?.headers).toMatchObject({
      'content-type': 'audio/wav',
      'x-session-token': 'sp_secret',
      'x-user-email': 'a@example.com',
    });
    // The words close a sentence: the short pause ends the answer.
    expect(h.requests[2]).toMatchObject({ url: '/interview/speech-turn' });
    expect(bodyOf(h.requests[2])).toEqual({ sessionToken: 'sp_secret', utterance: 'A closure keeps its scope.', spoken: true });
    expect(h.events).toContainEqual({ type: 'interim', text: TRANSCRIBING_TEXT });
    // Sent once the short pause has passed, counted from the last word (the piece came TURN_PAUSE_PIECE_MS after it).
    const sentAt = 10_000 + DEFAULT_TURN_PAUSES.finishedMs - DEFAULT_TURN_PAUSES.pieceMs;
    expect(h.events).toContainEqual({ type: 'candidate', text: 'A closure keeps its scope.', at: sentAt });
    expect(h.events).toContainEqual({ type: 'interviewer', text: 'Good. Next question.', at: sentAt });
  });

  it('waits the long pause after a filler; speaking again keeps the answer going, and its pieces are sent as one', async () => {
    const h = harness([
      turn({ say: 'What is a closure?' }),
      { heard: 'A closure is um' },
      { heard: 'a function that keeps its scope.' },
      turn({ heard: 'A closure is um a function that keeps its scope.', say: 'Thanks.' }),
    ]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.answers().speechStart();
    h.piece();
    await settle();
    expect(h.requests).toHaveLength(2);
    // Short of the long pause (counted from the last word, TURN_PAUSE_PIECE_MS before the piece), nothing is sent.
    h.advance(DEFAULT_TURN_PAUSES.unfinishedMs - DEFAULT_TURN_PAUSES.pieceMs - 10);
    await settle();
    expect(h.requests).toHaveLength(2);
    h.answers().soundStart();
    h.advance(100);
    h.answers().speechStart();
    h.piece();
    await h.written();
    expect(h.requests.map((r) => r.url)).toEqual([
      '/interview/speech-turn',
      '/interview/speech-transcript',
      '/interview/speech-transcript',
      '/interview/speech-turn',
    ]);
    expect(bodyOf(h.requests[3])).toEqual({
      sessionToken: 'sp_secret',
      utterance: 'A closure is um a function that keeps its scope.',
      spoken: true,
    });
  });

  it('speaking again before the words are written down: a pause long enough for them still ends the answer there', async () => {
    const h = harness([
      turn({ say: 'What is a closure?' }),
      { heard: 'it is hard to say' },
      turn({ heard: 'it is hard to say', say: 'Take your time.' }),
      { heard: 'I want to stop.' },
      turn({ heard: 'I want to stop.', say: 'Goodbye.' }),
    ]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.piece();
    // The next answer begins 2 s after the last word, before speech-to-text has answered.
    h.advance(2000 - DEFAULT_TURN_PAUSES.pieceMs);
    h.answers().soundStart();
    await settle();
    h.piece();
    await h.written();
    expect(bodyOf(h.requests[2])).toEqual({ sessionToken: 'sp_secret', utterance: 'it is hard to say', spoken: true });
    expect(bodyOf(h.requests[4])).toEqual({ sessionToken: 'sp_secret', utterance: 'I want to stop.', spoken: true });
  });

  it('once the recogniser is known to punctuate, on-topic words without a closed sentence wait the middle pause', async () => {
    const h = harness([
      turn({ say: 'What is a closure?' }),
      { heard: 'closures keep their outer variables alive' },
      turn({ heard: 'closures keep their outer variables alive', say: 'And why is that useful?' }),
      { heard: 'It keeps state private.' },
      turn({ heard: 'It keeps state private.', say: 'What else can a closure do?' }),
      { heard: 'a closure can make private counters' },
      { heard: 'and small factories of functions.' },
      turn({ say: 'Thanks.' }),
    ]);
    await h.start();
    await tick();
    // No punctuation seen yet: the words answer the question, so the short pause ends the answer.
    h.answers().soundStart();
    h.piece();
    await h.written();
    expect(bodyOf(h.requests[2])).toMatchObject({ utterance: 'closures keep their outer variables alive' });
    // The recogniser writes a full stop: from now on it is known to punctuate.
    h.answers().soundStart();
    h.piece();
    await h.written();
    expect(bodyOf(h.requests[4])).toMatchObject({ utterance: 'It keeps state private.' });
    // On-topic, but no sentence closed: a pause shorter than TURN_PAUSE_UNSURE_MS does not end it.
    h.answers().soundStart();
    h.piece();
    await settle();
    h.advance(DEFAULT_TURN_PAUSES.unsureMs - DEFAULT_TURN_PAUSES.pieceMs - 10);
    await settle();
    expect(h.requests).toHaveLength(6);
    h.answers().soundStart();
    h.piece();
    await h.written();
    expect(bodyOf(h.requests[7])).toMatchObject({ utterance: 'a closure can make private counters and small factories of functions.' });
  });

  it('an answer that trails off is sent after the long pause', async () => {
    const h = harness([turn({ say: 'What is a closure?' }), { heard: 'It keeps the scope because' }, turn({ say: 'Go on.' })]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.piece();
    await settle();
    h.advance(DEFAULT_TURN_PAUSES.unfinishedMs - DEFAULT_TURN_PAUSES.pieceMs);
    await settle();
    expect(bodyOf(h.requests[2])).toEqual({ sessionToken: 'sp_secret', utterance: 'It keeps the scope because', spoken: true });
  });

  it('endAnswer (Done, Enter) sends the answer at once: the detector hands over what it heard', async () => {
    const h = harness([turn({ say: 'What is a closure?' }), { heard: 'It keeps the scope and' }, turn({ say: 'Thanks.' })]);
    await h.start();
    await tick();
    h.transport.endAnswer?.();
    expect(h.flushed()).toBe(0);
    h.answers().soundStart();
    h.answers().speechStart();
    h.transport.endAnswer?.();
    expect(h.flushed()).toBe(1);
    h.piece();
    await settle();
    expect(bodyOf(h.requests[2])).toEqual({ sessionToken: 'sp_secret', utterance: 'It keeps the scope and', spoken: true });
  });

  it('a noise that is not speech lets the interviewer go on after TURN_PAUSE_HELD_MS', async () => {
    const h = harness([turn({ say: 'What is a closure?', audio: ['/a'] })]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.answers().misfire();
    expect(h.events.at(-1)).toEqual({ type: 'interim', text: '' });
    // Held a while for the candidate to go on, then released.
    expect([h.holds(), h.releases(), h.stops()]).toEqual([1, 0, 0]);
    h.advance(DEFAULT_TURN_PAUSES.heldMs - 1);
    expect(h.releases()).toBe(0);
    h.advance(1);
    expect([h.holds(), h.releases(), h.stops()]).toEqual([1, 1, 0]);
  });

  it('a filler the detector let go, then speech while the voice is held: the voice stops for good, never played on', async () => {
    const h = harness([turn({ say: 'What is a closure?', audio: ['/a'] })]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.answers().misfire();
    h.advance(DEFAULT_TURN_PAUSES.heldMs - 200);
    h.answers().soundStart();
    h.answers().speechStart();
    h.advance(DEFAULT_TURN_PAUSES.heldMs);
    expect([h.holds(), h.releases(), h.stops()]).toEqual([2, 0, 1]);
  });

  it('an answer nothing of which could be written down gets the apology, spoken and shown, no card; the next good turn clears it', async () => {
    const h = harness([
      turn({ say: 'What is a closure?' }),
      { heard: null },
      turn({ say: 'Sorry, I could not hear that answer.', audio: ['/interview/speech/x'], retry: true }),
      { heard: 'Scope.' },
      turn({ heard: 'Scope.', say: 'Thanks.' }),
    ]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.piece();
    await settle();
    // No words to judge by: the long pause.
    h.advance(DEFAULT_TURN_PAUSES.unfinishedMs);
    await settle();
    expect(bodyOf(h.requests[2])).toEqual({ sessionToken: 'sp_secret', spoken: true });
    expect(h.events).toContainEqual({ type: 'notice', text: 'Sorry, I could not hear that answer.' });
    expect(h.events.filter((e) => e.type === 'interviewer')).toHaveLength(1);
    h.playing[0]?.done();
    await settle();
    h.answers().soundStart();
    h.piece();
    await h.written();
    expect(h.events).toContainEqual({ type: 'notice', text: '' });
    expect(h.events).toContainEqual({
      type: 'candidate',
      text: 'Scope.',
      at: 10_000 + DEFAULT_TURN_PAUSES.unfinishedMs + DEFAULT_TURN_PAUSES.finishedMs - DEFAULT_TURN_PAUSES.pieceMs,
    });
  });

  it('nothing heard (a cough) takes no turn', async () => {
    const h = harness([turn({ say: 'What is a closure?' }), { heard: '' }]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.piece();
    await settle();
    h.advance(10_000);
    await settle();
    expect(h.requests).toHaveLength(2);
    expect(h.events.at(-1)).toEqual({ type: 'interim', text: '' });
  });

  it('close_session: microphone off, close requested, the remark played, then done', async () => {
    const h = harness([
      turn({ say: 'Hi.' }),
      { heard: 'I want to stop.' },
      turn({ heard: 'I want to stop.', say: 'Goodbye.', closeSession: { reason: 'asked' }, audio: ['/c'] }),
    ]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.piece();
    await h.written();
    expect(h.destroyed()).toBe(1);
    expect(h.events).toContainEqual({ type: 'close-requested', reason: 'asked' });
    expect(h.events.some((e) => e.type === 'closing-remark-done')).toBe(false);
    h.playing[0]?.events.clipFailed();
    h.playing[0]?.done();
    await tick();
    expect(h.events).toContainEqual({ type: 'notice', text: NO_VOICE_NOTICE });
    expect(h.events.at(-1)).toEqual({ type: 'closing-remark-done' });
  });

  it('without a microphone it says so and typed answers still work', async () => {
    const h = harness([turn({ say: 'Hi.' }), turn({ say: 'Next.' })], { micFails: true });
    await h.start();
    await tick();
    expect(h.events).toContainEqual({ type: 'notice', text: NO_MICROPHONE_NOTICE });
    h.transport.sendText('  typed answer ');
    expect(h.events).toContainEqual({ type: 'candidate', text: 'typed answer', at: 10_000 });
    await tick();
    await tick();
    expect(h.requests[1]).toMatchObject({
      url: '/interview/speech-turn',
      body: JSON.stringify({ sessionToken: 'sp_secret', utterance: 'typed answer', input: 'typed' }),
    });
  });

  it('a refused piece of an answer ends the session with the server sentence', async () => {
    const h = harness([turn({ say: 'Hi.' })]);
    await h.start();
    await tick();
    h.answers().soundStart();
    h.piece();
    await settle();
    expect(h.events.at(-1)).toEqual({ type: 'failed', message: 'no reply' });
    expect(h.destroyed()).toBe(1);
  });

  it('a turn that does not get through, or a 5xx, is reconnectable and carries the typed answer that got no reply', async () => {
    for (const missing of ['network', 'server-error'] as const) {
      const h = harness([turn({ say: 'Hi.' })], { missing });
      await h.start();
      await tick();
      h.transport.sendText('My typed answer.');
      for (let i = 0; i < 3; i++) await tick();
      expect(h.events.at(-1)).toEqual({
        type: 'failed',
        message: 'The interviewer could not be reached. Please try again in a moment.',
        reconnectable: true,
        pendingAnswer: 'My typed answer.',
        pendingTyped: true,
      });
      expect(h.destroyed()).toBe(1);
    }
  });

  it('going offline ends this connection once, reconnectable; closing stops watching', async () => {
    const h = harness([turn({ say: 'Hi.' })]);
    await h.start();
    await tick();
    h.goOffline();
    h.goOffline();
    expect(h.events.filter((e) => e.type === 'failed')).toEqual([{ type: 'failed', message: OFFLINE_MESSAGE, reconnectable: true }]);
    h.transport.close();
    expect(h.watchers.size).toBe(0);
  });

  it('a resumed start asks for the continuation turn with the answer that got no reply', async () => {
    const h = harness([turn({ say: 'Welcome back. What is a closure?' })]);
    await h.start({ resumed: { pendingAnswer: 'My typed answer.' } });
    expect(h.requests[0]).toMatchObject({
      url: '/interview/speech-turn',
      body: JSON.stringify({ sessionToken: 'sp_secret', utterance: 'My typed answer.', resume: true }),
    });
  });
});
