/**
 * The admin pages accept the secret as a path segment (`/admin/<secret>`, `/admin/events/<secret>`,
 * docs/product-rules.md, "Admin area"), and the browser requests that page from this server: the
 * request log must not keep the secret. The admin API's header is never logged (Fastify's request
 * serializer leaves headers out). The page names come from the one registry, domain/admin-pages.ts.
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
  return { ...base, serializers: { ...base.serializers, req: serializeRequest } };
}
