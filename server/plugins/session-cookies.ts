/**
 * The session cookies (docs/decisions/026-sign-in-links.md) and the check that a state-changing
 * call a cookie authenticates came from this site. HttpOnly (no script reads them), SameSite=Lax,
 * Secure when the site is served over https (PUBLIC_URL, or the request itself behind TRUST_PROXY).
 */
import cookie, { type CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import { SESSION_COOKIE, type SessionKind } from '../services/auth-sessions';

export async function registerCookies(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
}

function cookieOptions(config: AppConfig, request: FastifyRequest): CookieSerializeOptions {
  const secure = request.protocol === 'https' || Boolean(config.publicUrl?.startsWith('https:'));
  return { httpOnly: true, sameSite: 'lax', secure, path: '/' };
}

export function setSessionCookie(
  reply: FastifyReply,
  config: AppConfig,
  kind: SessionKind,
  session: { id: string; expiresAt: Date },
): void {
  void reply.setCookie(SESSION_COOKIE[kind], session.id, { ...cookieOptions(config, reply.request), expires: session.expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig, kind: SessionKind): void {
  void reply.clearCookie(SESSION_COOKIE[kind], cookieOptions(config, reply.request));
}

export const sessionCookie = (request: FastifyRequest, kind: SessionKind): string | undefined => request.cookies[SESSION_COOKIE[kind]];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const FOREIGN_ORIGIN = 'This request did not come from this site, so it was refused.';

/**
 * A state-changing call carried by a cookie must come from this site: its `Origin` is the site's
 * (PUBLIC_URL, the address it was asked at, or a CORS_ORIGINS entry), or, where a browser sends
 * `Origin: null` for its own page (Referrer-Policy no-referrer), `Sec-Fetch-Site` says same-origin.
 */
export function fromThisSite(config: AppConfig, request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.origin;
  const own = [
    `${request.protocol}://${request.host}`,
    ...(config.publicUrl ? [new URL(config.publicUrl).origin] : []),
    ...config.corsOrigins,
  ];
  if (origin && origin !== 'null') return own.includes(origin);
  return request.headers['sec-fetch-site'] === 'same-origin';
}
