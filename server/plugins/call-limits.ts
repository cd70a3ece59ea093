/**
 * Limits of the candidate calls that cost the operator (rating, turns) or write rows (abandon,
 * feedback): per client address through @fastify/rate-limit, and per account here, both counted in
 * the shared WindowCounter (PostgreSQL when several servers run). Settings: `*_RATE_LIMIT` and
 * `*_ACCOUNT_RATE_LIMIT` (README). Addresses in RATE_LIMIT_ALLOW are exempt from both.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../app-context';
import type { LimitedCall } from '../config';
import { HttpError } from '../services/http-error';
import { perMinute } from './security';

const WINDOW_MS = 60_000;

export function accountLimitText(retryInMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryInMs / 1000));
  return `Too many requests from this account. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;
}

function accountLimit(ctx: AppContext, call: LimitedCall): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (ctx.config.rateLimitAllowList.includes(request.ip)) return;
    const header = request.headers['x-user-email'];
    const email = typeof header === 'string' ? header.trim().toLowerCase() : '';
    if (!email) return;
    const count = await ctx.limits.hit(`account:${call}:${email}`, WINDOW_MS);
    if (count.hits > ctx.config.callLimits[call].perAccount) {
      void reply.header('retry-after', String(Math.max(1, Math.ceil(count.ttlMs / 1000))));
      throw new HttpError(429, accountLimitText(count.ttlMs));
    }
  };
}

/** Route options for a limited call: `{...callLimit(ctx, 'rating'), schema}`. */
export function callLimit(ctx: AppContext, call: LimitedCall) {
  return {
    config: { rateLimit: perMinute(ctx.config.callLimits[call].perAddress) },
    preHandler: accountLimit(ctx, call),
  };
}
