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
import { OFFLINE_MESSAGE } from './turn-failure';
import { createTurnTaking } from './turn-taking';
import { spokenAfterResume } from './heard-again';
import { endOfTurnPauseMs } from '../../../../domain/answer-ending';
import { speechParts } from '../../../../domain/line-parts';
import type { StartOptions, TransportContext, TransportListener, VoiceTransport } from './types';

export const NO_RECOGNITION_NOTICE = 'This browser cannot recognise speech. Type your answers in the box below and press Send.';
export const RECOGNITION_FAILED_NOTICE =
  'Speech cannot be recognised in this browser right now. Type your answers in the box below and press Send.';
export const NO_SYNTHESIS_NOTICE = "This browser cannot speak the interviewer's lines aloud. Read them on screen.";

/**
 * The voice of a reply that began before the reply was whole (a streamed turn): the parts told so
 * far, said one after another; `cut` marks where a typed answer cut it off, for the transcript once
 * the line is known.
 */
interface EarlyVoice {
  parts: string[];
  said: Promise<void>;
  /** The part being said now, if any. */
  saying: number | null;
  stopped: boolean;
  cut: { part: number; chars: number } | null;
}

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
 * Hearing and speaking on top of the turn-taking core (turn-taking.ts): asks the server's
 * interviewer for each line (POST /interview/turn through the shared API client), speaks it, then
 * lets the listening loop hear the answer; typed answers take the same way.
 */
