/**
 * A light local stand-in for the OpenAI Realtime calls API, for tests that count calls rather than
 * talk over WebRTC (realtime-peer/ beside it is the full peer): `POST /v1/realtime/calls` (bearer key,
 * multipart `sdp` + `session`) answers 201 with an SDP answer and a `Location`, after `answerDelayMs`
 * (so concurrent offers overlap upstream) or trickling its body (`trickleAnswer`);
 * `GET /v1/realtime?call_id=` upgrades to the sideband WebSocket; `POST /v1/realtime/calls/{id}/hangup`
 * ends a call. Every call, open sideband and hang-up is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface FakeRealtimeServer {
  /** OPENAI_BASE_URL (…/v1). */
  baseUrl: string;
  /** Call ids in the order they were opened. */
  calls: string[];
  hangups: string[];
  /** Every sideband opened (a takeover reopens its call's), with when (performance.now() of this process). */
  sidebandOpens: Array<{ callId: string; at: number }>;
  /** Every sideband closed (by either side), with when (performance.now() of this process). */
  sidebandCloses: Array<{ callId: string; at: number }>;
  /** Calls opened and not hung up. */
  liveCalls(): string[];
  options: { apiKey: string; answerDelayMs: number; trickleAnswer: boolean };
  close(): Promise<void>;
}

export async function startFakeRealtimeServer(apiKey = 'test-key'): Promise<FakeRealtimeServer> {
  const calls: string[] = [];
  const hangups: string[] = [];
  const sidebandOpens: Array<{ callId: string; at: number }> = [];
  const sidebandCloses: Array<{ callId: string; at: number }> = [];
  const sidebands = new Map<string, WebSocket>();
  const timers = new Set<NodeJS.Timeout>();
  const options = { apiKey, answerDelayMs: 0, trickleAnswer: false };
  const authorised = (req: http.IncomingMessage) => req.headers.authorization === `Bearer ${options.apiKey}`;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  const error = (res: http.ServerResponse, status: number, message: string) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null, param: null } }));
  };

  async function create(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    for await (const _ of req) {
      // the multipart body is not needed here
    }
    if (!authorised(req)) return error(res, 401, 'Incorrect API key provided.');
    if (!(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) return error(res, 400, 'Expected multipart/form-data.');
    if (options.answerDelayMs > 0) await wait(options.answerDelayMs);
    const id = `rtc_fake_${calls.length + 1}_${Math.random().toString(36).slice(2, 8)}`;
    calls.push(id);
    const answer = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
    res.writeHead(201, { 'content-type': 'application/sdp', location: `/v1/realtime/calls/${id}` });
    if (!options.trickleAnswer) return void res.end(answer);
    // One byte a second, for ever (until the client gives up).
    for (const byte of answer.repeat(1000)) {
      if (res.destroyed) return;
      res.write(byte);
      await wait(1000);
    }
    res.end();
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const hangup = /^\/v1\/realtime\/calls\/([^/]+)\/hangup$/.exec(url.pathname);
    if (req.method === 'POST' && url.pathname === '/v1/realtime/calls') {
      create(req, res).catch(() => error(res, 500, 'The fake failed.'));
      return;
    }
    if (req.method === 'POST' && hangup) {
      req.resume();
      if (!authorised(req)) return error(res, 401, 'Incorrect API key provided.');
      const id = decodeURIComponent(hangup[1] ?? '');
      hangups.push(id);
      sidebands.get(id)?.close(1000, 'hung up');
      res.writeHead(200);
      return void res.end();
    }
    error(res, 404, `No route ${req.method} ${url.pathname}.`);
  });
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const id = url.searchParams.get('call_id') ?? '';
    if (url.pathname !== '/v1/realtime' || !authorised(req) || !calls.includes(id)) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      sidebands.set(id, ws);
      sidebandOpens.push({ callId: id, at: performance.now() });
      ws.on('close', () => sidebandCloses.push({ callId: id, at: performance.now() }));
      ws.send(JSON.stringify({ type: 'session.created', event_id: 'evt_1', session: {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    hangups,
    sidebandOpens,
    sidebandCloses,
    liveCalls: () => calls.filter((id) => !hangups.includes(id)),
    options,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
