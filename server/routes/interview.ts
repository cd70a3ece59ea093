import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  abandonResponseSchema,
  errorSchema,
  liveSessionResponseSchema,
  rateRequestSchema,
  rateResponseSchema,
  sessionParamsSchema,
  sessionReportResponseSchema,
  sessionReportSchema,
  tokenQuerySchema,
  tokenResponseSchema,
  turnRequestSchema,
  turnHeadersSchema,
  turnResponseSchema,
  userHeadersSchema,
} from '../../contract';
import { SPEECH_TURN_STREAM_TYPE } from '../../contract/limits';
import { lateFailure, sendLines, streamTurn, wantsStreamedTurn } from './streamed-turn';
import type { AppContext } from '../app-context';
import { callLimit } from '../plugins/call-limits';
import { perMinute } from '../plugins/security';
import { rateTranscript } from '../services/ratings';
import { abandonSession } from '../services/abandon';
import { reportSession } from '../services/session-telemetry';
import { openRealtimeCall } from '../services/calls';
import { resumeSession } from '../services/resume';
import { liveSession } from '../services/live-session';
import { z } from 'zod';

/** An SDP offer is a few kB; anything much larger is not one. */
const MAX_SDP_BYTES = 64 * 1024;
import { mintSessionToken } from '../services/tokens';
import { nextTurn } from '../services/turns';

/** Every call here: bad input, unknown user, unknown set or session. */
const userErrors = { 400: errorSchema, 401: errorSchema, 404: errorSchema };
/** The voice or language-model provider failed: refused (502), rate limited (503), too slow (504). */
const upstreamErrors = { 502: errorSchema, 503: errorSchema, 504: errorSchema };

