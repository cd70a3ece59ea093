import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema, publicConfigSchema } from '../../contract';
import type { AppContext } from '../app-context';

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        description: 'ok (200) while the server takes work; draining (503) once it was told to stop, so a load balancer moves away.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      if (ctx.lifecycle.state !== 'running') return reply.code(503).send({ status: 'draining' as const });
      // buildApp only resolves after migrations, so a live query is all that is left to prove.
      await ctx.db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );

  r.get('/api/config', { schema: { tags: ['system'], response: { 200: publicConfigSchema } } }, () => ({
    productName: ctx.config.productName,
    supportChatUrl: ctx.config.supportChatUrl,
    supportContacts: ctx.config.supportContacts,
    voiceMode: ctx.providers.voice.transport,
    turnPauses: ctx.config.turnPauses,
    dogImageApi: ctx.config.dogImageApi,
    signin: ctx.config.signin,
  }));
}
