/** SIGNIN=link: asking for a link, opening it, who is signed in, signing out (docs/decisions/026-sign-in-links.md). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorSchema,
  okSchema,
  signedInSchema,
  signinLinkRequestSchema,
  signinLinkResponseSchema,
  signinRequestSchema,
} from '../../contract';
import type { AppContext } from '../app-context';
import { perMinute } from '../plugins/security';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../plugins/session-cookies';
import { endSession, signedInEmail } from '../services/auth-sessions';
import { requestLink, useLink } from '../services/signin-links';

export function signinRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.signin !== 'link') return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sign-in'];

  r.post(
    '/user/signin-link',
    {
      config: { rateLimit: perMinute(ctx.config.loginRateLimit) },
      schema: {
        tags,
        description: 'Sends a one-time sign-in link to the email; the same answer whether or not it has an account.',
        body: signinLinkRequestSchema,
        response: { 200: signinLinkResponseSchema, 400: errorSchema, 403: errorSchema, 429: errorSchema, 503: errorSchema },
      },
    },
    (request) => requestLink(ctx, request.body.email, request.ip),
  );

  r.post(
    '/user/signin',
    {
      config: { rateLimit: perMinute(ctx.config.loginRateLimit) },
      schema: {
        tags,
        description: "Spends a sign-in link's token and signs this browser in (an HttpOnly session cookie).",
        body: signinRequestSchema,
        response: { 200: signedInSchema, 400: errorSchema, 403: errorSchema, 410: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const session = await useLink(ctx.db, request.body.token);
      setSessionCookie(reply, ctx.config, 'user', session);
      return { email: session.email };
    },
  );

  r.get(
    '/user/session',
    { schema: { tags, description: 'Who this browser is signed in as.', response: { 200: signedInSchema, 401: errorSchema } } },
    (request) => signedInEmail(ctx.db, sessionCookie(request, 'user')),
  );

  r.post(
    '/user/signout',
    { schema: { tags, description: 'Signs this browser out.', response: { 200: okSchema, 403: errorSchema } } },
    async (request, reply) => {
      await endSession(ctx.db, sessionCookie(request, 'user'));
      clearSessionCookie(reply, ctx.config, 'user');
      return { ok: true as const };
    },
  );
}