export function interviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser('application/sdp', { parseAs: 'string', bodyLimit: MAX_SDP_BYTES }, (_request, body, done) => done(null, body));

  r.post(
    '/interview/sessions/:id/sdp',
    {
      bodyLimit: MAX_SDP_BYTES,
      config: { rateLimit: perMinute(ctx.config.tokenRateLimit) },
      schema: {
        tags: ['interview'],
        description:
          "OpenAI voice mode: the browser's SDP offer (application/sdp, Authorization: Bearer <the token's client_secret.value>) in; " +
          'the server opens the call with its own key and answers the SDP answer (201, application/sdp). A call that cannot start gives the credit back.',
        params: sessionParamsSchema,
        headers: z.object({ authorization: z.string().max(500).optional() }),
        response: {
          201: z.string().describe('application/sdp answer'),
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
          409: errorSchema,
          413: errorSchema,
          ...upstreamErrors,
        },
      },
    },
    async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      const answer = await openRealtimeCall(ctx, request.params.id, request.headers.authorization, body);
      return reply.code(201).header('content-type', 'application/sdp').header('cache-control', 'no-store').send(answer);
    },
  );

  r.get(
    '/interview/token',
    {
      config: { rateLimit: perMinute(ctx.config.tokenRateLimit) },
      schema: {
        tags: ['interview'],
        description: 'Mints a voice session for a question set; consumes one credit (402 when none are left).',
        headers: userHeadersSchema,
        querystring: tokenQuerySchema,
        response: { 200: tokenResponseSchema, ...userErrors, 402: errorSchema, 403: errorSchema, ...upstreamErrors },
      },
    },
    (request) => mintSessionToken(ctx, request.headers['x-user-email'], request.query.questionSetId),
  );

  r.post(
    '/interview/turn',
    {
      ...callLimit(ctx, 'turn'),
      schema: {
        tags: ['interview'],
        description:
          "Browser-speech mode: the candidate's answer in, the interviewer's next line out. With `resume: true` (the first turn after " +
          'a resume) the interviewer picks up where the stored transcript stands, led by "Welcome back.". ' +
          `With \`Accept: ${SPEECH_TURN_STREAM_TYPE}\` a line a language model writes comes in lines: each part of it to speak as soon ` +
          'as it is settled ({"say"}), then the whole reply ({"reply"}), or a later failure ({"error", "status"}); a turn refused ' +
          'or whole before any part answers as without it.',
        headers: turnHeadersSchema,
        body: turnRequestSchema,
        response: { 200: turnResponseSchema, ...userErrors, 403: errorSchema, 409: errorSchema, 429: errorSchema, ...upstreamErrors },
      },
    },
    async (request, reply) => {
      const email = request.headers['x-user-email'];
      if (!wantsStreamedTurn(request.headers.accept)) return nextTurn(ctx, email, request.body);
      const turn = await streamTurn(
        (announce: (told: { say: string }) => void) => nextTurn(ctx, email, request.body, (part) => announce({ say: part })),
        turnResponseSchema,
        lateFailure(request.log),
      );
      return 'whole' in turn ? turn.whole : sendLines(reply, turn.lines);
    },
  );

  r.post(
    '/interview/rate-transcript',
    {
      ...callLimit(ctx, 'rating'),
      schema: {
        tags: ['interview'],
        description:
          "Stores the transcript of the caller's session (sessionId, or the newest unrated one for the set) and answers its " +
          'written feedback; a repeat answers the stored rating. 409 without an open session; 422 when nothing was said (credit returned).',
        headers: userHeadersSchema,
        body: rateRequestSchema,
        response: { 200: rateResponseSchema, ...userErrors, 409: errorSchema, 422: errorSchema, 429: errorSchema, 502: errorSchema },
      },
    },
    (request) => rateTranscript(ctx, request.headers['x-user-email'], request.body),
  );

  r.get(
    '/interview/sessions/live',
    {
      config: { rateLimit: perMinute(ctx.config.tokenRateLimit) },
      schema: {
        tags: ['interview'],
        description:
          "The caller's newest interview that is still open (not rated, abandoned or expired), with what the server stored of it, " +
          'or null. After a reload or in a new tab the app offers to continue it (resume: same session, no credit) or to end it with feedback.',
        headers: userHeadersSchema,
        response: { 200: liveSessionResponseSchema, ...userErrors },
      },
    },
    (request) => liveSession(ctx, request.headers['x-user-email']),
  );

  r.post(
    '/interview/sessions/:id/resume',
    {
      config: { rateLimit: perMinute(ctx.config.tokenRateLimit) },
      schema: {
        tags: ['interview'],
        description:
          "After a dropped connection: a new session token for the caller's open session (no credit spent; the one rating still " +
          'covers the whole interview). An OpenAI voice session then starts a continuation call with the transcript so far; a browser-speech ' +
          'session asks its next turn with `resume: true`. At most 2 per session (then 429).',
        headers: userHeadersSchema,
        params: sessionParamsSchema,
        response: { 200: tokenResponseSchema, ...userErrors, 403: errorSchema, 409: errorSchema, 429: errorSchema, ...upstreamErrors },
      },
    },
    (request) => resumeSession(ctx, request.headers['x-user-email'], request.params.id),
  );

  r.post(
    '/interview/sessions/:id/report',
    {
      config: { rateLimit: perMinute(ctx.config.tokenRateLimit) },
      schema: {
        tags: ['interview'],
        description:
          "Session telemetry from the browser: `connected` when a turn-taking transport is up (the server's clock sets the time, " +
          'within 2 minutes of minting; an OpenAI call is timed by the server), `ended` with the reason when a session ends in the ' +
          "browser without a rating (a failed start, leaving with nothing said; a rating carries `endReason` itself). The first end recorded wins. Only the session's owner, only while it is open; `recorded` false otherwise.",
        headers: userHeadersSchema,
        params: sessionParamsSchema,
        body: sessionReportSchema,
        response: { 200: sessionReportResponseSchema, ...userErrors, 403: errorSchema },
      },
    },
    (request) => reportSession(ctx, request.headers['x-user-email'], request.params.id, request.body),
  );

  r.post(
    '/interview/sessions/:id/abandon',
    {
      ...callLimit(ctx, 'abandon'),
      schema: {
        tags: ['interview'],
        description:
          "A start that failed in the browser: gives the credit of the caller's unrated session back within 2 minutes of minting " +
          '(at most 3 a day, then 429).',
        headers: userHeadersSchema,
        params: sessionParamsSchema,
        response: { 200: abandonResponseSchema, ...userErrors, 403: errorSchema, 409: errorSchema, 429: errorSchema },
      },
    },
    (request) => abandonSession(ctx, request.headers['x-user-email'], request.params.id),
  );
}
