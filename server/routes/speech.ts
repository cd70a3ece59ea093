/** Speech-pipeline calls (docs/speech-pipeline-mode.md); thin: parse, call one service, answer. */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorSchema,
  speechAnswerHeadersSchema,
  speechTranscriptResponseSchema,
  speechTurnHeadersSchema,
  speechTurnResponseSchema,
  turnRequestSchema,
} from '../../contract';
import type { AppContext } from '../app-context';
import { TTS_CONTENT_TYPE } from '../providers/upstream/speech-clients';
import { callLimit } from '../plugins/call-limits';
import { perMinute } from '../plugins/security';
import { speechAudioTurn, speechClip, speechTextTurn, speechTranscript } from '../services/speech';
import { SPEECH_TURN_STREAM_TYPE } from '../../contract/limits';
import { lateFailure, sendLines, streamTurn, wantsStreamedTurn } from './streamed-turn';

/** 16 kHz 16-bit mono WAV is 32 kB a second: about five minutes of one answer. */
export const MAX_ANSWER_AUDIO_BYTES = 10 * 1024 * 1024;
/** Spoken answers per minute per client address (each costs an STT call before the turn limit counts). */
const ANSWERS_PER_MINUTE = 30;
/** Pieces of spoken answers per minute per client address: one at each pause of the candidate. */
const PIECES_PER_MINUTE = 60;

const turnErrors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
  502: errorSchema,
  503: errorSchema,
  504: errorSchema,
};

export function speechRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // An answer's audio arrives as the raw body (audio/wav from the browser's encoder).
  app.addContentTypeParser(/^audio\//, { parseAs: 'buffer', bodyLimit: MAX_ANSWER_AUDIO_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  r.post(
    '/interview/speech-turn',
    {
      // Interviewer turns: the TURN_RATE_LIMIT / TURN_ACCOUNT_RATE_LIMIT of POST /interview/turn.
      ...callLimit(ctx, 'turn'),
      schema: {
        tags: ['interview'],
        description:
          "Speech pipeline: the opening line (no utterance) or a typed answer in; the interviewer's line and its audio paths out. " +
          'With `resume: true` (the first turn after a resume) the interviewer picks up where the stored transcript stands. ' +
          `With \`Accept: ${SPEECH_TURN_STREAM_TYPE}\` the answer comes in lines once the first clip exists: each audio path as ` +
          'soon as its clip exists ({"audio"}), then the whole reply ({"reply"}), or a later failure ({"error", "status"}); ' +
          'a turn refused or whole before any clip answers as without it.',
        headers: speechTurnHeadersSchema,
        body: turnRequestSchema,
        response: { 200: speechTurnResponseSchema, ...turnErrors },
      },
    },
    async (request, reply) => {
      const email = request.headers['x-user-email'];
      if (!wantsStreamedTurn(request.headers.accept)) return speechTextTurn(ctx, email, request.body);
      const turn = await streamTurn(
        (announce: (told: { audio: string }) => void) => speechTextTurn(ctx, email, request.body, (path) => announce({ audio: path })),
        speechTurnResponseSchema,
        lateFailure(request.log),
      );
      if ('whole' in turn) return turn.whole;
      return sendLines(reply, turn.lines);
    },
  );

  r.post(
    '/interview/speech-answer',
    {
      bodyLimit: MAX_ANSWER_AUDIO_BYTES,
      config: { rateLimit: perMinute(ANSWERS_PER_MINUTE) },
      preHandler: callLimit(ctx, 'turn').preHandler,
      schema: {
        tags: ['interview'],
        description:
          'Speech pipeline: one spoken answer as the raw body (audio/wav, linear PCM; 415 otherwise, 413 beyond MAX_ANSWER_SECONDS); ' +
          "checked and counted against the session's SESSION_SPEECH_ANSWERS and SESSION_SPEECH_SECONDS (429 beyond them) before it is " +
          "transcribed, answered by the interviewer, the reply's audio paths out. Upstream failures answer 200 with retry: true and an apology.",
        headers: speechAnswerHeadersSchema,
        response: { 200: speechTurnResponseSchema, ...turnErrors, 413: errorSchema, 415: errorSchema },
      },
    },
    (request) =>
      speechAudioTurn(ctx, request.headers['x-user-email'], {
        sessionToken: request.headers['x-session-token'],
        audio: request.body,
        contentType: request.headers['content-type'] ?? '',
      }),
  );

  r.post(
    '/interview/speech-transcript',
    {
      bodyLimit: MAX_ANSWER_AUDIO_BYTES,
      config: { rateLimit: perMinute(PIECES_PER_MINUTE) },
      preHandler: callLimit(ctx, 'turn').preHandler,
      schema: {
        tags: ['interview'],
        description:
          'Speech pipeline: one piece of a spoken answer (its audio up to a pause) as the raw body (audio/wav, linear PCM), written ' +
          "down by speech-to-text; no turn is taken (the browser sends the answer's words to POST /interview/speech-turn with " +
          '`spoken: true` once it is over). Checked and counted like POST /interview/speech-answer; `heard: null` when speech-to-text failed.',
        headers: speechAnswerHeadersSchema,
        response: { 200: speechTranscriptResponseSchema, ...turnErrors, 413: errorSchema, 415: errorSchema },
      },
    },
    (request) =>
      speechTranscript(ctx, request.headers['x-user-email'], { sessionToken: request.headers['x-session-token'], audio: request.body }),
  );

  r.get(
    '/interview/speech/:clipId',
    {
      schema: {
        tags: ['interview'],
        description: "Speech pipeline: one part of the interviewer's line as audio/mpeg, streamed as it is synthesised.",
        params: z.object({ clipId: z.string().min(1).max(64) }),
        response: { 200: z.unknown().describe('audio/mpeg bytes'), 404: errorSchema, 409: errorSchema, 502: errorSchema },
      },
    },
    async (request, reply) => {
      const clip = await speechClip(ctx, request.params.clipId);
      return reply.header('content-type', TTS_CONTENT_TYPE).header('cache-control', 'no-store').send(Readable.from(clip));
    },
  );
}
