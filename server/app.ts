/**
 * buildApp(config, deps?) assembles the Fastify app (it never listens): database (migrated),
 * catalogue on an empty database, providers, security, docs, routes, web app, error handling.
 * Tests call it directly (see test-support/test-app.ts); server/main.ts adds listen + lock.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext, Providers, ResolvedConfig } from './app-context';
import { readCatalogue } from './catalogue/read-catalogue';
import { SHIPPED_CATALOGUE_DIR, type AppConfig } from './config';
import { databaseOptionsFor, openDatabase, type Database } from './db/client';
import { registerDocs } from './plugins/docs';
import { frameworkErrorResponse, registerErrorHandling } from './plugins/errors';
import { withLogRedaction } from './plugins/log-redaction';
import { registerSecurity } from './plugins/security';
import { registerDraining } from './plugins/draining';
import { registerWeb, DEFAULT_WEB_DIST } from './plugins/web';
import { createProviders } from './providers/index';
import { checkedRaterModel, createRaterPool } from './rater';
import { adminRoutes } from './routes/admin';
import { healthRoutes } from './routes/health';
import { interviewRoutes } from './routes/interview';
import { speechRoutes } from './routes/speech';
import { questionSetRoutes } from './routes/question-sets';
import { userRoutes } from './routes/user';
import { signinRoutes } from './routes/signin';
import { registerCookies } from './plugins/session-cookies';
import { registerIdentity } from './plugins/identity';
import { createMailer } from './providers/upstream/mailer';
import { sweepSessions } from './services/auth-sessions';
import { sweepLinks } from './services/signin-links';
import { loadCatalogueIfEmpty, type CatalogueSet } from './services/catalogue';
import { createQuestionSetCache } from './services/question-set-cache';
import { handOverAll, HANDOVER_WAIT_MS, startCallLeases } from './services/calls';
import { randomUUID } from 'node:crypto';
import { startBackgroundJobs, type BackgroundJobs } from './services/background-jobs';
import { completePendingRatings } from './services/ratings';
import { memoryWindowCounter, postgresWindowCounter } from './services/window-counter';
import { createClipStore } from './services/speech';

/** The shipped catalogue (the default of CATALOGUE_DIR). */
export const CATALOGUE_DIR = SHIPPED_CATALOGUE_DIR;
/** Request bodies above this are refused with 413; a long interview transcript is far smaller. */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** How often ended rate-limit windows are dropped (rows on PostgreSQL, entries in memory). */
const SWEEP_MS = 10 * 60 * 1000;

/** The server timeouts (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, CONNECTION_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS). */
function serverTimeouts(config: AppConfig) {
  const { requestMs, headersMs, connectionMs, keepAliveMs } = config.timeouts;
  return {
    requestTimeout: requestMs,
    connectionTimeout: connectionMs,
    keepAliveTimeout: keepAliveMs,
    // Node checks the request and headers timeouts on this interval (default 30 s): check often
    // enough that a short timeout is kept to within a second.
    http: { headersTimeout: headersMs, connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(headersMs / 2))) },
  };
}

export interface AppDeps {
  /** Default: opened from config (PGlite in DATA_DIR or DATABASE_URL) and closed with the app. */
  database?: Database;
  /** Default: createProviders(config, log, the rater pool). */
  providers?: Providers;
  /** Default: the files in config.catalogueDir, read and checked at every start, loaded into an empty database. */
  catalogue?: () => Promise<CatalogueSet[]>;
  /** Default: web/dist; null serves the minimal page at `/`. */
  webDist?: string | null;
  /** Fastify logger option; default off (main.ts turns it on). */
  logger?: FastifyServerOptions['logger'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves when ratings left pending by a crash were completed (started at boot). */
    pendingRatingsDone: Promise<number>;
    /** Background retries of failed ratings and session expiry. */
    backgroundJobs: BackgroundJobs;
    /** What routes and services share (for tests that look at a registry). */
    appContext: AppContext;
  }
}

