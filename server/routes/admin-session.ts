/**
 * The operator's browser session (docs/decisions/026-sign-in-links.md): the admin page sends the
 * secret once, the server answers with an HttpOnly admin session cookie, and later calls carry the
 * cookie instead of the secret. `x-admin-secret` still works for scripts. Also: signing a
 * candidate's email out everywhere (SIGNIN=link). Registered inside the admin gate (routes/admin.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminHeadersSchema, emailParamsSchema, errorSchema, okSchema, signedOutEverywhereSchema } from '../../contract';
import type { AppContext } from '../app-context';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../plugins/session-cookies';
import { createSession, endSession, endSessionsOf } from '../services/auth-sessions';

const denied = { 401: errorSchema, 403: errorSchema, 429: errorSchema };

export function adminSessionRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  const security = [{ admin: [] }];
  const headers = adminHeadersSchema;

  r.post(
    '/api/admin/session',
    {
      schema: {
        tags,
        security,
        headers,
        description: 'Opens an admin session for this browser (an HttpOnly cookie) once the secret was checked.',
        response: { 200: okSchema, ...denied },
      },
    },
    async (_request, reply) => {
      setSessionCookie(reply, ctx.config, 'admin', await createSession(ctx.db, 'admin', null));
      return { ok: true as const };
    },
  );
  r.get(
    '/api/admin/session',
    {
      schema: {
        tags,
        security,
        headers,
        description: 'Answers 200 while this browser may use the admin pages.',
        response: { 200: okSchema, ...denied },
      },
    },
    () => ({ ok: true as const }),
  );
  r.delete(
    '/api/admin/session',
    { schema: { tags, security, headers, description: "Ends this browser's admin session.", response: { 200: okSchema, ...denied } } },
    async (request, reply) => {
      await endSession(ctx.db, sessionCookie(request, 'admin'));
      clearSessionCookie(reply, ctx.config, 'admin');
      return { ok: true as const };
    },
  );
  r.post(
    '/api/admin/users/:email/signout',
    {
      schema: {
        tags,
        security,
        headers,
        params: emailParamsSchema,
        description: 'Signs the email out everywhere: every browser signed in with it must open a new sign-in link.',
        response: { 200: signedOutEverywhereSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => ({ email: request.params.email, ended: await endSessionsOf(ctx.db, request.params.email) }),
  );
}
