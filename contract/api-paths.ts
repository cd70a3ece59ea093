/**
 * The path prefixes the API answers under. The server never falls back to the web app's HTML for
 * them (server/plugins/web.ts), and Vite's dev server proxies them to the API (web/vite.config.ts).
 * Zod-free, like limits.ts, so the web build may import it.
 */
export const API_PREFIXES = ['/api', '/user', '/interview', '/docs', '/healthz'] as const;
