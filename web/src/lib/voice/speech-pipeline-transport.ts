/**
 * Speech-pipeline transport (docs/speech-pipeline-mode.md): spoken interviews in every browser,
 * with the speech servers the operator chose. The browser finds where each answer ends with a
 * voice-activity detector and sends its audio (POST /interview/speech-answer); the server
 * transcribes it, asks the interviewer and streams the reply's voice, which plays as it arrives.
 * The candidate can talk over the interviewer (playback stops) and can always type instead.
 */
import type { SpeechPipelineToken, SpeechTurnResponse, TokenResponse } from '../../../../contract';
import { apiUrl } from '../api-base';
import { serverErrorOf } from '../http';
import {
  createAudioPlayer,
  startMicrophoneVad,
  type AnswerDetector,
  type StartAnswerDetector,
  type VoicePlayer,
} from './speech-pipeline-io';
import { browserConnectivity, type Connectivity } from './connectivity';
import { isReconnectable, OFFLINE_MESSAGE, TurnFailedError } from './turn-failure';
import type { StartOptions, TransportContext, TransportEvent, TransportListener, VoiceTransport } from './types';

export const NO_MICROPHONE_NOTICE =
  'The microphone is not available, so spoken answers cannot be heard. Type your answers in the box below and press Send.';
export const NO_VOICE_NOTICE = "The interviewer's voice could not be played. Read the lines on screen.";
export const TURN_FAILED_MESSAGE = 'The interviewer could not be reached. Please try again in a moment.';
export const LISTENING_TEXT = 'Listening…';
export const TRANSCRIBING_TEXT = 'Writing down your answer…';

export interface SpeechPipelineOptions {
  fetch?: typeof fetch;
  startDetector?: StartAnswerDetector;
  player?: VoicePlayer;
  now?: () => number;
  /** Online/offline and page visibility (the page's own by default). */
  connectivity?: Connectivity;
}

type Request = { kind: 'text'; utterance?: string; resume?: boolean } | { kind: 'audio'; wav: ArrayBuffer };

