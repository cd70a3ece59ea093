import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorSchema,
  feedbackRequestSchema,
  feedbackResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  progressResponseSchema,
  ratingParamsSchema,
  ratingsQuerySchema,
  ratingTranscriptSchema,
  ratingsResponseSchema,
  userHeadersSchema,
} from '../../contract';
import type { AppContext } from '../app-context';
import { callLimit } from '../plugins/call-limits';
import { perMinute } from '../plugins/security';
import { login, requireAccount } from '../services/accounts';
import { createFeedback } from '../services/feedback';
import { progress, ratingTranscript } from '../services/progress';
import { listRatings } from '../services/ratings';

/** SIGNIN=link: the email plugins/identity.ts put in x-user-email from the session (it answered 401 without one). */
function signedIn(headers: Record<string, unknown>): string {
  const email = headers['x-user-email'];
  return typeof email === 'string' ? email : '';
}

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/user/login',
    {
      config: { rateLimit: perMinute(ctx.config.loginRateLimit) },
      schema: {
        tags: ['user'],
        // SIGNIN=link: the signed-in email (plugins/identity.ts puts it here), not the body's.
        ...(ctx.config.signin === 'link' ? { headers: userHeadersSchema } : {}),
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    (request) => login(ctx, ctx.config.signin === 'link' ? signedIn(request.headers) : request.body.email),
  );

  r.post(
    '/user/feedback',
    {
      ...callLimit(ctx, 'feedback'),
      schema: {
        tags: ['user'],
        headers: userHeadersSchema,
        body: feedbackRequestSchema,
        response: { 201: feedbackResponseSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const account = await requireAccount(ctx.db, request.headers['x-user-email']);
      const created = await createFeedback(ctx.db, ctx.config.accountStorageBytes, account, request.body);
      return reply.code(201).send(created);
    },
  );

  r.get(
    '/user/ratings',
    {
      schema: {
        tags: ['user'],
        headers: userHeadersSchema,
        querystring: ratingsQuerySchema,
        response: { 200: ratingsResponseSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    (request) => listRatings(ctx, request.headers['x-user-email'], request.query.page, request.query.limit),
  );

  r.get(
    '/user/progress',
    {
      schema: {
        tags: ['user'],
        headers: userHeadersSchema,
        response: { 200: progressResponseSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    (request) => progress(ctx, request.headers['x-user-email']),
  );

  r.get(
    '/user/ratings/:id/transcript',
    {
      schema: {
        tags: ['user'],
        headers: userHeadersSchema,
        params: ratingParamsSchema,
        response: { 200: ratingTranscriptSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    (request) => ratingTranscript(ctx, request.headers['x-user-email'], request.params.id),
  );
}
