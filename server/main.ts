/**
 * The server process: config → private DATA_DIR (0700) → DATA_DIR lock → admin secret → buildApp → listen. Prints
 * `Listening on http://HOST:PORT` (the real port when PORT=0). SIGINT/SIGTERM drain (SHUTDOWN_DRAIN_SECONDS,
 * plugins/draining.ts), then close gracefully.
 */
import pino from 'pino';
import type { AddressInfo } from 'node:net';
import { resolveAdminSecret } from './admin-secret';
import { buildApp } from './app';
import { configWarnings, readConfigOrExit } from './config';
import { prepareDataDir, makePrivate } from './data-dir';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './data-dir-lock';

async function main(): Promise<void> {
  const config = readConfigOrExit();
  for (const warning of configWarnings(config)) console.warn(`Warning: ${warning}`);
  prepareDataDir(config.dataDir);

  let lock: DataDirLock;
  try {
    lock = acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  process.on('exit', () => lock.release());

  const admin = resolveAdminSecret(config.adminSecret, config.dataDir);
  if (admin.generated) {
    console.log(`Admin secret (generated once, stored in ${admin.file} with mode 0600): ${admin.secret}`);
  }

  // Log lines are written without blocking the event loop: while one write is in flight the next
  // lines queue and go out together (a synchronous write per line showed in the request path's
  // profile, bench/notes.md). What is still queued is written synchronously at exit.
  const logStream = pino.destination({ dest: 1, sync: false });
  process.on('exit', () => {
    try {
      logStream.flushSync();
    } catch {
      // Nothing more can be done for the log while exiting.
    }
  });
  const app = await buildApp({ ...config, adminSecret: admin.secret }, { logger: { level: config.logLevel, stream: logStream } });
  // The embedded database chooses its own file modes; the files it just created become private too.
  makePrivate(config.dataDir);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const drainMs = config.shutdownDrainSeconds * 1000;
    const force = setTimeout(() => process.exit(1), drainMs + 10_000);
    force.unref();
    // Drain first (SHUTDOWN_DRAIN_SECONDS: the health check says so, requests are still served), then close.
    app
      .drain(drainMs)
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  // Fastify logs its own "Server listening at …" line (as JSON, once per interface) on listen; the one
  // start-up line is ours below, readable and the same at every LOG_LEVEL.
  const level = app.log.level;
  if (['trace', 'debug', 'info'].includes(level)) app.log.level = 'warn';
  try {
    await app.listen({ port: config.port, host: config.host });
  } finally {
    app.log.level = level;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  console.log(`Listening on http://${host}:${address.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Start-up failed: ${error.message}` : error);
  process.exit(1);
});
