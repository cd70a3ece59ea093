import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema, publicConfigSchema } from '../../contract';
import type { AppContext } from '../app-context';

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/healthz', { schema: { tags: ['system'], response: { 200: healthSchema } } }, async () => {
    // buildApp only resolves after migrations, so a live query is all that is left to prove.
    await ctx.db.execute(sql`select 1`);
    return { status: 'ok' as const };
  });

  r.get('/api/config', { schema: { tags: ['system'], response: { 200: publicConfigSchema } } }, () => ({
    productName: ctx.config.productName,
    supportChatUrl: ctx.config.supportChatUrl,
    supportContacts: ctx.config.supportContacts,
    voiceMode: ctx.providers.voice.transport,
    dogImageApi: ctx.config.dogImageApi,
  }));
}
