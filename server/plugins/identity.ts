/**
 * SIGNIN=link: who a candidate call is from comes from the session cookie alone
 * (docs/decisions/026-sign-in-links.md). Before validation, any `x-user-email` the client sent is
 * dropped and, for a call that names a user, the signed-in email is put in its place; so routes and
 * services read one identity in both modes. A call that needs a user and has no session answers 401;
 * a state-changing call from another site answers 403. SIGNIN=email registers nothing here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { findSession, SIGN_IN_FIRST } from '../services/auth-sessions';
import { FOREIGN_ORIGIN, fromThisSite, sessionCookie } from './session-cookies';

const USER_HEADER = 'x-user-email';

const headerField = (request: FastifyRequest, name: string): unknown => {
  const headers: unknown = request.routeOptions.schema?.headers;
  return headers instanceof z.ZodObject ? (headers.shape as Record<string, unknown>)[name] : undefined;
};

/** Whether the route's header schema names a user, and whether it must. */
function identityNeed(request: FastifyRequest): 'required' | 'optional' | 'none' {
  const field = headerField(request, USER_HEADER);
  if (!(field instanceof z.ZodType)) return 'none';
  return field.safeParse(undefined).success ? 'optional' : 'required';
}

export function registerIdentity(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.signin !== 'link') return;
  app.addHook('onRequest', async (request, reply) => {
    delete request.headers[USER_HEADER];
    // Admin calls have their own gate (routes/admin.ts), which checks the origin of cookie calls.
    if (headerField(request, 'x-admin-secret') !== undefined) return;
    if (!fromThisSite(ctx.config, request)) return reply.code(403).send({ error: FOREIGN_ORIGIN });
    const need = identityNeed(request);
    if (need === 'none') return;
    const session = await findSession(ctx.db, 'user', sessionCookie(request, 'user'));
    if (session?.email) request.headers[USER_HEADER] = session.email;
    else if (need === 'required') return reply.code(401).send({ error: SIGN_IN_FIRST });
  });
}
