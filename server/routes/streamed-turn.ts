/**
 * A turn answered in lines (SPEECH_TURN_STREAM_TYPE, one JSON object a line): the browser may
 * start the reply's voice while the language model is still writing the rest of the line
 * (docs/decisions/030-streamed-interviewer-replies.md). The speech pipeline's lines tell clip paths
 * (contract/interview.ts speechTurnLineSchema), browser speech's the settled parts of the line to
 * speak (turnLineSchema). Until the first such line exists nothing is sent, so a turn refused or
 * failed before then answers exactly as the plain call does (status and {error}).
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { HttpError } from '../services/http-error';
import { SERVER_FAULT } from '../plugins/errors';
import { SPEECH_TURN_STREAM_TYPE } from '../../contract/limits';

export type StreamedTurn<Reply> =
  /** The turn was whole (or refused) before anything could be told: one JSON body as usual. */
  | { whole: Reply }
  /** NDJSON lines: what was told as it came, then the reply or a failure's sentence. */
  | { lines: AsyncIterable<string> };

/** A later failure as its last line: the sentence and status it would have answered. */
export interface FailureLine {
  error: string;
  status: number;
}

/** Whether the caller asked for the streamed answer (Accept names the NDJSON type). */
export function wantsStreamedTurn(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes(SPEECH_TURN_STREAM_TYPE);
}

/**
 * Runs the turn, telling it where to announce each early line. Resolves once the first line is
 * announced (lines) or the turn is over first (whole); rejects when the turn fails before any
 * line. The whole reply is checked against `replySchema` as the serializer checks a plain answer;
 * `failure` turns a later failure into its line.
 */
export function streamTurn<Reply, Told>(
  run: (announce: (told: Told) => void) => Promise<Reply>,
  replySchema: z.ZodType<Reply>,
  failure: (error: unknown) => FailureLine,
): Promise<StreamedTurn<Reply>> {
  const queued: string[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const push = (line: Told | { reply: Reply } | FailureLine, last = false): void => {
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
    run((told) => {
      push(told);
      if (streaming) return;
      streaming = true;
      resolve({ lines: lines() });
    }).then(
      (reply) => {
        if (!streaming) return resolve({ whole: reply });
        const checked = replySchema.safeParse(reply);
        push(checked.success ? { reply: checked.data } : failure(checked.error), true);
      },
      (error: unknown) => {
        if (!streaming) return reject(error);
        push(failure(error), true);
      },
    );
  });
}

/** The 200 and the first lines are sent: a failure is the last line, as the error handler would answer it. */
export function lateFailure(log: FastifyBaseLogger): (error: unknown) => FailureLine {
  return (error) => {
    if (error instanceof HttpError) return { error: error.message, status: error.statusCode };
    log.error({ err: error }, 'unhandled error in a streamed turn');
    return { error: SERVER_FAULT, status: 500 };
  };
}

/** Answers the lines as they come (past the serializer: each line was checked in streamTurn). */
export function sendLines(reply: FastifyReply, lines: AsyncIterable<string>): FastifyReply {
  return (
    reply
      .header('content-type', SPEECH_TURN_STREAM_TYPE)
      .header('cache-control', 'no-store')
      // nginx must not buffer the answer (docs/decisions/030).
      .header('x-accel-buffering', 'no')
      .send(Readable.from(lines) as never)
  );
}
