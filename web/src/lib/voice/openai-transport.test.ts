/**
 * The transport's WebRTC plumbing against fake browser parts (Node has no RTCPeerConnection).
 * The real browser path is covered by the Playwright specs against the local realtime peer.
 */
import { DEFAULT_TURN_PAUSES } from '../../../../domain/answer-ending';
import { describe, expect, it } from 'vitest';
import type { OpenAiToken } from '../../../../contract';
import { createOpenAiTransport, DISCONNECT_GRACE_MS, type OpenAiTransportDeps } from './openai-transport';
import type { TransportEvent } from './types';
import { isReconnectable, TurnFailedError } from './turn-failure';

class FakeChannel {
  readyState: RTCDataChannelState = 'connecting';
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  constructor(readonly label: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  open() {
    this.readyState = 'open';
    this.onopen?.();
  }
  close() {
    if (this.readyState === 'closed') return;
    this.readyState = 'closed';
    this.onclose?.();
  }
  receive(event: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
}

class FakePeer {
  connectionState: RTCPeerConnectionState = 'new';
  channel: FakeChannel | null = null;
  tracks: unknown[] = [];
  remote: RTCSessionDescriptionInit | null = null;
  closed = false;
  ontrack: ((e: { streams: unknown[]; track: unknown }) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  createDataChannel(label: string) {
    this.channel = new FakeChannel(label);
    return this.channel;
  }
  addTrack(track: unknown) {
    this.tracks.push(track);
  }
  async createOffer() {
    return { type: 'offer', sdp: 'v=0\r\no=fake-offer\r\n' };
  }
  async setLocalDescription() {}
  async setRemoteDescription(desc: RTCSessionDescriptionInit) {
    this.remote = desc;
  }
  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }
  setState(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

const token: OpenAiToken = {
  transport: 'openai-realtime',
  client_secret: { value: 'rt_test_123', expires_at: 2_000_000_000 },
  sessionId: 'sess-1',
  sdpUrl: '/interview/sessions/s-1/sdp',
  model: 'gpt-realtime-2.1',
};

function setup(respond: () => Response = () => new Response('v=0\r\no=fake-answer\r\n', { status: 201 })) {
  const peer = new FakePeer();
  const track = {
    kind: 'audio',
    stopped: false,
    stop() {
      this.stopped = true;
    },
  };
  const stream = { getTracks: () => [track], getAudioTracks: () => [track] };
  const audio = {
    srcObject: null as unknown,
    removed: false,
    remove() {
      this.removed = true;
    },
  };
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const constraints: MediaStreamConstraints[] = [];
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  const deps: OpenAiTransportDeps = {
    getUserMedia: async (c) => {
      constraints.push(c);
      return stream as unknown as MediaStream;
    },
    createPeerConnection: () => peer as unknown as RTCPeerConnection,
    fetch: (async (url: string, init?: RequestInit) => {
      requests.push({ url, init });
      return respond();
    }) as typeof fetch,
    createAudioElement: () => audio as unknown as HTMLAudioElement,
    now: () => 100,
    schedule: (fn, ms) => {
      const timer = { fn, ms, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  };
  const events: TransportEvent[] = [];
  const transport = createOpenAiTransport(token, { userEmail: 'a@b.co', turnPauses: DEFAULT_TURN_PAUSES }, deps);
  const started = transport.start(token, (e) => events.push(e), 0);
  return { peer, track, audio, requests, constraints, events, transport, started, timers };
}

/** Lets the awaited steps of start() run up to the point where it waits for the channel. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createOpenAiTransport', () => {
  it('posts the SDP offer to our server with our session token and resolves when oai-events opens', async () => {
    const t = setup();
    await settle();
    expect(t.constraints).toEqual([{ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } }]);
    expect(t.peer.tracks).toEqual([t.track]);
    expect(t.peer.channel?.label).toBe('oai-events');
    expect(t.requests).toEqual([
      {
        url: '/interview/sessions/s-1/sdp',
        init: {
          method: 'POST',
          body: 'v=0\r\no=fake-offer\r\n',
          headers: { Authorization: 'Bearer rt_test_123', 'Content-Type': 'application/sdp' },
        },
      },
    ]);
    expect(t.peer.remote).toEqual({ type: 'answer', sdp: 'v=0\r\no=fake-answer\r\n' });
    t.peer.channel?.open();
    await t.started;
    expect(t.transport.acceptsTypedAnswers).toBe(false);

    const remoteStream = { id: 'remote' };
    t.peer.ontrack?.({ streams: [remoteStream], track: {} });
    expect(t.audio.srcObject).toBe(remoteStream);

    t.peer.channel?.receive({ type: 'session.created' });
    expect(t.peer.channel?.sent).toEqual(['{"type":"response.create"}']);
    t.peer.channel?.receive({ type: 'response.output_audio_transcript.done', transcript: 'Hello.' });
    expect(t.events).toEqual([{ type: 'interviewer', text: 'Hello.', at: 100 }]);
  });

  it('rejects with the provider message when the SDP POST fails, and releases the microphone', async () => {
    const t = setup(() => Response.json({ error: { message: 'Invalid ephemeral key.' } }, { status: 401 }));
    await expect(t.started).rejects.toThrow('The voice service refused the connection (HTTP 401): Invalid ephemeral key.');
    expect(t.track.stopped).toBe(true);
    expect(t.peer.closed).toBe(true);
    expect(t.audio.removed).toBe(true);
    expect(t.events).toEqual([]);
  });

  it("our server's 4xx sentence is final (not reconnectable) and is the message; a 5xx stays a reconnectable failure", async () => {
    const ended = 'This interview session has already ended. Please start a new session.';
    const refused = setup(() => Response.json({ error: ended }, { status: 409 }));
    const error: unknown = await refused.started.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    expect(error).toMatchObject({ message: ended, reconnectable: false });
    expect(isReconnectable(error)).toBe(false);
    expect(refused.peer.closed).toBe(true);
    const busy = setup(() =>
      Response.json({ error: 'The AI provider is having problems right now. Please try again in a few minutes.' }, { status: 503 }),
    );
    const failure: unknown = await busy.started.catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(TurnFailedError);
    expect(isReconnectable(failure)).toBe(true);
    expect(failure).toMatchObject({
      message:
        'The voice service refused the connection (HTTP 503): The AI provider is having problems right now. Please try again in a few minutes.',
    });
  });

  it('rejects with a plain text when the voice service cannot be reached', async () => {
    const t = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(t.started).rejects.toThrow('The voice service could not be reached.');
    expect(t.track.stopped).toBe(true);
  });

  it('rejects when the connection fails before the channel opens', async () => {
    const t = setup();
    await settle();
    t.peer.setState('failed');
    await expect(t.started).rejects.toThrow('The voice connection could not be established.');
  });

  it('emits failed once when an open connection drops', async () => {
    const t = setup();
    await settle();
    t.peer.channel?.open();
    await t.started;
    t.peer.setState('disconnected');
    t.peer.channel?.close();
    t.peer.setState('failed');
    expect(t.events).toEqual([{ type: 'failed', message: 'The connection to the voice service was lost.', reconnectable: true }]);
  });

  it('waits out a short disconnection, and ends only when the connection stays down', async () => {
    const t = setup();
    await settle();
    t.peer.channel?.open();
    await t.started;
    t.peer.setState('disconnected');
    expect(t.timers.map((x) => x.ms)).toEqual([DISCONNECT_GRACE_MS]);
    t.peer.setState('connected'); // healed by itself
    expect(t.timers[0]?.cancelled).toBe(true);
    expect(t.events).toEqual([]);

    t.peer.setState('disconnected');
    t.timers[1]?.fn(); // still down after the grace
    expect(t.events).toEqual([{ type: 'failed', message: 'The connection to the voice service was lost.', reconnectable: true }]);
  });

  it('closes idempotently and says nothing about its own hang-up', async () => {
    const t = setup();
    await settle();
    t.peer.channel?.open();
    await t.started;
    t.transport.close();
    t.transport.close();
    expect(t.peer.closed).toBe(true);
    expect(t.track.stopped).toBe(true);
    expect(t.peer.channel?.readyState).toBe('closed');
    expect(t.events).toEqual([]);
  });

  it('stops the microphone when the closing remark of the server starts, and sends nothing for close_session', async () => {
    const t = setup();
    await settle();
    t.peer.channel?.open();
    await t.started;
    t.peer.channel?.receive({
      type: 'response.done',
      response: {
        status: 'completed',
        output: [{ type: 'function_call', name: 'close_session', call_id: 'c1', arguments: '{"reason":"done"}' }],
      },
    });
    expect(t.track.stopped).toBe(false);
    t.peer.channel?.receive({ type: 'response.created', response: { id: 'resp_bye', metadata: { purpose: 'closing' } } });
    expect(t.track.stopped).toBe(true);
    expect(t.peer.closed).toBe(false);
    expect(t.events).toEqual([{ type: 'close-requested', reason: 'the interviewer is closing the interview' }]);
    expect(t.peer.channel?.sent).toEqual([]);
  });

  it('the server hanging up after the goodbye ends the remark quietly: no failure is reported', async () => {
    const t = setup();
    await settle();
    t.peer.channel?.open();
    await t.started;
    t.peer.channel?.receive({ type: 'response.created', response: { id: 'resp_bye', metadata: { purpose: 'closing' } } });
    t.peer.channel?.close();
    t.peer.setState('failed');
    expect(t.events).toEqual([
      { type: 'close-requested', reason: 'the interviewer is closing the interview' },
      { type: 'closing-remark-done' },
    ]);
  });
});
