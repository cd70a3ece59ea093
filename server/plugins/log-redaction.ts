/**
 * The admin pages accept the secret as a path segment (`/admin/<secret>`, `/admin/events/<secret>`,
 * docs/product-rules.md, "Admin area"), and the browser requests that page from this server: the
 * request log must not keep the secret. The admin API's header is never logged (Fastify's request
 * serializer leaves headers out). The page names come from the one registry, domain/admin-pages.ts.
 *
 * Errors are logged without the values they carry: a failed query logs its SQL, never its
 * parameters (emails, transcripts); PostgreSQL's `detail` (which quotes row values) is dropped,
 * and email addresses in messages are masked.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { ADMIN_PAGES } from '../../domain/admin-pages';

const PAGE_NAMES = ADMIN_PAGES.map((page) => page.slug).join('|');
const ADMIN_PAGE_WITH_SECRET = new RegExp(`^(\\/+admin\\/+(?:${PAGE_NAMES}))\\/+[^?#]+`, 'i');
/** `/admin/<secret>`: the dashboard's secret, any first segment that is not a page name. */
const ADMIN_INDEX_WITH_SECRET = new RegExp(`^(\\/+admin)\\/+(?!(?:${PAGE_NAMES})(?:[/?#]|$))[^?#]+`, 'i');

export function redactUrl(url: string): string {
  return url.replace(ADMIN_PAGE_WITH_SECRET, '$1/[redacted]').replace(ADMIN_INDEX_WITH_SECRET, '$1/[redacted]');
}

/** Fastify's own request serializer, with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function withLogRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req: serializeRequest, err: logError } };
}

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
/** Keys of an error object that carry values of the request or the row, never logged. */
const VALUE_KEYS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery', 'body', 'transcript', 'transcripts']);

function scrub(text: string): string {
  // drizzle's "Failed query: <sql>\nparams: <values>": keep the SQL only.
  const withoutParams = text.replace(/\nparams:[\s\S]*$/, '');
  return withoutParams.replace(EMAIL, '[email]');
}

/** An error for the log: type, message, stack, code and the like, without carried values. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? scrub(error) : error;
  const out: Record<string, unknown> = { type: error.name, message: scrub(error.message) };
  // The stack's first lines repeat the message (with any values in it): keep only the frames.
  if (error.stack) out.stack = [`${error.name}: ${out.message as string}`, ...error.stack.split('\n').filter((line) => /^\s+at /.test(line))].join('\n');
  for (const [key, value] of Object.entries(error)) {
    if (VALUE_KEYS.has(key) || key === 'cause') continue;
    if (typeof value === 'string') out[key] = scrub(value);
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

/** The shape Fastify's logger expects of its `err` serializer. */
function logError(error: Error): { [key: string]: unknown; type: string; message: string; stack: string } {
  const out = serializeError(error) as Record<string, unknown>;
  return { ...out, type: String(out.type ?? 'Error'), message: String(out.message ?? ''), stack: String(out.stack ?? '') };
}
