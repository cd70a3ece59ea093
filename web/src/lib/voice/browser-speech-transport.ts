/**
 * Browser-speech transport: no API key needed. The server's interviewer writes each line
 * (POST /interview/turn), the browser speaks it (speechSynthesis) and hears the answer
 * (SpeechRecognition where it exists); typed answers always work, so a browser without speech
 * recognition (Firefox, headless Chromium) can still finish an interview.
 */
import type { BrowserSpeechToken, TokenResponse, TurnResponse } from '../../../../contract';
import { postTurn } from '../session-api';
import { schedule as browserSchedule, type Schedule } from '../schedule';
import { browserRecognition, browserSpeechOutput, type RecognitionConstructor, type SpeechOutput } from './browser-speech-io';
import { createListeningLoop } from './listening-loop';
import { browserConnectivity, type Connectivity } from './connectivity';
import { isReconnectable, OFFLINE_MESSAGE, TurnFailedError } from './turn-failure';
import type { StartOptions, TransportContext, TransportEvent, TransportListener, VoiceTransport } from './types';

export const NO_RECOGNITION_NOTICE = 'This browser cannot recognise speech. Type your answers in the box below and press Send.';
export const RECOGNITION_FAILED_NOTICE =
  'Speech cannot be recognised in this browser right now. Type your answers in the box below and press Send.';
export const NO_SYNTHESIS_NOTICE = "This browser cannot speak the interviewer's lines aloud. Read them on screen.";
export const TURN_FAILED_MESSAGE = 'The interviewer could not be reached. Please try again in a moment.';
export { OFFLINE_MESSAGE };
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
  /** Online/offline and page visibility (the page's own by default). */
  connectivity?: Connectivity;
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
  const connectivity = options.connectivity ?? browserConnectivity();

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
  /** Their words: what a continuation sends again after a drop. */
  const pending: string[] = [];
  let stopWatching: () => void = () => undefined;

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

  /**
   * The session lost its footing (docs/product-rules.md, Session lifecycle, Reconnecting): this
   * transport is done; a reconnectable failure carries the answers that got no reply.
   */
  const fail = (message: string, reconnectable: boolean): void => {
    if (closed || closing) return;
    closing = true;
    ears.stop();
    stopWatching();
    const pendingAnswer = pending.join(' ');
    emit(
      reconnectable
        ? { type: 'failed', message, reconnectable: true, ...(pendingAnswer ? { pendingAnswer } : {}) }
        : { type: 'failed', message },
    );
  };

  const ears = createListeningLoop({
    Recognition,
    lang,
    schedule,
    pauseMs: END_OF_ANSWER_PAUSE_MS,
    onInterim: (text) => emit({ type: 'interim', text }),
    onAnswer: (text) => submitAnswer(text),
    // A recogniser that fails because the device went offline comes back with the connection;
    // any other failure (no permission, no service: Chromium without Google's) leaves typing.
    onUnusable: (error) =>
      error === 'network' && !connectivity.online() ? fail(OFFLINE_MESSAGE, true) : notice(RECOGNITION_FAILED_NOTICE),
  });
  const listenIfIdle = (): void => {
    if (!closed && !closing && !busy) ears.listen();
  };

  async function requestTurn(utterance?: string, resume = false): Promise<TurnResponse> {
    const controller = new AbortController();
    inFlight.add(controller);
    try {
      const body = { sessionToken, ...(utterance === undefined ? {} : { utterance }), ...(resume ? { resume } : {}) };
      const result = await postTurn(ctx.userEmail, body, { signal: controller.signal, fetch: options.fetch });
      // Typed by the contract (the server's serializer checked it); a body that is not even the
      // right shape means something between us and the server answered.
      if (result.ok && isTurnResponse(result.data)) return result.data;
      if (!result.ok && result.kind === 'http' && result.status < 500 && result.serverError)
        throw new TurnFailedError(result.serverError, false);
      throw new TurnFailedError(TURN_FAILED_MESSAGE, true);
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
    pending.push(answer);
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
        pending.splice(pending.indexOf(answer), 1);
        await handleTurn(turn);
      } catch (error) {
        fail(error instanceof Error ? error.message : TURN_FAILED_MESSAGE, isReconnectable(error));
      }
    });
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
      if (startToken.transport === 'browser-speech') sessionToken = startToken.client_secret.value;
      listener = onEvent;
      startedAt = startedAtMs;
      // A resumed session's first turn picks up where the server's transcript stands, sending
      // again the answer that got no reply before the drop.
      const resumed = startOptions.resumed;
      const opening = resumed ? await requestTurn(resumed.pendingAnswer, true) : await requestTurn();
      if (closed) return;
      stopWatching = connectivity.watch((change) => {
        if (change === 'offline') {
          for (const controller of inFlight) controller.abort();
          fail(OFFLINE_MESSAGE, true);
        } else if (change === 'visible') {
          if (!connectivity.online()) fail(OFFLINE_MESSAGE, true);
          // The recogniser may have been stopped while the page was hidden; start hearing afresh.
          else if (!busy && !closing) {
            ears.stop();
            listenIfIdle();
          }
        }
      });
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
      stopWatching();
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
