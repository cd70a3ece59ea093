/**
 * Browser-speech transport: no API key needed. The server's interviewer writes each line
 * (POST /interview/turn), the browser speaks it (speechSynthesis) and hears the answer
 * (SpeechRecognition where it exists); typed answers always work, so a browser without speech
 * recognition (Firefox, headless Chromium) can still finish an interview.
 */
import type { BrowserSpeechToken, TokenResponse, TurnResponse } from '../../../../contract';
import { postTurn } from '../api';
import { schedule as browserSchedule, type Schedule } from '../schedule';
import { browserRecognition, browserSpeechOutput, type RecognitionConstructor, type SpeechOutput } from './browser-speech-io';
import { createListeningLoop } from './listening-loop';
import type { TransportContext, TransportEvent, TransportListener, VoiceTransport } from './types';

export const NO_RECOGNITION_NOTICE =
  'This browser cannot recognise speech. Type your answers in the box below and press Send.';
export const RECOGNITION_FAILED_NOTICE =
  'Speech cannot be recognised in this browser right now. Type your answers in the box below and press Send.';
export const NO_SYNTHESIS_NOTICE = "This browser cannot speak the interviewer's lines aloud. Read them on screen.";
export const TURN_FAILED_MESSAGE = 'The interviewer could not be reached. Please try again in a moment.';

/** A candidate's pause this long (no new words) ends the answer: patient, people stop to think. */
export const END_OF_ANSWER_PAUSE_MS = 2500;

/** Longest a line may take to speak before we move on anyway (synthesis may never report an end). */
export function speechGuardMs(text: string): number {
  // Generous on purpose: cutting a slow voice short is worse than a late fallback. About ten
  // characters a second is slower than any default voice; add slack for the voice to start.
  return Math.min(4000 + text.length * 100, 120_000);
}

export interface BrowserSpeechOptions {
  /** Stand-in for the browser's fetch, passed to the shared API client. */
  fetch?: typeof fetch;
  /** null: the browser has no speechSynthesis. */
  speech?: SpeechOutput | null;
  /** null: the browser has no SpeechRecognition. */
  recognition?: RecognitionConstructor | null;
  /** The interviewer's language (BCP 47); the instructions make the interviewer speak English. */
  lang?: string;
  now?: () => number;
  schedule?: Schedule;
}

/**
 * The turn loop: asks the server's interviewer for each line (POST /interview/turn through the
 * shared API client), speaks it, then lets the listening loop hear the answer; typed answers take
 * the same way. Answers are sent one after another, so the interviewer answers each in order.
 */
export function createBrowserSpeechTransport(
  token: BrowserSpeechToken,
  ctx: TransportContext,
  options: BrowserSpeechOptions = {},
): VoiceTransport {
  const speech = options.speech === undefined ? browserSpeechOutput() : options.speech;
  const Recognition = options.recognition === undefined ? browserRecognition() : options.recognition;
  const lang = options.lang ?? 'en-US';
  const now = options.now ?? (() => performance.now());
  const schedule = options.schedule ?? browserSchedule;

  let sessionToken = token.client_secret.value;
  let listener: TransportListener = () => undefined;
  let startedAt = 0;
  let closed = false;
  let closing = false;
  let started = false;
  /** Interviewer speaking or a turn on its way: the recogniser must not listen. */
  let busy = true;
  let queue: Promise<void> = Promise.resolve();
  const inFlight = new Set<AbortController>();
  /** Answers sent whose interviewer turn has not come back yet. */
  let unanswered = 0;

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

  const ears = createListeningLoop({
    Recognition,
    lang,
    schedule,
    pauseMs: END_OF_ANSWER_PAUSE_MS,
    onInterim: (text) => emit({ type: 'interim', text }),
    onAnswer: (text) => submitAnswer(text),
    onUnusable: () => notice(RECOGNITION_FAILED_NOTICE),
  });
  const listenIfIdle = (): void => {
    if (!closed && !closing && !busy) ears.listen();
  };

  async function requestTurn(utterance?: string): Promise<TurnResponse> {
    const controller = new AbortController();
    inFlight.add(controller);
    try {
      const body = utterance === undefined ? { sessionToken } : { sessionToken, utterance };
      const result = await postTurn(ctx.userEmail, body, { signal: controller.signal, fetch: options.fetch });
      // Typed by the contract (the server's serializer checked it); a body that is not even the
      // right shape means something between us and the server answered.
      if (result.ok && isTurnResponse(result.data)) return result.data;
      throw new Error((!result.ok && result.kind === 'http' && result.serverError) || TURN_FAILED_MESSAGE);
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
        cancelGuard();
        emit({ type: 'speaking', speaking: false });
        if (!ok && !closed) notice(NO_SYNTHESIS_NOTICE);
        resolve();
      };
      const cancelGuard = schedule(() => {
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
      ears.stop();
      // docs/product-rules.md, Closing: the session ends about 4 seconds after the closing remark
      // is requested, so the controller's timer starts now, while the remark is spoken; it waits
      // for a longer remark.
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
    listenIfIdle();
  }

  function submitAnswer(text: string): void {
    const answer = text.trim();
    if (!answer || closed || closing) return;
    unanswered++;
    busy = true;
    ears.stop();
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
          ears.stop();
          emit({ type: 'failed', message: error instanceof Error ? error.message : TURN_FAILED_MESSAGE });
        }
      }
    });
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
      schedule(() => {
        if (closed) return;
        if (!ears.available) notice(NO_RECOGNITION_NOTICE);
        queue = queue.then(() => handleTurn(opening));
      }, 0);
    },

    sendText(text: string): void {
      submitAnswer(text);
    },

    close(): void {
      if (closed) return;
      ears.dispose();
      closed = true;
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
      speech?.cancel();
    },
  };
}

function isTurnResponse(body: unknown): body is TurnResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { say, closeSession } = body as Record<string, unknown>;
  return typeof say === 'string' && (closeSession === null || typeof closeSession === 'object');
}
