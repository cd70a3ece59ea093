import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emailSchema, questionSetListSchema } from '../../contract';
import type { AppContext } from '../app-context';
import type { QuestionSetCache } from '../services/question-set-cache';

const optionalUserHeaders = z.object({ 'x-user-email': emailSchema.optional() });

/** `catalogueJson` is shared with the admin routes, which drop it when a set changes. */
export function questionSetRoutes(app: FastifyInstance, ctx: AppContext, catalogueJson: QuestionSetCache): void {
  // The plain instance: the handler sends the cached, already validated JSON string.
  app.get(
    '/api/question-sets',
    {
      schema: {
        tags: ['question sets'],
        description: 'Every question set, sorted by index. Premium model answers only for an active pro named by x-user-email.',
        headers: optionalUserHeaders,
        response: { 200: questionSetListSchema },
      },
    },
    async (request, reply) => {
      const { 'x-user-email': email } = optionalUserHeaders.parse(request.headers);
      return reply.type('application/json; charset=utf-8').send(await catalogueJson(email ?? null));
    },
  );
}
