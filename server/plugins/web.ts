/**
 * Serves the built web app (web/dist) with an SPA fallback to index.html for client routes, or a
 * minimal page at `/` when the web app was not built. API paths never fall back to HTML.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIXES } from '../../contract/api-paths';
import { isClientRoute } from '../../domain/client-routes';

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export { API_PREFIXES };

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

function safeDecode(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Returns the SPA fallback for the not-found handler, or null when there is no built app. */
export async function registerWeb(
  app: FastifyInstance,
  options: { webDist: string | null; productName: string },
): Promise<((request: FastifyRequest, reply: FastifyReply) => FastifyReply | null) | null> {
  const dist = options.webDist;
  if (dist && existsSync(path.join(dist, 'index.html'))) {
    // preCompressed: the build writes .br/.gz beside each asset (web/vite.config.ts). Dot files
    // (the build stamp of scripts/web-build.ts) are not part of the app.
    await app.register(fastifyStatic, { root: dist, wildcard: true, index: ['index.html'], preCompressed: true, dotfiles: 'ignore' });
    return (request, reply) => {
      const acceptsHtml = (request.headers.accept ?? '').includes('text/html') || !request.headers.accept;
      if (request.method !== 'GET' || isApiPath(request.url) || !acceptsHtml) return null;
      // Hashed assets that are missing must 404, not turn into HTML. Under /admin/ every path is a
      // client route: its last part can be an admin secret, which may contain dots.
      const pathname = request.url.split('?')[0] ?? '';
      if (!pathname.startsWith('/admin/') && path.extname(pathname) !== '') return null;
      // An address the app does not know still gets the app (its page says so), with a 404.
      return reply
        .code(isClientRoute(safeDecode(pathname)) ? 200 : 404)
        .type('text/html')
        .sendFile('index.html');
    };
  }
  const title = `${escapeHtml(options.productName)} Feedback`;
  app.get('/', { schema: { hide: true } }, (_request, reply) =>
    reply
      .type('text/html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
          `<body><main><h1>${title}</h1><p>The server is running. Build the web app with <code>npm run build:web</code>.` +
          ` The API is described at <a href="/docs">/docs</a>.</p></main></body></html>`,
      ),
  );
  return null;
}
