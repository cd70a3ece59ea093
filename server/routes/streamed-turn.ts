/**
 * A speech turn answered in lines (SPEECH_TURN_STREAM_TYPE, contract/interview.ts
 * speechTurnLineSchema): the browser may play the reply's first clip while the language model is
 * still writing the rest of the line. Until the first clip path exists nothing is sent, so a turn
 * refused or failed before then answers exactly as the plain call does (status and {error}).
 */
import { SPEECH_TURN_STREAM_TYPE } from '../../contract/limits';
import { speechTurnResponseSchema, type SpeechTurnLine, type SpeechTurnResponse } from '../../contract';

export type StreamedTurn =
  /** The turn was whole (or refused) before any audio existed: one JSON body as usual. */
  | { whole: SpeechTurnResponse }
  /** NDJSON lines: the clip paths as they come, then the reply or a failure's sentence. */
  | { lines: AsyncIterable<string> };

/** Whether the caller asked for the streamed answer (Accept names the NDJSON type). */
export function wantsStreamedTurn(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes(SPEECH_TURN_STREAM_TYPE);
}

/**
 * Runs the turn, telling it where to announce each clip path. Resolves once the first path is
 * announced (lines) or the turn is over first (whole); rejects when the turn fails before any
 * path. `failure` turns a later failure into its line (the sentence and status it would answer).
 */
export function streamTurn(
  run: (announce: (path: string) => void) => Promise<SpeechTurnResponse>,
  failure: (error: unknown) => { error: string; status: number },
): Promise<StreamedTurn> {
  const queued: string[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const push = (line: SpeechTurnLine, last = false): void => {
    queued.push(`${JSON.stringify(line)}\n`);
    if (last) ended = true;
    wake?.();
    wake = null;
  };
  async function* lines(): AsyncGenerator<string> {
    for (;;) {
      while (queued.length > 0) yield queued.shift() as string;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return new Promise((resolve, reject) => {
    let streaming = false;
    run((path) => {
      push({ audio: path });
      if (streaming) return;
      streaming = true;
      resolve({ lines: lines() });
    }).then(
      (reply) => {
        if (!streaming) return resolve({ whole: reply });
        // Checked against the contract as the serializer checks a plain answer.
        const checked = speechTurnResponseSchema.safeParse(reply);
        push(checked.success ? { reply: checked.data } : failure(checked.error), true);
      },
      (error: unknown) => {
        if (!streaming) return reject(error);
        push(failure(error), true);
      },
    );
  });
}
