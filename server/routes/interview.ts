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
import { TOKEN_RATE_LIMIT } from '../plugins/security';
import { rateTranscript } from '../services/ratings';
import { mintSessionToken } from '../services/tokens';
import { nextTurn } from '../services/turns';

export function interviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/interview/token',
    {
      config: { rateLimit: TOKEN_RATE_LIMIT },
      schema: {
        tags: ['interview'],
        description: 'Mints a voice session for a question set; consumes one credit (402 when none are left).',
        headers: userHeadersSchema,
        querystring: tokenQuerySchema,
        response: { 200: tokenResponseSchema, 401: errorSchema, 402: errorSchema, 403: errorSchema, 404: errorSchema },
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
        response: { 200: turnResponseSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
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
        response: { 200: rateResponseSchema, 401: errorSchema, 404: errorSchema, 502: errorSchema },
      },
    },
    (request) => rateTranscript(ctx, request.headers['x-user-email'], request.body),
  );
}
