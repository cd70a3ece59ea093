/**
 * The speech pipeline's answer in progress (docs/speech-pipeline-mode.md, How a turn runs): the
 * detector hands over the candidate's speech at every pause of TURN_PAUSE_FINISHED_MS; each piece
 * is written down at once (POST /interview/speech-transcript) while the candidate is silent, and
 * kept if they go on. Once the words so far are known, the rule of domain/answer-ending.ts says how
 * long a pause ends this answer, counted from its last word; speaking again cancels the wait.
 * `endNow` (the Done button, the Enter key) ends it as soon as the last piece is written down.
 */
import { endOfTurnPauseMs, type TurnPauses } from '../../../../domain/answer-ending';
import type { Cancel, Schedule } from '../schedule';

export interface SpokenAnswerOptions {
  pauses: TurnPauses;
  /** The interviewer's last line (what the answer answers). */
  question(): string;
  /** The words of one piece of the answer's audio; null when it could not be written down. */
  transcribe(wav: ArrayBuffer): Promise<string | null>;
  /** The answer is over: its words ('' when nothing was heard), and whether a piece was lost. */
  done(words: string, lost: boolean): void;
  schedule: Schedule;
  now(): number;
}

export interface SpokenAnswer {
  /** The candidate speaks (again): the answer goes on. */
  speechStart(): void;
  /** What the detector took for speech was noise: the pause goes on as before. */
  misfire(): void;
  /** A pause began: the piece of audio since the last one (the last word was `pauses.finishedMs` ago). */
  speechEnd(wav: ArrayBuffer): void;
  /** The candidate says they are done: the answer ends once its pieces are written down. */
  endNow(): void;
  /** Whether an answer is in progress (heard and not yet handed over). */
  active(): boolean;
  /** Forgets the answer in progress. */
  reset(): void;
}

const join = (parts: string[]): string => parts.join(' ').replace(/\s+/g, ' ').trim();

export function createSpokenAnswer(options: SpokenAnswerOptions): SpokenAnswer {
  let pieces: Array<{ words: string | null; ready: boolean }> = [];
  let speaking = false;
  let endRequested = false;
  /** When the current pause began (the last word), or null while speaking or before any speech. */
  let lastWordAt: number | null = null;
  let cancelWait: Cancel | null = null;
  /** Bumped on every hand-over and reset: transcripts of an earlier answer are dropped. */
  let generation = 0;

  const clearWait = (): void => {
    cancelWait?.();
    cancelWait = null;
  };

  function handOver(): void {
    clearWait();
    const words = join(pieces.map((p) => p.words ?? ''));
    const lost = pieces.some((p) => p.words === null);
    reset();
    options.done(words, lost);
  }

  /** With every piece written down and the candidate silent: end now, or wait the pause the words call for. */
  function decide(): void {
    clearWait();
    if (speaking || lastWordAt === null || pieces.length === 0 || pieces.some((p) => !p.ready)) return;
    if (endRequested) return handOver();
    const words = join(pieces.map((p) => p.words ?? ''));
    const wait = lastWordAt + endOfTurnPauseMs(words, options.question(), options.pauses) - options.now();
    if (wait <= 0) return handOver();
    cancelWait = options.schedule(handOver, wait);
  }

  function reset(): void {
    clearWait();
    generation++;
    pieces = [];
    speaking = false;
    endRequested = false;
    lastWordAt = null;
  }

  return {
    speechStart() {
      speaking = true;
      clearWait();
    },
    misfire() {
      speaking = false;
      decide();
    },
    speechEnd(wav) {
      speaking = false;
      lastWordAt = options.now() - options.pauses.finishedMs;
      const piece: { words: string | null; ready: boolean } = { words: null, ready: false };
      pieces.push(piece);
      const mine = generation;
      options.transcribe(wav).then(
        (words) => {
          if (mine !== generation) return;
          piece.words = words;
          piece.ready = true;
          decide();
        },
        () => {
          if (mine !== generation) return;
          piece.ready = true;
          decide();
        },
      );
    },
    endNow() {
      if (!speaking && pieces.length === 0) return;
      endRequested = true;
      decide();
    },
    active: () => speaking || pieces.length > 0,
    reset,
  };
}