export function createSpeechPipelineTransport(
  token: SpeechPipelineToken,
  ctx: TransportContext,
  options: SpeechPipelineOptions = {},
): VoiceTransport {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const startDetector = options.startDetector ?? startMicrophoneVad;
  const player = options.player ?? createAudioPlayer();
  const now = options.now ?? (() => performance.now());
  const connectivity = options.connectivity ?? browserConnectivity();

  let sessionToken = token.client_secret.value;
  let listener: TransportListener = () => undefined;
  let startedAt = 0;
  let started = false;
  let closed = false;
  let closing = false;
  let detector: AnswerDetector | null = null;
  let queue: Promise<void> = Promise.resolve();
  const inFlight = new Set<AbortController>();
  // One notice line: what is true for the whole session, then the latest apology (cleared by the next good turn).
  let lasting = '';
  let apology = '';
  /** Typed answers sent whose reply has not come back: what a continuation sends again after a drop. */
  const pending: string[] = [];
  let stopWatching: () => void = () => undefined;

  const emit = (event: TransportEvent): void => {
    if (!closed) listener(event);
  };
  const at = (): number => Math.max(0, Math.round(now() - startedAt));
  const showNotice = (): void => emit({ type: 'notice', text: [lasting, apology].filter(Boolean).join(' ') });
  const addLasting = (text: string): void => {
    if (lasting.includes(text)) return;
    lasting = [lasting, text].filter(Boolean).join(' ');
    showNotice();
  };

  async function send(request: Request): Promise<SpeechTurnResponse> {
    const controller = new AbortController();
    inFlight.add(controller);
    const headers: Record<string, string> = { 'x-user-email': ctx.userEmail };
    let body: BodyInit;
    let path: string;
    if (request.kind === 'audio') {
      path = '/interview/speech-answer';
      headers['content-type'] = 'audio/wav';
      headers['x-session-token'] = sessionToken;
      body = request.wav;
    } else {
      path = '/interview/speech-turn';
      headers['content-type'] = 'application/json';
      body = JSON.stringify({
        sessionToken,
        ...(request.utterance === undefined ? {} : { utterance: request.utterance }),
        ...(request.resume ? { resume: true } : {}),
      });
    }
    try {
      let res: Response;
      try {
        res = await doFetch(apiUrl(path), { method: 'POST', headers, body, signal: controller.signal });
      } catch {
        throw new TurnFailedError(TURN_FAILED_MESSAGE, true);
      }
      const answer: unknown = await res.json().catch(() => null);
      // A 4xx sentence is final; no answer, a 5xx or a body that is not ours may go on after a resume.
      const refusal = res.status < 500 ? serverErrorOf(answer) : null;
      if (!res.ok) throw new TurnFailedError(refusal ?? TURN_FAILED_MESSAGE, refusal === null);
      if (!isSpeechTurn(answer)) throw new TurnFailedError(TURN_FAILED_MESSAGE, true);
      return answer;
    } finally {
      inFlight.delete(controller);
    }
  }

  async function speak(turn: SpeechTurnResponse): Promise<void> {
    if (closed || turn.audio.length === 0) return;
    let speaking = false;
    await player.play(
      turn.audio.map((path) => apiUrl(path)),
      {
        started: () => {
          speaking = true;
          emit({ type: 'speaking', speaking: true });
        },
        clipFailed: () => addLasting(NO_VOICE_NOTICE),
      },
    );
    if (speaking) emit({ type: 'speaking', speaking: false });
  }

  async function handle(turn: SpeechTurnResponse, answeredAt: number | null): Promise<void> {
    if (closed) return;
    if (turn.retry) {
      // Nothing heard (noise) says nothing; an upstream failure apologises and listens again.
      if (turn.say) {
        apology = turn.say;
        showNotice();
        await speak(turn);
      }
      return;
    }
    if (apology) {
      apology = '';
      showNotice();
    }
    if (turn.heard && answeredAt !== null) emit({ type: 'candidate', text: turn.heard, at: answeredAt });
    emit({ type: 'interviewer', text: turn.say, at: at() });
    if (turn.closeSession) {
      closing = true;
      stopListening();
      // The controller ends the session about 4 s from now, or once the remark has been heard.
      emit({ type: 'close-requested', reason: turn.closeSession.reason });
      await speak(turn);
      emit({ type: 'closing-remark-done' });
      return;
    }
    await speak(turn);
  }

  /**
   * This transport is done (docs/product-rules.md, Session lifecycle, Reconnecting): a reconnectable
   * failure carries the typed answers that got no reply (a spoken answer in flight is lost: the
   * continuation says the interviewer's last line again, and the candidate answers it again).
   */
  function fail(message: string, reconnectable: boolean): void {
    if (closed || closing) return;
    closing = true;
    stopListening();
    stopWatching();
    player.stop();
    const pendingAnswer = pending.join(' ');
    emit(
      reconnectable
        ? { type: 'failed', message, reconnectable: true, ...(pendingAnswer ? { pendingAnswer } : {}) }
        : { type: 'failed', message },
    );
  }

  /** Answers go to the server one after another, so each reply belongs to its answer. */
  function enqueue(request: Request, answeredAt: number | null): void {
    const typed = request.kind === 'text' ? request.utterance : undefined;
    if (typed) pending.push(typed);
    queue = queue.then(async () => {
      if (closed || closing) return;
      try {
        const turn = await send(request);
        if (typed) pending.splice(pending.indexOf(typed), 1);
        emit({ type: 'interim', text: '' });
        await handle(turn, answeredAt);
      } catch (error) {
        fail(error instanceof Error ? error.message : TURN_FAILED_MESSAGE, isReconnectable(error));
      }
    });
  }

  function stopListening(): void {
    detector?.destroy();
    detector = null;
  }

  async function startListening(): Promise<void> {
    try {
      const opened = await startDetector({
        speechStart: () => {
          if (closed || closing) return;
          // Barge-in: the candidate talks over the interviewer, who stops.
          player.stop();
          emit({ type: 'interim', text: LISTENING_TEXT });
        },
        speechEnd: (wav) => {
          if (closed || closing) return;
          emit({ type: 'interim', text: TRANSCRIBING_TEXT });
          enqueue({ kind: 'audio', wav }, at());
        },
        misfire: () => emit({ type: 'interim', text: '' }),
      });
      if (closed || closing) opened.destroy();
      else detector = opened;
    } catch {
      addLasting(NO_MICROPHONE_NOTICE);
    }
  }

  return {
    acceptsTypedAnswers: true,

    async start(
      startToken: TokenResponse,
      onEvent: TransportListener,
      startedAtMs: number,
      startOptions: StartOptions = {},
    ): Promise<void> {
      if (started) throw new Error('This interview session has already started.');
      started = true;
      if (startToken.transport === 'speech-pipeline') sessionToken = startToken.client_secret.value;
      listener = onEvent;
      startedAt = startedAtMs;
      // A resumed session's first turn picks up from the server's transcript, sending again the
      // typed answer that got no reply before the drop.
      const resumed = startOptions.resumed;
      const opening = await send(resumed ? { kind: 'text', utterance: resumed.pendingAnswer, resume: true } : { kind: 'text' });
      if (closed) return;
      stopWatching = connectivity.watch((change) => {
        if (change === 'offline' || (change === 'visible' && !connectivity.online())) {
          for (const controller of inFlight) controller.abort();
          fail(OFFLINE_MESSAGE, true);
        }
      });
      // The microphone opens while the greeting plays; the session is active once start() resolves.
      void startListening();
      queue = queue.then(() => handle(opening, null));
    },

    sendText(text: string): void {
      const answer = text.trim();
      if (!answer || closed || closing) return;
      player.stop();
      emit({ type: 'candidate', text: answer, at: at() });
      enqueue({ kind: 'text', utterance: answer }, null);
    },

    close(): void {
      if (closed) return;
      closed = true;
      stopWatching();
      stopListening();
      player.stop();
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
    },
  };
}

function isSpeechTurn(body: unknown): body is SpeechTurnResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { say, closeSession, audio, retry, heard } = body as Record<string, unknown>;
  return (
    typeof say === 'string' &&
    (closeSession === null || typeof closeSession === 'object') &&
    Array.isArray(audio) &&
    audio.every((a) => typeof a === 'string') &&
    typeof retry === 'boolean' &&
    (heard === null || typeof heard === 'string')
  );
}
