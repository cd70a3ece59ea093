/**
 * Stopping without cutting anyone off (docs/decisions/018-servers-drain-before-they-stop.md). On
 * SIGTERM the server first drains for SHUTDOWN_DRAIN_SECONDS: GET /healthz answers 503 `draining`
 * so a load balancer sends new requests elsewhere, every request is still served (a session's
 * state is in the database, so any server can answer it) but each answer closes its connection,
 * and no new background work starts (left sessions, rating retries, taking over other servers'
 * OpenAI calls). Then it closes: no new connections, a request that still arrives on an open one
 * answers 503 with a sentence, the requests in flight finish, and the OpenAI calls are handed over.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';

export const SERVER_RESTARTING = 'This server is restarting. Please try again in a moment.';

declare module 'fastify' {
  interface FastifyInstance {
    /** Starts draining (GET /healthz answers 503) and resolves after `ms`; then call close(). */
    drain(ms: number): Promise<void>;
  }
}

export function registerDraining(app: FastifyInstance, ctx: AppContext): void {
  app.decorate('drain', async (ms: number) => {
    if (ctx.lifecycle.state === 'running') ctx.lifecycle.state = 'draining';
    ctx.lifecycle.stopping = true;
    ctx.log.info({ seconds: ms / 1000 }, 'draining: the health check answers 503; requests are still served');
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  });
  // First of the close hooks: from here on nothing new is started.
  app.addHook('preClose', async () => {
    ctx.lifecycle.state = 'closing';
  });
  app.addHook('onRequest', async (request, reply) => {
    if (ctx.lifecycle.state === 'running') return;
    // The client's next request opens a new connection, which the load balancer sends to a server that runs.
    reply.header('connection', 'close');
    if (ctx.lifecycle.state === 'closing' && request.url !== '/healthz') return reply.code(503).send({ error: SERVER_RESTARTING });
  });
}