export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  if (!config.adminSecret) throw new Error('buildApp needs config.adminSecret (main.ts resolves it at start-up).');
  const resolved: ResolvedConfig = { ...config, adminSecret: config.adminSecret };
  // A missing or damaged model file stops start-up here, naming the file (RATER_MODEL).
  const raterModel = checkedRaterModel(config.raterModel);

  const app = Fastify({
    logger: withLogRedaction(deps.logger ?? false),
    bodyLimit: BODY_LIMIT_BYTES,
    // The x-user-email header and routes are case-sensitive enough; trailing slashes are not.
    // maxParamLength: an email path parameter may be 254 characters before %-encoding.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    frameworkErrors: frameworkErrorResponse,
    // A request that arrives while the server closes is answered by plugins/draining.ts, with a sentence.
    return503OnClosing: false,
    // Behind a reverse proxy every request comes from the proxy; TRUST_PROXY names the proxies
    // whose X-Forwarded-For gives the real client address (rate limits, throttles, logs).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // A client that trickles its request, or holds idle connections, cannot keep them forever.
    ...serverTimeouts(config),
  });
  // Connections beyond the cap are refused by Node before any work is done for them.
  app.server.maxConnections = config.maxConnections;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = deps.database ?? (await openDatabase(databaseOptionsFor(resolved)));
  if (!deps.database) app.addHook('onClose', () => database.close());
  try {
    // Read (and so checked) at every start, not only on an empty database: a broken file stops
    // the server naming the file and the problem, instead of surfacing at the next catalogue:sync.
    const sets = await (deps.catalogue ?? (() => readCatalogue(config.catalogueDir)))();
    await loadCatalogueIfEmpty(database.db, async () => sets);
  } catch (error) {
    if (!deps.database) await database.close();
    throw error;
  }

  // The built-in rater's workers start loading once the server listens (so "Listening on" does not
  // wait for the model); a rating that comes before they are ready waits for them.
  const rater = createRaterPool({
    modelDir: raterModel,
    onWorkerError: (error) => app.log.error({ err: error }, 'a rater worker failed'),
  });
  app.addHook('onListen', async () => rater.warm());
  app.addHook('onClose', () => rater.close());
  const providers = deps.providers ?? createProviders(resolved, app.log, rater);
  // Several server processes may share one PostgreSQL: their limits must count together.
  const limits = database.kind === 'postgres' ? postgresWindowCounter(database.db) : memoryWindowCounter();
  const sweep = setInterval(
    () =>
      void Promise.all([limits.sweep(), sweepSessions(database.db), sweepLinks(database.db)]).catch((error: unknown) =>
        app.log.warn({ err: error }, 'sweeping ended rate-limit windows, sessions and sign-in links failed'),
      ),
    SWEEP_MS,
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  // The in-memory registries of this process (calls, ratings, the rater's workers, the clips) are
  // created here and live on the context. Not on it: the question-set cache
  // (services/question-set-cache.ts), a snapshot of what the database holds, read again after REFRESH_MS.
  const ctx: AppContext = {
    config: resolved,
    db: database.db,
    providers,
    log: app.log,
    limits,
    callRegistry: new Map(),
    ratingRegistry: new Map(),
    rater,
    clips: createClipStore(database.db, { perSession: resolved.sessionAudioClips }),
    mailer:
      resolved.signin === 'link' && resolved.smtpUrl && resolved.mailFrom
        ? createMailer(resolved.smtpUrl, resolved.mailFrom, app.log)
        : null,
    lifecycle: { state: 'running' },
    instanceId: randomUUID(),
  };
  app.decorate('appContext', ctx);
  registerDraining(app, ctx);
  // OpenAI voice calls are supervised under a lease in the database (taken over when another server
  // stops renewing); at close each call is handed over, not hung up, before the database goes away
  // (a server told to stop listens on until another one claimed it, calls/registry.ts handOverAll).
  const leases = startCallLeases(ctx);
  app.addHook('preClose', async () => {
    await leases.stop();
    await handOverAll(ctx, ctx.lifecycle.stopping ? HANDOVER_WAIT_MS : 0);
  });

  registerErrorHandling(app);
  await registerSecurity(app, resolved, limits);
  await registerCookies(app);
  registerIdentity(app, ctx);
  await registerDocs(app, resolved.productName);

  healthRoutes(app, ctx);
  const catalogueJson = createQuestionSetCache(ctx.db);
  questionSetRoutes(app, ctx, catalogueJson);
  userRoutes(app, ctx);
  signinRoutes(app, ctx);
  interviewRoutes(app, ctx);
  speechRoutes(app, ctx);
  adminRoutes(app, ctx, catalogueJson);

  const fallback = await registerWeb(app, {
    webDist: deps.webDist === undefined ? DEFAULT_WEB_DIST : deps.webDist,
    productName: resolved.productName,
  });
  app.setNotFoundHandler((request, reply) => {
    if (fallback && fallback(request, reply)) return reply;
    return reply.code(404).send({ error: `There is no ${request.method} ${request.url.split('?')[0]} here.` });
  });

  // Ratings a crash left pending are completed in the background so start-up is not held up.
  app.decorate(
    'pendingRatingsDone',
    completePendingRatings(ctx, database.kind === 'postgres' ? 'shared' : 'alone').catch((error: unknown) => {
      app.log.error({ err: error }, 'completing pending ratings failed');
      return 0;
    }),
  );
  // Failed ratings are retried with backoff, stale sessions expire, while the server runs.
  const jobs = startBackgroundJobs(ctx, app.pendingRatingsDone);
  app.decorate('backgroundJobs', jobs);
  app.addHook('onClose', async () => {
    await app.pendingRatingsDone;
    // The interviewer's clips being synthesised are finished, so any other server serves them whole.
    await ctx.clips.written();
    await jobs.stop();
    // Sign-in mails on their way are sent before the server goes.
    await ctx.mailer?.settled();
    ctx.mailer?.close();
  });
  return app;
}
