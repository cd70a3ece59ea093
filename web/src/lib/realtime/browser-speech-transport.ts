/**
 * Browser-speech transport: no API key needed. The server's interviewer writes each line
 * (POST /interview/turn), the browser speaks it (speechSynthesis) and hears the answer
 * (SpeechRecognition where it exists); typed answers always work, so a browser without speech
 * recognition (Firefox, headless Chromium) can still finish an interview.
 */
import type { BrowserSpeechToken, TokenResponse, TurnResponse } from '../../../../contract';
import { apiUrl } from '../api-base';
import { serverErrorOf } from '../http';
import {
  browserRecognition,
  browserSpeechOutput,
  type RecognitionConstructor,
  type RecognitionErrorEventLike,
  type RecognitionLike,
  type RecognitionResultEventLike,
  type SpeechOutput,
} from './browser-speech-io';
import type { TransportContext, TransportEvent, TransportListener, VoiceTransport } from './types';

export const NO_RECOGNITION_NOTICE =
  'This browser cannot recognise speech. Type your answers in the box below and press Send.';
export const RECOGNITION_FAILED_NOTICE =
  'Speech cannot be recognised in this browser right now. Type your answers in the box below and press Send.';
export const NO_SYNTHESIS_NOTICE = "This browser cannot speak the interviewer's lines aloud. Read them on screen.";
export const TURN_FAILED_MESSAGE = 'The interviewer could not be reached. Please try again in a moment.';

/** A candidate's pause this long (no new words) ends the answer: patient, people stop to think. */
export const END_OF_ANSWER_PAUSE_MS = 2500;

/** Recogniser errors that mean it will not work here; others (no-speech, aborted) are routine. */
const FATAL_RECOGNITION_ERRORS = new Set([
  'network',
  'not-allowed',
  'service-not-allowed',
  'audio-capture',
  'language-not-supported',
  'bad-grammar',
]);

/** Longest a line may take to speak before we move on anyway (synthesis may never report an end). */
export function speechGuardMs(text: string): number {
  // Generous on purpose: cutting a slow voice short is worse than a late fallback. About ten
  // characters a second is slower than any default voice; add slack for the voice to start.
  return Math.min(4000 + text.length * 100, 120_000);
}

