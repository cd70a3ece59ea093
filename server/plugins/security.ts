/** Helmet (CSP, nosniff, no framing), the CORS allow-list and the rate-limit plugin. */
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { resolveVoiceMode, type AppConfig } from '../config';
import type { WindowCounter } from '../services/window-counter';

function originOf(url: string | null): string[] {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

/** https://dog.ceo -> https://*.dog.ceo (none for an IP address). */
function subdomainsOf(origin: string): string[] {
  const url = new URL(origin);
  if (/^[\d.]+$/.test(url.hostname) || url.hostname.startsWith('[')) return [];
  return [`${url.protocol}//*.${url.host}`];
}

export function contentSecurityPolicy(config: AppConfig): Record<string, string[]> {
  const openai = originOf(config.openaiBaseUrl);
  const dog = originOf(config.dogImageApi);
  return {
    'default-src': ["'self'"],
    // The speech pipeline's voice-activity detector runs as WebAssembly (onnxruntime-web).
    'script-src': ["'self'", ...(resolveVoiceMode(config) === 'pipeline' ? ["'wasm-unsafe-eval'"] : [])],
    // React style props and Swagger UI set inline styles.
    'style-src': ["'self'", "'unsafe-inline'"],
    // The dog service answers with picture URLs on its own subdomains (e.g. images.dog.ceo).
    'img-src': ["'self'", 'data:', 'blob:', ...dog, ...dog.flatMap(subdomainsOf)],
    'media-src': ["'self'", 'blob:'],
    'connect-src': ["'self'", ...openai, ...dog],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

type IncrDone = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The plugin hands `child` its merged route settings; `routeInfo` is the limited route. */
function routeKey(settings: unknown): string {
  const info = (settings as { routeInfo?: { method?: unknown; url?: unknown } } | null)?.routeInfo;
  return `route:${String(info?.method ?? '')}${String(info?.url ?? '')}:`;
}

/**
 * @fastify/rate-limit's store interface over our WindowCounter (shared in PostgreSQL when
 * several servers run): `child` is called once per limited route, so each route counts apart.
 */
function counterStore(limits: WindowCounter) {
  return class CounterStore {
    constructor(private readonly prefix: unknown = '') {}
    // The plugin passes the route's window as a third argument (its type declarations omit it).
    incr(key: string, done: IncrDone, timeWindow?: number): void {
      limits.hit(`${typeof this.prefix === 'string' ? this.prefix : ''}${key}`, timeWindow ?? 60_000).then(
        (count) => done(null, { current: count.hits, ttl: count.ttlMs }),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(settings: unknown): CounterStore {
      return new CounterStore(routeKey(settings));
    }
  };
}

export async function registerSecurity(app: FastifyInstance, config: AppConfig, limits: WindowCounter): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // The app is served over plain http on 127.0.0.1 by default; HSTS belongs to the TLS proxy.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    // Matches frame-ancestors 'none' for browsers that only know the older header.
    frameguard: { action: 'deny' },
  });
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['content-type', 'x-user-email', 'x-admin-secret', 'x-session-token'],
    maxAge: 600,
  });
  // Only routes that opt in (config.rateLimit) are limited: login and token minting.
  await app.register(rateLimit, {
    global: false,
    allowList: config.rateLimitAllowList,
    store: counterStore(limits),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: `Too many requests. Please wait ${context.after} and try again.`,
    }),
  });
}

/** A route's limit per client address (LOGIN_RATE_LIMIT and TOKEN_RATE_LIMIT are per minute). */
export function perMinute(max: number) {
  return { max, timeWindow: '1 minute' } as const;
}
