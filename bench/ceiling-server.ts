/**
 * The ceiling: a bare Fastify route answering, from memory, the same status, content type and
 * bytes the real server gave for the same request. No database, no validation, no plugins.
 * Usage: tsx bench/ceiling-server.ts routes.json  (prints `Listening on http://127.0.0.1:PORT`)
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { CeilingRoute } from './lib/processes';

const file = process.argv[2];
if (!file) throw new Error('usage: ceiling-server.ts routes.json');
const routes = JSON.parse(readFileSync(file, 'utf8')) as CeilingRoute[];
const byKey = new Map(routes.map((r) => [`${r.method} ${r.url}`, { ...r, bytes: Buffer.from(r.body) }]));

const app = Fastify({ logger: false });
app.route({
  method: ['GET', 'POST'],
  url: '*',
  handler: (request, reply) => {
    const route = byKey.get(`${request.method} ${request.url}`);
    if (!route) return reply.code(404).send({ error: 'not recorded' });
    return reply.code(route.status).type(route.contentType).send(route.bytes);
  },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`Listening on ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