export function createBrowserSpeechTransport(
  token: BrowserSpeechToken,
  ctx: TransportContext,
  options: BrowserSpeechOptions = {},
): VoiceTransport {
  const speech = options.speech === undefined ? browserSpeechOutput() : options.speech;
  const Recognition = options.recognition === undefined ? browserRecognition() : options.recognition;
  const lang = options.lang ?? 'en-US';
  const schedule = options.schedule ?? browserSchedule;
  const connectivity = options.connectivity ?? browserConnectivity();

  /** Interviewer speaking or a turn on its way: the recogniser must not listen. */
  let busy = true;
  /** Answers sent whose interviewer turn has not come back yet. */
  let unanswered = 0;
  /** The interviewer's last line: what the answer in progress answers. */
  let question = '';

  const core = createTurnTaking(token, {
    now: options.now,
    connectivity,
    silence: () => {
      ears.stop();
      stopEarlyVoice();
    },
    // The recogniser may have been stopped while the page was hidden; start hearing afresh.
    onVisible: () => {
      if (busy) return;
      ears.stop();
      listenIfIdle();
    },
  });

  const ears = createListeningLoop({
    Recognition,
    lang,
    schedule,
    // The recogniser's words say how long a pause ends the answer (domain/answer-ending.ts).
    pauseMs: (words) => endOfTurnPauseMs(words, question, ctx.turnPauses),
    onInterim: (text) => core.emit({ type: 'interim', text }),
    onAnswer: (text) => submitAnswer(text),
    // A recogniser that fails because the device went offline comes back with the connection;
    // any other failure (no permission, no service: Chromium without Google's) leaves typing.
    onUnusable: (error) =>
      error === 'network' && !connectivity.online() ? core.fail(OFFLINE_MESSAGE, true) : core.notice(RECOGNITION_FAILED_NOTICE),
  });
  const listenIfIdle = (): void => {
    if (core.open() && !busy) ears.listen();
  };

  /** With `voice` the turn comes in lines, and each part told is said as it comes (an answer's turn). */
  const requestTurn = (utterance?: string, resume = false, typed = false, voice: EarlyVoice | null = null): Promise<TurnResponse> =>
    core.call(
      (signal) =>
        postTurn(
          ctx.userEmail,
          {
            sessionToken: core.sessionToken(),
            ...(utterance === undefined ? {} : { utterance }),
            ...(resume ? { resume } : {}),
            // Stored with the answer, so it is still shown as typed after a reload.
            ...(typed && utterance !== undefined ? { input: 'typed' as const } : {}),
          },
          { signal, fetch: options.fetch, ...(voice ? { onPart: (part: string) => sayEarly(voice, part) } : {}) },
        ),
      isTurnResponse,
    );

  /** The reply whose voice began before its text came, if any. */
  let early: EarlyVoice | null = null;
  const earlyVoice = (): EarlyVoice => ({ parts: [], said: Promise.resolve(), saying: null, stopped: false, cut: null });

  /** Says a part of the reply after the parts before it, unless the voice was stopped meanwhile. */
  function sayEarly(voice: EarlyVoice, part: string): void {
    const index = voice.parts.push(part) - 1;
    early = voice;
    voice.said = voice.said.then(async () => {
      if (voice.stopped || core.closed()) return;
      voice.saying = index;
      await speak(part, false);
      if (voice.saying === index) voice.saying = null;
    });
  }

  function stopEarlyVoice(): void {
    if (!early || early.stopped) return;
    early.stopped = true;
    speech?.cancel();
  }

  /** The interviewer's line being spoken now (a typed answer that cuts it off marks where). */
  let speakingLine: string | null = null;

  /** `whole`: the text is a whole line of the transcript (a cut-off can be marked in it). */
  function speak(text: string, whole = true): Promise<void> {
    return new Promise((resolve) => {
      if (core.closed()) return resolve();
      core.emit({ type: 'speaking', speaking: true });
      if (whole) speakingLine = text;
      let done = false;
      const finish = (ok: boolean): void => {
        if (done) return;
        done = true;
        if (whole) speakingLine = null;
        cancelGuard();
        core.emit({ type: 'speaking', speaking: false });
        if (!ok && !core.closed()) core.notice(NO_SYNTHESIS_NOTICE);
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

  /**
   * `spoken`: what of the line to say (a resume's repeat of a line heard already: only "Welcome
   * back."). `voice`: the line's voice when it began before the line was whole.
   */
  async function handleTurn(turn: TurnResponse, spoken = turn.say, voice: EarlyVoice | null = null): Promise<void> {
    if (core.closed()) return;
    core.emit({ type: 'interviewer', text: turn.say, at: core.at() });
    question = turn.say;
    if (voice?.cut) {
      // Cut off before its text came: where, in the whole line.
      const at = turn.say.indexOf(voice.parts[voice.cut.part] ?? '');
      if (at >= 0) core.emit({ type: 'cut-off', text: turn.say, cutAt: at + voice.cut.chars });
    }
    const say = (text: string): Promise<void> => (voice && voice.parts.length > 0 ? sayRest(voice, turn.say) : speak(text));
    if (turn.closeSession) {
      core.ending();
      ears.stop();
      // docs/product-rules.md, Closing: the session ends about 4 seconds after the closing remark
      // is requested, so the controller's timer starts now, while the remark is spoken; it waits
      // for a longer remark.
      core.emit({ type: 'close-requested', reason: turn.closeSession.reason });
      await say(turn.say);
      core.emit({ type: 'closing-remark-done' });
      return;
    }
    // The candidate already answered past this line (typed twice quickly): show it, do not speak it.
    if (unanswered > 0) return;
    if (spoken) await say(spoken);
    if (!core.closed()) core.emit({ type: 'heard', text: turn.say });
    // A typed answer may have cut the line short; its own turn decides when to listen again.
    if (unanswered > 0) return;
    busy = false;
    listenIfIdle();
  }

  /** Says the parts of the whole line not told before it came, after those told; resolves once all were said. */
  async function sayRest(voice: EarlyVoice, line: string): Promise<void> {
    for (const part of speechParts(line).slice(voice.parts.length)) sayEarly(voice, part);
    await voice.said;
    if (early === voice) early = null;
  }

  function submitAnswer(text: string, typed = false): void {
    const answer = text.trim();
    if (!answer || !core.open()) return;
    unanswered++;
    busy = true;
    ears.stop();
    // The candidate cut the interviewer off: the transcript marks about where (the last word boundary).
    const said = speech?.spokenChars?.() ?? null;
    if (speakingLine !== null && said !== null) core.emit({ type: 'cut-off', text: speakingLine, cutAt: said });
    // A reply said before its text came: where it was cut is marked once its text comes.
    if (early && !early.stopped && early.saying !== null && said !== null) early.cut = { part: early.saying, chars: said };
    stopEarlyVoice();
    speech?.cancel();
    core.emit({ type: 'candidate', text: answer, at: core.at() });
    const voice = earlyVoice();
    core.answer(
      answer,
      () => {
        busy = true;
        return requestTurn(answer, false, typed, voice);
      },
      (turn) => {
        unanswered--;
        return handleTurn(turn, turn.say, voice);
      },
      typed,
    );
  }

  return {
    acceptsTypedAnswers: true,

    async start(
      startToken: TokenResponse,
      onEvent: TransportListener,
      startedAtMs: number,
      startOptions: StartOptions = {},
    ): Promise<void> {
      // A resumed session's first turn picks up where the server's transcript stands, sending
      // again the answer that got no reply before the drop.
      const resumed = startOptions.resumed;
      const opening = await core.start(startToken, onEvent, startedAtMs, () =>
        resumed ? requestTurn(resumed.pendingAnswer, true, resumed.pendingTyped) : requestTurn(),
      );
      if (!opening) return;
      // The session is active now; the caller sees the opening line after start() resolved.
      schedule(() => {
        if (core.closed()) return;
        if (!ears.available) core.notice(NO_RECOGNITION_NOTICE);
        core.then(() => handleTurn(opening, resumed ? spokenAfterResume(opening.say, resumed.heard).text : opening.say));
      }, 0);
    },

    sendText(text: string): void {
      submitAnswer(text, true);
    },

    endAnswer(): void {
      ears.finish();
    },

    close(): void {
      if (!core.close()) return;
      ears.dispose();
      stopEarlyVoice();
      speech?.cancel();
    },
  };
}

function isTurnResponse(body: unknown): body is TurnResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { say, closeSession } = body as Record<string, unknown>;
  return typeof say === 'string' && (closeSession === null || typeof closeSession === 'object');
}
