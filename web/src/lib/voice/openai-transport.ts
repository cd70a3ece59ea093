/**
 * The OpenAI Realtime (GA) voice transport: microphone → RTCPeerConnection → the provider, events
 * over the `oai-events` data channel, the interviewer's voice played from the remote track.
 * The SDP offer goes to *our* server (the token's `sdpUrl`, with our short-lived session token as
 * bearer), which opens the call with its own key and keeps the authoritative transcript; the
 * audio and the data channel still flow between the browser and the provider directly.
 */
import type { OpenAiToken, TokenResponse } from '../../../../contract';
import { apiUrl } from '../api-base';
import { OpenAiEventHandler } from './openai-events';
import { TurnFailedError } from './turn-failure';
import type { TransportContext, TransportListener, VoiceTransport } from './types';
import { schedule, type Schedule } from '../schedule';

/** Browser parts, injectable so unit tests can run the transport against fakes. */
export interface OpenAiTransportDeps {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  createPeerConnection(): RTCPeerConnection;
  fetch: typeof fetch;
  /** Where the interviewer's voice is played; attached to the document so autoplay works. */
  createAudioElement(): HTMLAudioElement;
  now(): number;
  /** Runs fn after ms; returns a cancel function. */
  schedule: Schedule;
}

/**
 * `disconnected` can heal by itself (a Wi-Fi hiccup, an ICE consent glitch); only a connection
 * still not back after this long ends the interview (the Agents SDK also waits 5 s; docs/openai-realtime-mode.md).
 */
export const DISCONNECT_GRACE_MS = 5000;

const CONNECTION_LOST = 'The connection to the voice service was lost.';

function browserDeps(): OpenAiTransportDeps {
  return {
    getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
    createPeerConnection: () => new RTCPeerConnection(),
    fetch: (input, init) => fetch(input, init),
    createAudioElement: () => {
      const audio = document.createElement('audio');
      audio.autoplay = true;
      audio.dataset.testid = 'interviewer-audio';
      audio.style.display = 'none';
      document.body.appendChild(audio);
      return audio;
    },
    now: () => performance.now(),
    schedule,
  };
}

const MIC_CONSTRAINTS: MediaStreamConstraints = {
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};

/**
 * Our server answers a failed SDP POST with `{error: "sentence"}` (a provider may say `{error: {message}}`).
 * Our server's 4xx sentence is final (e.g. the session has ended): a TurnFailedError that is not
 * reconnectable, so a resumed call shows it in the reconnect choice (docs/product-rules.md, Session
 * lifecycle, Reconnecting) as a refused resume does.
 */
async function sdpFailure(res: Response): Promise<Error> {
  let detail = '';
  let sentence = false;
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && 'error' in body) {
      const err = body.error;
      if (typeof err === 'string') {
        detail = err;
        sentence = true;
      } else if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') detail = err.message;
    }
  } catch {
    // not JSON; the status says enough
  }
  if (sentence && detail && res.status >= 400 && res.status < 500) return new TurnFailedError(detail, false);
  return new Error(`The voice service refused the connection (HTTP ${res.status})${detail ? `: ${detail}` : '.'}`);
}

