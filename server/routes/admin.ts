/** Admin calls; every one passes the constant-time, throttled secret check before anything else. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminEventSchema,
  adminHeadersSchema,
  emailAccountSchema,
  emailListSchema,
  adminCountsSchema,
  emailParamsSchema,
  emailsQuerySchema,
  emailUpsertSchema,
  errorSchema,
  eventsQuerySchema,
  eventsResponseSchema,
  type EventsQuery,
  feedbackListSchema,
  feedbackQuerySchema,
  type FeedbackQuery,
  idSchema,
  interviewStatsSchema,
  okSchema,
} from '../../contract';
import type { AppContext } from '../app-context';
import {
  adminThrottleKey,
  createAdminGuard,
  adminCounts,
  deleteEmail,
  deleteFeedback,
  eventDetails,
  eventsPageJson,
  interviewStats,
  listEmails,
  upsertEmail,
  createFeedbackListCache,
} from '../services/admin';
import type { QuestionSetCache } from '../services/question-set-cache';
import { adminConsoleRoutes } from './admin-console';
import { adminSessionRoutes } from './admin-session';
import { findSession } from '../services/auth-sessions';
import { FOREIGN_ORIGIN, fromThisSite, sessionCookie } from '../plugins/session-cookies';

const denied = { 401: errorSchema, 429: errorSchema };
/** The events page reads the admin throttle's count in its own statement (services/admin/auth.ts, deferPeek). */
const EVENTS_URL = '/api/events';
const ADMIN_SESSION_URL = '/api/admin/session';
export const NO_ADMIN_SESSION = 'This browser has no admin session: enter the admin secret.';

export function adminRoutes(app: FastifyInstance, ctx: AppContext, catalogue: QuestionSetCache): void {
  const guard = createAdminGuard(ctx.config.adminSecret, ctx.limits);
  const feedbackJson = createFeedbackListCache(ctx.db);

  void app.register(async (scope) => {
    // onRequest runs before body parsing and validation: nothing is read for a wrong secret.
    scope.addHook('onRequest', async (request, reply) => {
      const header = request.headers['x-admin-secret'];
      // The browser's admin session (the secret was entered once): a state-changing call must come from this site.
      if (header === undefined && (await findSession(ctx.db, 'admin', sessionCookie(request, 'admin')))) {
        if (!fromThisSite(ctx.config, request)) return reply.code(403).send({ error: FOREIGN_ORIGIN });
        return;
      }
      // The admin page asks on every load whether this browser still holds a session: no secret was
      // guessed, so a "no" is not counted against the address (routes/admin-session.ts).
      if (header === undefined && request.method === 'GET' && request.routeOptions.url === ADMIN_SESSION_URL) {
        return reply.code(401).send({ error: NO_ADMIN_SESSION });
      }
      const result = await guard.check(
        request.ip,
        typeof header === 'string' ? header : undefined,
        request.routeOptions.url === EVENTS_URL,
      );
      if (!result.ok) return reply.code(result.status).send({ error: result.error });
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['admin'];
    const security = [{ admin: [] }];

    // The plain instance: the answer is JSON text built by the database (eventsPageJson), which
    // also reads the throttle's count the guard left to it on PostgreSQL (one round trip).
    scope.get<{ Querystring: EventsQuery }>(
      EVENTS_URL,
      {
        schema: {
          tags,
          security,
          headers: adminHeadersSchema,
          querystring: eventsQuerySchema,
          response: { 200: eventsResponseSchema, 400: errorSchema, ...denied },
        },
      },
      async (request, reply) => {
        const page = await eventsPageJson(ctx.db, request.query.limit, request.query.before, adminThrottleKey(request.ip));
        const settled = guard.defers ? await guard.settle(request.ip, page.throttleFailures) : { ok: true as const };
        if (!settled.ok) return reply.code(settled.status).send({ error: settled.error });
        return reply.type('application/json; charset=utf-8').send(page.json);
      },
    );
    r.get(
      '/api/events/:id',
      {
        schema: {
          tags,
          security,
          description: 'One whole event: its full transcript, rating Markdown and breakdown (the list carries previews).',
          headers: adminHeadersSchema,
          params: z.object({ id: idSchema }),
          response: { 200: adminEventSchema, 400: errorSchema, 404: errorSchema, ...denied },
        },
      },
      (request) => eventDetails(ctx.db, request.params.id),
    );
    r.get(
      '/api/interview-stats',
      { schema: { tags, security, headers: adminHeadersSchema, response: { 200: interviewStatsSchema, ...denied } } },
      () => interviewStats(ctx.db),
    );
    r.get(
      '/api/emails',
      {
        schema: {
          tags,
          security,
          description: 'Accounts by email, a page at a time: `after` is the last email of the previous page.',
          headers: adminHeadersSchema,
          querystring: emailsQuerySchema,
          response: { 200: emailListSchema, 400: errorSchema, ...denied },
        },
      },
      (request) => listEmails(ctx.db, ctx.config, request.query),
    );
    r.get(
      '/api/admin/counts',
      {
        schema: {
          tags,
          security,
          headers: adminHeadersSchema,
          description: 'How many feedback rows and accounts there are in all.',
          response: { 200: adminCountsSchema, ...denied },
        },
      },
      () => adminCounts(ctx.db),
    );
    r.post(
      '/api/emails',
      {
        schema: {
          tags,
          security,
          description: '{email, limit: null} creates (409 when it exists); {email, isPro, limit: null} sets the plan.',
          headers: adminHeadersSchema,
          body: emailUpsertSchema,
          response: { 200: emailAccountSchema, 201: emailAccountSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, ...denied },
        },
      },
      async (request, reply) => {
        const result = await upsertEmail(ctx.db, ctx.config, request.body);
        return reply.code(result.created ? 201 : 200).send(result.account);
      },
    );
    r.delete(
      '/api/emails/:email',
      {
        schema: {
          tags,
          security,
          headers: adminHeadersSchema,
          params: emailParamsSchema,
          response: { 200: okSchema, 404: errorSchema, ...denied },
        },
      },
      async (request) => {
        await deleteEmail(ctx.db, request.params.email);
        return { ok: true as const };
      },
    );
    // The plain instance: the typed one would insist on the object, not its prepared JSON.
    scope.get<{ Querystring: FeedbackQuery }>(
      '/api/feedback',
      {
        schema: {
          tags,
          security,
          description: 'Feedback newest first, a page at a time: `before` is the last id of the previous page.',
          headers: adminHeadersSchema,
          querystring: feedbackQuerySchema,
          response: { 200: feedbackListSchema, 400: errorSchema, ...denied },
        },
      },
      // Already validated JSON: a string with a JSON content type skips the per-request serializer.
      async (request, reply) => reply.type('application/json; charset=utf-8').send(await feedbackJson(request.query)),
    );
    r.delete(
      '/api/feedback/:id',
      {
        schema: {
          tags,
          security,
          headers: adminHeadersSchema,
          params: z.object({ id: idSchema }),
          response: { 200: okSchema, 404: errorSchema, ...denied },
        },
      },
      async (request) => {
        await deleteFeedback(ctx.db, request.params.id);
        return { ok: true as const };
      },
    );
    adminConsoleRoutes(scope, ctx, catalogue);
    adminSessionRoutes(scope, ctx);
  });
}
