import { describe, expect, it } from 'vitest';
import type { SpeechPipelineToken, SpeechTurnResponse } from '../../../../contract';
import type { AnswerEvents, ClipEvents, VoicePlayer } from './speech-pipeline-io';
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

function harness(replies: SpeechTurnResponse[], options: { micFails?: boolean; missing?: 'refused' | 'server-error' | 'network' } = {}) {
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
  const playing: Array<{ urls: string[]; events: ClipEvents; done: () => void }> = [];
  let stops = 0;
  const player: VoicePlayer = {
    play: (urls, clipEvents) => new Promise((resolve) => playing.push({ urls, events: clipEvents, done: () => resolve() })),
    stop: () => {
      stops++;
      for (const p of playing.splice(0)) p.done();
    },
  };
  const transport = createSpeechPipelineTransport(
    token,
    { userEmail: 'a@example.com' },
    {
      fetch: async (url, init) => {
        requests.push({ url: String(url), headers: init?.headers as Record<string, string>, body: init?.body });
        const reply = replies.shift();
        if (reply) return new Response(JSON.stringify(reply), { status: 200 });
        if (options.missing === 'network') throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ error: 'no reply' }), { status: options.missing === 'server-error' ? 503 : 409 });
      },
      connectivity,
      startDetector: async (e) => {
        if (options.micFails) throw new Error('NotAllowedError');
        answers = e;
        return { destroy: () => void destroyed++ };
      },
      player,
      now: () => 1000,
    },
  );
  return {
    transport,
    requests,
    events,
    playing,
    answers: () => answers as AnswerEvents,
    destroyed: () => destroyed,
    stops: () => stops,
    start: (startOptions?: StartOptions) => transport.start(token, (e) => events.push(e), 0, startOptions),
    watchers,
    goOffline: () => {
      online = false;
      for (const watcher of [...watchers]) watcher('offline');
    },
  };
}

describe('speech-pipeline transport', () => {
  it('asks for the opening, plays its clips, sends a spoken answer as WAV and shows what was heard', async () => {
    const h = harness([
      turn({ say: 'Welcome. What is a closure?', audio: ['/interview/speech/a', '/interview/speech/b'] }),
      turn({ heard: 'It keeps its scope.', say: 'Good. Next question.', audio: ['/interview/speech/c'] }),
    ]);
    await h.start();
    expect(h.requests[0]).toMatchObject({ url: '/interview/speech-turn', body: JSON.stringify({ sessionToken: 'sp_secret' }) });
    await tick();
    expect(h.events).toContainEqual({ type: 'interviewer', text: 'Welcome. What is a closure?', at: 1000 });
    expect(h.playing[0]?.urls).toEqual(['/interview/speech/a', '/interview/speech/b']);
    h.playing[0]?.events.started();
    expect(h.events.at(-1)).toEqual({ type: 'speaking', speaking: true });

    // The candidate talks over the greeting: it stops (barge-in).
    h.answers().speechStart();
    expect(h.stops()).toBe(1);
    expect(h.events).toContainEqual({ type: 'interim', text: LISTENING_TEXT });
    const wav = new ArrayBuffer(44);
    h.answers().speechEnd(wav);
    expect(h.events.at(-1)).toEqual({ type: 'interim', text: TRANSCRIBING_TEXT });
    await tick();
    await tick();
    expect(h.requests[1]).toMatchObject({ url: '/interview/speech-answer', body: wav });
    expect(h.requests[1]?.headers).toMatchObject({
      'content-type': 'audio/wav',
      'x-session-token': 'sp_secret',
      'x-user-email': 'a@example.com',
    });
    expect(h.events).toContainEqual({ type: 'candidate', text: 'It keeps its scope.', at: 1000 });
    expect(h.events).toContainEqual({ type: 'interviewer', text: 'Good. Next question.', at: 1000 });
  });

  it('an apology is spoken and shown, no card; the next good turn clears it', async () => {
    const h = harness([
      turn({ say: 'What is a closure?' }),
      turn({ say: 'Sorry, I could not hear that answer.', audio: ['/interview/speech/x'], retry: true }),
      turn({ heard: 'Scope.', say: 'Thanks.' }),
    ]);
    await h.start();
    await tick();
    h.answers().speechEnd(new ArrayBuffer(44));
    await tick();
    await tick();
    expect(h.events).toContainEqual({ type: 'notice', text: 'Sorry, I could not hear that answer.' });
    expect(h.events.filter((e) => e.type === 'interviewer')).toHaveLength(1);
    h.playing[0]?.done();
    h.answers().speechEnd(new ArrayBuffer(44));
    for (let i = 0; i < 4; i++) await tick();
    expect(h.events).toContainEqual({ type: 'notice', text: '' });
    expect(h.events).toContainEqual({ type: 'candidate', text: 'Scope.', at: 1000 });
  });

  it('close_session: microphone off, close requested, the remark played, then done', async () => {
    const h = harness([
      turn({ say: 'Hi.' }),
      turn({ heard: 'I want to stop.', say: 'Goodbye.', closeSession: { reason: 'asked' }, audio: ['/c'] }),
    ]);
    await h.start();
    await tick();
    h.answers().speechEnd(new ArrayBuffer(44));
    for (let i = 0; i < 3; i++) await tick();
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
    expect(h.events).toContainEqual({ type: 'candidate', text: 'typed answer', at: 1000 });
    await tick();
    await tick();
    expect(h.requests[1]).toMatchObject({
      url: '/interview/speech-turn',
      body: JSON.stringify({ sessionToken: 'sp_secret', utterance: 'typed answer' }),
    });
  });

  it('a refused turn ends the session with the server sentence', async () => {
    const h = harness([turn({ say: 'Hi.' })]);
    await h.start();
    await tick();
    h.answers().speechEnd(new ArrayBuffer(44));
    for (let i = 0; i < 3; i++) await tick();
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