export interface BrowserSpeechOptions {
  fetch?: typeof fetch;
  /** null: the browser has no speechSynthesis. */
  speech?: SpeechOutput | null;
  /** null: the browser has no SpeechRecognition. */
  recognition?: RecognitionConstructor | null;
  /** The interviewer's language (BCP 47); the instructions make the interviewer speak English. */
  lang?: string;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export function createBrowserSpeechTransport(
  token: BrowserSpeechToken,
  ctx: TransportContext,
  options: BrowserSpeechOptions = {},
): VoiceTransport {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const speech = options.speech === undefined ? browserSpeechOutput() : options.speech;
  const Recognition = options.recognition === undefined ? browserRecognition() : options.recognition;
  const lang = options.lang ?? 'en-US';
  const now = options.now ?? (() => performance.now());
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));

  let sessionToken = token.client_secret.value;
  let listener: TransportListener = () => undefined;
  let startedAt = 0;
  let closed = false;
  let closing = false;
  let started = false;
  /** Interviewer speaking or a turn on its way: the recogniser must not listen. */
  let busy = true;
  /** Answers are sent one after another, so the interviewer answers each in order. */
  let queue: Promise<void> = Promise.resolve();
  const inFlight = new Set<AbortController>();
  /** Answers sent whose interviewer turn has not come back yet. */
  let unanswered = 0;

  // Recogniser state. `heard` keeps the words of earlier recogniser runs of the same answer
  // (Chrome ends a continuous recogniser on its own now and then; we restart it).
  let recognizer: RecognitionLike | null = null;
  let recognitionUsable = Recognition !== null;
  let listening = false;
  let heard = '';
  let current = '';
  let pauseTimer: unknown = null;

  const emit = (event: TransportEvent): void => {
    if (!closed) listener(event);
  };
  // The screen shows one notice at a time, so each new one carries the earlier ones along.
  const notices: string[] = [];
  const notice = (text: string): void => {
    if (notices.includes(text)) return;
    notices.push(text);
    emit({ type: 'notice', text: notices.join(' ') });
  };
  const at = (): number => Math.max(0, Math.round(now() - startedAt));

  async function requestTurn(utterance?: string): Promise<TurnResponse> {
    const controller = new AbortController();
    inFlight.add(controller);
    try {
      let res: Response;
      try {
        res = await doFetch(apiUrl('/interview/turn'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-user-email': ctx.userEmail },
          body: JSON.stringify(utterance === undefined ? { sessionToken } : { sessionToken, utterance }),
          signal: controller.signal,
        });
      } catch {
        throw new Error(TURN_FAILED_MESSAGE);
      }
      const body: unknown = await res.json().catch(() => null);
      if (!res.ok) throw new Error(serverErrorOf(body) ?? TURN_FAILED_MESSAGE);
      // Typed by the contract (the server's serializer checked it); a body that is not even the
      // right shape means something between us and the server answered.
      if (!isTurnResponse(body)) throw new Error(TURN_FAILED_MESSAGE);
      return body;
    } finally {
      inFlight.delete(controller);
    }
  }

  function speak(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (closed) return resolve();
      emit({ type: 'speaking', speaking: true });
      let done = false;
      const finish = (ok: boolean): void => {
        if (done) return;
        done = true;
        clearTimer(guard);
        emit({ type: 'speaking', speaking: false });
        if (!ok && !closed) notice(NO_SYNTHESIS_NOTICE);
        resolve();
      };
      const guard = setTimer(() => {
        speech?.cancel();
        finish(true);
      }, speechGuardMs(text));
      if (!speech) return finish(false);
      speech.speak(text, lang, finish);
    });
  }

  async function handleTurn(turn: TurnResponse): Promise<void> {
    if (closed) return;
    emit({ type: 'interviewer', text: turn.say, at: at() });
    if (turn.closeSession) {
      closing = true;
      stopListening();
      // docs/product-rules.md, Closing: the session ends about 4 seconds after the closing remark is requested, so the
      // controller's timer starts now, while the remark is spoken; it waits for a longer remark.
      emit({ type: 'close-requested', reason: turn.closeSession.reason });
      await speak(turn.say);
      emit({ type: 'closing-remark-done' });
      return;
    }
    // The candidate already answered past this line (typed twice quickly): show it, do not speak it.
    if (unanswered > 0) return;
    await speak(turn.say);
    // A typed answer may have cut the line short; its own turn decides when to listen again.
    if (unanswered > 0) return;
    busy = false;
    startListening();
  }

  function submitAnswer(text: string): void {
    const answer = text.trim();
    if (!answer || closed || closing) return;
    unanswered++;
    busy = true;
    stopListening();
    speech?.cancel();
    emit({ type: 'candidate', text: answer, at: at() });
    queue = queue.then(async () => {
      if (closed || closing) return;
      busy = true;
      try {
        const turn = await requestTurn(answer);
        unanswered--;
        await handleTurn(turn);
      } catch (error) {
        if (!closed) {
          closing = true;
          stopListening();
          emit({ type: 'failed', message: error instanceof Error ? error.message : TURN_FAILED_MESSAGE });
        }
      }
    });
  }

  function clearPause(): void {
    if (pauseTimer !== null) clearTimer(pauseTimer);
    pauseTimer = null;
  }

  function onResult(event: RecognitionResultEventLike): void {
    if (!listening) return;
    // Every result of this run, in order (Chrome starts later ones with a space, Safari may not).
    const parts: string[] = [];
    for (let i = 0; i < event.results.length; i++) parts.push(event.results[i]?.[0]?.transcript ?? '');
    current = parts.join(' ');
    const sofar = `${heard} ${current}`.replace(/\s+/g, ' ').trim();
    if (!sofar) return;
    emit({ type: 'interim', text: sofar });
    clearPause();
    pauseTimer = setTimer(() => {
      pauseTimer = null;
      const answer = `${heard} ${current}`.replace(/\s+/g, ' ').trim();
      heard = '';
      current = '';
      if (answer) submitAnswer(answer);
    }, END_OF_ANSWER_PAUSE_MS);
  }

  function onError(event: RecognitionErrorEventLike): void {
    if (!FATAL_RECOGNITION_ERRORS.has(event.error) || !recognitionUsable) return;
    recognitionUsable = false;
    stopListening();
    notice(RECOGNITION_FAILED_NOTICE);
  }

  function onEnd(): void {
    // A run ended by itself (silence, service limit): keep its words and listen on.
    heard = `${heard} ${current}`.trim();
    current = '';
    if (listening && recognitionUsable && !closed) {
      try {
        recognizer?.start();
      } catch {
        // Already started: nothing to do.
      }
    }
  }

  function startListening(): void {
    if (!recognitionUsable || !Recognition || closed || closing || busy || listening) return;
    if (!recognizer) {
      recognizer = new Recognition();
      recognizer.continuous = true;
      recognizer.interimResults = true;
      recognizer.lang = lang;
      recognizer.onresult = onResult;
      recognizer.onerror = onError;
      recognizer.onend = onEnd;
    }
    listening = true;
    heard = '';
    current = '';
    try {
      recognizer.start();
    } catch {
      // start() throws when a previous run has not ended yet; onEnd restarts it.
    }
  }

  function stopListening(): void {
    clearPause();
    if (!listening) return;
    listening = false;
    heard = '';
    current = '';
    try {
      recognizer?.abort();
    } catch {
      // Nothing to stop.
    }
  }

  return {
    acceptsTypedAnswers: true,

    async start(startToken: TokenResponse, onEvent: TransportListener, startedAtMs: number): Promise<void> {
      if (started) throw new Error('This interview session has already started.');
      started = true;
      if (startToken.transport === 'browser-speech') sessionToken = startToken.client_secret.value;
      listener = onEvent;
      startedAt = startedAtMs;
      const opening = await requestTurn();
      if (closed) return;
      // The session is active now; the caller sees the opening line after start() resolved.
      setTimer(() => {
        if (closed) return;
        if (!Recognition) notice(NO_RECOGNITION_NOTICE);
        queue = queue.then(() => handleTurn(opening));
      }, 0);
    },

    sendText(text: string): void {
      submitAnswer(text);
    },

    close(): void {
      if (closed) return;
      stopListening();
      closed = true;
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
      speech?.cancel();
      if (recognizer) {
        recognizer.onresult = null;
        recognizer.onerror = null;
        recognizer.onend = null;
      }
    },
  };
}

function isTurnResponse(body: unknown): body is TurnResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { say, closeSession } = body as Record<string, unknown>;
  return typeof say === 'string' && (closeSession === null || typeof closeSession === 'object');
}
