/** GET /docs: OpenAPI generated from the zod contract of every route. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export async function registerDocs(app: FastifyInstance, productName: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${productName} Feedback API`,
        description: 'Every call of the interview practice product. Errors are `{error: string}`.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          user: { type: 'apiKey', in: 'header', name: 'x-user-email' },
          admin: { type: 'apiKey', in: 'header', name: 'x-admin-secret' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
