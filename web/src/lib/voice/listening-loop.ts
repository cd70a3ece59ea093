/**
 * Browser speech's listening loop: one continuous recogniser (behind the `RecognitionLike` seam)
 * that hears one answer at a time. It keeps the words across the recogniser's own restarts
 * (Chrome ends a continuous run now and then), shows them as they come, and hands the answer on
 * after a pause of `pauseMs` without new words. The turn loop decides when it listens.
 */
import type { Cancel, Schedule } from '../schedule';
import type { RecognitionConstructor, RecognitionErrorEventLike, RecognitionLike, RecognitionResultEventLike } from './browser-speech-io';

/** Recogniser errors that mean it will not work here; others (no-speech, aborted) are routine. */
const FATAL_RECOGNITION_ERRORS = new Set([
  'network',
  'not-allowed',
  'service-not-allowed',
  'audio-capture',
  'language-not-supported',
  'bad-grammar',
]);

export interface ListeningLoopOptions {
  /** null: the browser has no SpeechRecognition. */
  Recognition: RecognitionConstructor | null;
  lang: string;
  schedule: Schedule;
  /** How long a pause without new words ends the answer, given the words so far (domain/answer-ending.ts). */
  pauseMs(words: string): number;
  /** The words heard so far of the current answer. */
  onInterim(text: string): void;
  /** A whole answer, after the pause. */
  onAnswer(text: string): void;
  /** The recogniser failed for good (no permission, no service, offline: `error` says which); listen() does nothing from now on. */
  onUnusable(error: string): void;
}

export interface ListeningLoop {
  /** Whether this browser has a recogniser at all. */
  readonly available: boolean;
  /** Starts hearing a new answer (nothing when already listening or unusable). */
  listen(): void;
  /** Hands over the answer in progress now, without waiting for the pause (nothing when no words yet). */
  finish(): void;
  /** Stops and forgets the words of the answer in progress. */
  stop(): void;
  /** Stops for good and detaches from the recogniser. */
  dispose(): void;
}

const joinWords = (...parts: string[]): string => parts.join(' ').replace(/\s+/g, ' ').trim();

export function createListeningLoop(options: ListeningLoopOptions): ListeningLoop {
  const { Recognition } = options;
  let recognizer: RecognitionLike | null = null;
  let usable = Recognition !== null;
  let listening = false;
  let disposed = false;
  /** Words of earlier recogniser runs of this answer, and of the current run. */
  let heard = '';
  let current = '';
  let cancelPause: Cancel | null = null;

  const clearPause = (): void => {
    cancelPause?.();
    cancelPause = null;
  };

  function onResult(event: RecognitionResultEventLike): void {
    if (!listening) return;
    // Every result of this run, in order (Chrome starts later ones with a space, Safari may not).
    const parts: string[] = [];
    for (let i = 0; i < event.results.length; i++) parts.push(event.results[i]?.[0]?.transcript ?? '');
    current = parts.join(' ');
    const sofar = joinWords(heard, current);
    if (!sofar) return;
    options.onInterim(sofar);
    clearPause();
    cancelPause = options.schedule(handOver, options.pauseMs(sofar));
  }

  function handOver(): void {
    clearPause();
    const answer = joinWords(heard, current);
    heard = '';
    current = '';
    if (answer) options.onAnswer(answer);
  }

  function onError(event: RecognitionErrorEventLike): void {
    if (!FATAL_RECOGNITION_ERRORS.has(event.error) || !usable) return;
    usable = false;
    stop();
    options.onUnusable(event.error);
  }

  function onEnd(): void {
    // A run ended by itself (silence, service limit): keep its words and listen on.
    heard = joinWords(heard, current);
    current = '';
    if (!listening || !usable || disposed) return;
    try {
      recognizer?.start();
    } catch {
      // Already started: nothing to do.
    }
  }

  function recogniser(Ctor: RecognitionConstructor): RecognitionLike {
    if (recognizer) return recognizer;
    recognizer = new Ctor();
    recognizer.continuous = true;
    recognizer.interimResults = true;
    recognizer.lang = options.lang;
    recognizer.onresult = onResult;
    recognizer.onerror = onError;
    recognizer.onend = onEnd;
    return recognizer;
  }

  function listen(): void {
    if (!usable || !Recognition || disposed || listening) return;
    const running = recogniser(Recognition);
    listening = true;
    heard = '';
    current = '';
    try {
      running.start();
    } catch {
      // start() throws when a previous run has not ended yet; onEnd restarts it.
    }
  }

  function stop(): void {
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
    available: Recognition !== null,
    listen,
    finish: () => {
      if (listening && joinWords(heard, current)) handOver();
    },
    stop,
    dispose() {
      stop();
      disposed = true;
      if (!recognizer) return;
      recognizer.onresult = null;
      recognizer.onerror = null;
      recognizer.onend = null;
    },
  };
}