export function createOpenAiTransport(
  token: OpenAiToken,
  _ctx: TransportContext,
  deps: OpenAiTransportDeps = browserDeps(),
): VoiceTransport {
  let mic: MediaStream | null = null;
  let pc: RTCPeerConnection | null = null;
  let channel: RTCDataChannel | null = null;
  let audio: HTMLAudioElement | null = null;
  let handler: OpenAiEventHandler | null = null;
  let closed = false;

  const stopMicrophone = (): void => {
    mic?.getTracks().forEach((track) => track.stop());
  };

  const close = (): void => {
    if (closed) return;
    closed = true;
    handler?.stop();
    stopMicrophone();
    try {
      channel?.close();
    } catch {
      // already closed
    }
    try {
      pc?.close();
    } catch {
      // already closed
    }
    if (audio) {
      audio.srcObject = null;
      audio.remove();
    }
  };

  const start = async (startToken: TokenResponse, listener: TransportListener, startedAt: number): Promise<void> => {
    const active: OpenAiToken = startToken.transport === 'openai-realtime' ? startToken : token;
    const events = new OpenAiEventHandler({
      send: (event) => {
        if (channel?.readyState === 'open') channel.send(JSON.stringify(event));
      },
      emit: (event) => {
        if (!closed) listener(event);
      },
      stopMicrophone,
      now: deps.now,
      startedAt,
    });
    handler = events;

    try {
      mic = await deps.getUserMedia(MIC_CONSTRAINTS);
      if (closed) throw new Error('The session was closed while it was starting.');
      const peer = deps.createPeerConnection();
      pc = peer;
      const player = deps.createAudioElement();
      audio = player;
      peer.ontrack = (e) => {
        player.srcObject = e.streams[0] ?? new MediaStream([e.track]);
      };
      for (const track of mic.getAudioTracks()) peer.addTrack(track, mic);

      const dc = peer.createDataChannel('oai-events');
      channel = dc;
      dc.onmessage = (e: MessageEvent) => events.handleMessage(e.data);

      const opened = new Promise<void>((resolve, reject) => {
        let isOpen = false;
        dc.onopen = () => {
          isOpen = true;
          resolve();
        };
        dc.onclose = () => {
          if (!isOpen) reject(new Error('The voice connection closed before it was ready.'));
          else if (!closed) events.fail(CONNECTION_LOST, true);
        };
        let cancelGrace: (() => void) | null = null;
        peer.onconnectionstatechange = () => {
          const state = peer.connectionState;
          if (state === 'connected') {
            cancelGrace?.();
            cancelGrace = null;
            return;
          }
          if (state !== 'failed' && state !== 'disconnected' && state !== 'closed') return;
          if (!isOpen) return reject(new Error('The voice connection could not be established.'));
          if (state === 'disconnected') {
            cancelGrace ??= deps.schedule(() => {
              cancelGrace = null;
              if (!closed && peer.connectionState !== 'connected') events.fail(CONNECTION_LOST, true);
            }, DISCONNECT_GRACE_MS);
            return;
          }
          cancelGrace?.();
          cancelGrace = null;
          if (!closed) events.fail(CONNECTION_LOST, true);
        };
      });

      // Awaited only after the SDP exchange; a rejection that lands earlier must not go unhandled.
      opened.catch(() => undefined);

      const offer = await peer.createOffer();
      await peer.setLocalDescription(offer);
      let res: Response;
      try {
        // A relative sdpUrl is our API (the usual case); an absolute one is used as given.
        const url = /^https?:\/\//.test(active.sdpUrl) ? active.sdpUrl : apiUrl(active.sdpUrl);
        res = await deps.fetch(url, {
          method: 'POST',
          body: offer.sdp ?? '',
          headers: { Authorization: `Bearer ${active.client_secret.value}`, 'Content-Type': 'application/sdp' },
        });
      } catch {
        // fetch only says "Failed to fetch"; name the part that failed.
        throw new Error('The voice service could not be reached.');
      }
      if (!res.ok) throw await sdpFailure(res);
      const answer = await res.text();
      if (closed) throw new Error('The session was closed while it was starting.');
      await peer.setRemoteDescription({ type: 'answer', sdp: answer });
      await opened;
      if (closed) throw new Error('The session was closed while it was starting.');
    } catch (err) {
      close();
      throw err instanceof Error ? err : new Error('The voice session could not start.');
    }
  };

  return {
    acceptsTypedAnswers: false,
    start,
    // Voice only: the candidate answers by speaking. Kept harmless in case a caller sends text anyway.
    sendText: (text: string) => {
      if (closed || channel?.readyState !== 'open' || !text.trim()) return;
      channel.send(
        JSON.stringify({
          type: 'conversation.item.create',
          item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: text.trim() }] },
        }),
      );
      channel.send(JSON.stringify({ type: 'response.create' }));
    },
    close,
  };
}
