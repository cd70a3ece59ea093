import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorSchema,
  rateRequestSchema,
  rateResponseSchema,
  tokenQuerySchema,
  tokenResponseSchema,
  turnRequestSchema,
  turnResponseSchema,
  userHeadersSchema,
} from '../../contract';
import type { AppContext } from '../app-context';
import { perMinute } from '../plugins/security';
import { rateTranscript } from '../services/ratings';
import { mintSessionToken } from '../services/tokens';
import { nextTurn } from '../services/turns';

/** Every call here: bad input, unknown user, unknown set or session. */
const userErrors = { 400: errorSchema, 401: errorSchema, 404: errorSchema };
/** The voice or language-model provider failed: refused (502), rate limited (503), too slow (504). */
const upstreamErrors = { 502: errorSchema, 503: errorSchema, 504: errorSchema };

export function interviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
      schema: {
        tags: ['interview'],
        description: "Browser-speech mode: the candidate's answer in, the interviewer's next line out.",
        headers: userHeadersSchema,
        body: turnRequestSchema,
        response: { 200: turnResponseSchema, ...userErrors, 403: errorSchema, 409: errorSchema, ...upstreamErrors },
      },
    },
    (request) => nextTurn(ctx, request.headers['x-user-email'], request.body),
  );

  r.post(
    '/interview/rate-transcript',
    {
      schema: {
        tags: ['interview'],
        description: 'Stores the transcript, rates it and answers the written feedback.',
        headers: userHeadersSchema,
        body: rateRequestSchema,
        response: { 200: rateResponseSchema, ...userErrors, 502: errorSchema },
      },
    },
    (request) => rateTranscript(ctx, request.headers['x-user-email'], request.body),
  );
}
