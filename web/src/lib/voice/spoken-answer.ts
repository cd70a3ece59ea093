/**
 * The speech pipeline's answer in progress (docs/speech-pipeline-mode.md, How a turn runs): the
 * detector hands over the candidate's speech at every pause of TURN_PAUSE_PIECE_MS; each piece
 * is written down at once (POST /interview/speech-transcript) while the candidate is silent, and
 * kept if they go on. Once the words so far are known, the rule of domain/answer-ending.ts says how
 * long a pause ends this answer, counted from its last word; speaking again cancels the wait. Once
 * the recogniser has written a sentence mark, it is known to punctuate, and only a closed sentence
 * sounds finished (for the rest of the interview).
 * `endNow` (the Done button, the Enter key) ends it as soon as the last piece is written down.
 */
import { endOfTurnPauseMs, showsPunctuation, type Recogniser, type TurnPauses } from '../../../../domain/answer-ending';
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
  /** A pause began: the piece of audio since the last one (the last word was `pauses.pieceMs` ago). */
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
  /**
   * The candidate spoke again before the words before the pause were written down: where the new
   * speech begins in `pieces`, and how long the pause was. Once the words are known, a pause long
   * enough for them ends that answer there, and the new speech starts the next one.
   */
  let resumed: { index: number; pauseMs: number } | null = null;
  let cancelWait: Cancel | null = null;
  /** Bumped on every hand-over and reset: transcripts of an earlier answer are dropped. */
  let generation = 0;
  /** What the recogniser writes, as its transcripts so far show (kept across answers). */
  let recogniser: Recogniser = 'unknown';
  const pauseAfter = (words: string): number => endOfTurnPauseMs(words, options.question(), options.pauses, recogniser);

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

  /** The candidate spoke again after a pause that, as the words before it turn out, ended the answer. */
  function splitAnswer(): void {
    if (!resumed) return;
    const before = pieces.slice(0, resumed.index);
    if (before.length === 0 || before.some((p) => !p.ready)) return;
    const words = join(before.map((p) => p.words ?? ''));
    const ended = resumed.pauseMs >= pauseAfter(words);
    const next = pieces.slice(resumed.index);
    resumed = null;
    if (!ended) return;
    pieces = next;
    options.done(
      words,
      before.some((p) => p.words === null),
    );
  }

  /** With every piece written down and the candidate silent: end now, or wait the pause the words call for. */
  function decide(): void {
    clearWait();
    splitAnswer();
    if (speaking || lastWordAt === null || pieces.length === 0 || pieces.some((p) => !p.ready)) return;
    if (endRequested) return handOver();
    const words = join(pieces.map((p) => p.words ?? ''));
    const wait = lastWordAt + pauseAfter(words) - options.now();
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
    resumed = null;
  }

  return {
    speechStart() {
      if (speaking) return;
      speaking = true;
      clearWait();
      // Words before this pause still being written down: judge the pause once they are known.
      if (lastWordAt !== null && pieces.some((p) => !p.ready)) resumed = { index: pieces.length, pauseMs: options.now() - lastWordAt };
    },
    misfire() {
      speaking = false;
      resumed = null;
      decide();
    },
    speechEnd(wav) {
      speaking = false;
      lastWordAt = options.now() - options.pauses.pieceMs;
      const piece: { words: string | null; ready: boolean } = { words: null, ready: false };
      pieces.push(piece);
      const mine = generation;
      options.transcribe(wav).then(
        (words) => {
          if (words && showsPunctuation(words)) recogniser = 'punctuates';
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
