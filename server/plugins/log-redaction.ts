/**
 * The admin pages accept the secret as a path segment (`/admin/<secret>`, `/admin/events/<secret>`,
 * docs/product-rules.md, "Admin area"), and the browser requests that page from this server: the
 * request log must not keep the secret. The admin API's header is never logged (Fastify's request
 * serializer leaves headers out). The page names come from the one registry, domain/admin-pages.ts.
 *
 * Errors are logged without the values they carry: a failed query logs its SQL, never its
 * parameters (emails, transcripts); PostgreSQL's `detail` (which quotes row values) is dropped,
 * and email addresses in messages are masked. Email addresses in request URLs (`/api/emails/a%40b.co`,
 * `/api/admin/users/...`) are masked too, as are those in any text logged as a message. An error
 * that is not an Error object (a plain string, as `{ err: error.message }` logs it) is logged as
 * `{type, message}`, not spread into one field per character.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { ADMIN_PAGES } from '../../domain/admin-pages';

const PAGE_NAMES = ADMIN_PAGES.map((page) => page.slug).join('|');
const ADMIN_PAGE_WITH_SECRET = new RegExp(`^(\\/+admin\\/+(?:${PAGE_NAMES}))\\/+[^?#]+`, 'i');
/** `/admin/<secret>`: the dashboard's secret, any first segment that is not a page name. */
const ADMIN_INDEX_WITH_SECRET = new RegExp(`^(\\/+admin)\\/+(?!(?:${PAGE_NAMES})(?:[/?#]|$))[^?#]+`, 'i');

/** An email in a URL: `@` as is or percent-encoded (`%40`, or `%2540` when encoded twice). */
const URL_EMAIL = /[^/?&=#\s"]+(?:@|%40|%2540)[^/?&#\s"]+/gi;

export function redactUrl(url: string): string {
  return url
    .replace(ADMIN_PAGE_WITH_SECRET, '$1/[redacted]')
    .replace(ADMIN_INDEX_WITH_SECRET, '$1/[redacted]')
    .replace(URL_EMAIL, '[email]');
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
  return {
    ...base,
    // Fastify's type wants a stack; a string error has none, and pino leaves the key out.
    serializers: {
      ...base.serializers,
      req: serializeRequest,
      err: logError as (error: unknown) => ReturnType<typeof logError> & { stack: string },
    },
    // Messages too ("Route GET:/api/emails/a%40b.co not found" and the like).
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as Parameters<typeof method>);
      },
    },
  };
}

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
/** Keys of an error object that carry values of the request or the row, never logged. */
const VALUE_KEYS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery', 'body', 'transcript', 'transcripts']);

/** Email addresses in a text, written out or percent-encoded, masked. */
function redactText(text: string): string {
  return text.replace(EMAIL, '[email]').replace(URL_EMAIL, '[email]');
}

function scrub(text: string): string {
  // drizzle's "Failed query: <sql>\nparams: <values>": keep the SQL only.
  return redactText(text.replace(/\nparams:[\s\S]*$/, ''));
}

/** An error for the log: type, message, stack, code and the like, without carried values. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? scrub(error) : error;
  const out: Record<string, unknown> = { type: error.name, message: scrub(error.message) };
  // The stack's first lines repeat the message (with any values in it): keep only the frames.
  if (error.stack)
    out.stack = [`${error.name}: ${out.message as string}`, ...error.stack.split('\n').filter((line) => /^\s+at /.test(line))].join('\n');
  for (const [key, value] of Object.entries(error)) {
    if (VALUE_KEYS.has(key) || key === 'cause') continue;
    if (typeof value === 'string') out[key] = scrub(value);
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

/** Words for something thrown or logged as an error that is not an Error object. */
function describeNonError(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'message' in value && typeof value.message === 'string') return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The shape Fastify's logger expects of its `err` serializer. `{ err: error.message }` passes a
 * string: it is logged as the error's message (spread, it was one field per character).
 */
export function logError(error: unknown): { [key: string]: unknown; type: string; message: string; stack?: string } {
  if (!(error instanceof Error)) return { type: 'Error', message: scrub(describeNonError(error)) };
  const out = serializeError(error) as Record<string, unknown>;
  return { ...out, type: String(out.type ?? 'Error'), message: String(out.message ?? ''), stack: String(out.stack ?? '') };
}
