/**
 * The server's timeouts and connection cap (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS,
 * KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS), with short values, over raw sockets.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { createTestApp, type TestApp } from '../../test-support/test-app';

let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await createTestApp({
    database: 'pglite',
    questionSets: FIXTURE_SETS,
    listen: true,
    config: { timeouts: { requestMs: 1000, headersMs: 600, connectionMs: 5000, keepAliveMs: 400 }, maxConnections: 3 },
  });
  port = Number(new URL(t.baseUrl ?? '').port);
}, 120_000);
afterAll(() => t?.close());

interface Watched {
  socket: Socket;
  received(): string;
  /** Milliseconds from opening until the server closed the connection. */
  closed: Promise<number>;
}

function open(): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

describe('server timeouts', () => {
  it('closes a request whose body trickles in slower than the request timeout', async () => {
    const c = await open();
    c.socket.write('POST /user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{');
    const drip = setInterval(() => c.socket.writable && c.socket.write(' '), 200);
    const ms = await c.closed;
    clearInterval(drip);
    expect(ms).toBeLessThan(4000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose headers never finish', async () => {
    const c = await open();
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(await c.closed).toBeLessThan(4000);
    expect(c.received()).not.toContain('"status":"ok"');
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const c = await open();
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    const ms = await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(ms).toBeLessThan(3000);
  });

  it('refuses connections beyond MAX_CONNECTIONS', async () => {
    const held = [await open(), await open(), await open()];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = await open();
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await extra.closed).toBeLessThan(2000);
    expect(extra.received()).toBe('');
    for (const c of held) c.socket.destroy();
  });
});
