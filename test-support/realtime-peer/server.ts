/**
 * A local stand-in for the OpenAI Realtime API (GA), the server-owned ("unified") shape:
 *   POST /v1/realtime/calls                 (bearer API key, multipart `sdp` + `session`) → 201 answer SDP + Location
 *   GET  /v1/realtime?call_id=…  (WebSocket) the sideband: every server event of the call, client events in
 *   POST /v1/realtime/calls/{id}/hangup     ends the call
 * The session part is checked strictly (session-schema.ts), so a regression in the server's session
 * binding fails the tests. The browser never talks to this server over HTTP, only WebRTC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { RealtimeCall, type CallRecord } from './call';
import { defaultPeerOptions, type PeerOptions } from './options';
import { realtimeSessionSchema } from './session-schema';

export interface CallRequestRecord {
  authorization: string | undefined;
  contentType: string | undefined;
  /** The `session` part as parsed JSON (or its text when it was not JSON). */
  session: unknown;
  sdp: string | null;
}

export interface RealtimePeer {
  /** e.g. http://127.0.0.1:41234/v1 — what OPENAI_BASE_URL should be. */
  baseUrl: string;
  origin: string;
  /** Mutable: tests switch behaviour between cases. */
  options: PeerOptions;
  callRequests: CallRequestRecord[];
  calls: CallRecord[];
  hangups: string[];
  /** Calls whose connection is still up. */
  activeCalls(): number;
  close(): Promise<void>;
}

const MAX_BODY = 512 * 1024;

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendError(res: http.ServerResponse, status: number, message: string, type: string, code: string | null): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, code, param: null } }));
}

function bearer(auth: string | undefined): string | undefined {
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

/** Multipart parsing as the service would do it (undici's FormData reader). */
async function readForm(body: Buffer, contentType: string): Promise<FormData> {
  return new Request('http://peer/', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(body) }).formData();
}

export async function startRealtimePeer(overrides: Partial<PeerOptions> = {}, port = 0): Promise<RealtimePeer> {
  const options: PeerOptions = { ...defaultPeerOptions(), ...overrides };
  const live = new Map<string, RealtimeCall>();
  const callRequests: CallRequestRecord[] = [];
  const calls: CallRecord[] = [];
  const hangups: string[] = [];
  const pendingTimers = new Set<NodeJS.Timeout>();

  function wait(ms: number, res: http.ServerResponse): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        pendingTimers.delete(t);
        resolve();
      }, ms);
      pendingTimers.add(t);
      res.on('close', () => {
        clearTimeout(t);
        pendingTimers.delete(t);
        resolve();
      });
    });
  }

  /** The scripted upstream failures; true when one answered. */
  function failed(res: http.ServerResponse): boolean {
    switch (peer.options.callFailure) {
      case 'reject-key':
        sendError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
        return true;
      case 'rate-limit':
        sendError(res, 429, 'Rate limit reached for requests.', 'requests', 'rate_limit_exceeded');
        return true;
      case 'quota':
        sendError(
          res,
          429,
          'You exceeded your current quota, please check your plan and billing details.',
          'insufficient_quota',
          'insufficient_quota',
        );
        return true;
      case 'forbidden':
        sendError(res, 403, 'Country, region, or territory not supported', 'request_forbidden', 'unsupported_country_region_territory');
        return true;
      case 'server-error':
        res.writeHead(500, { 'Content-Type': 'text/html' });
        res.end('<html><body>Internal Server Error</body></html>');
        return true;
      case 'unavailable':
        sendError(res, 503, 'The engine is currently overloaded, please try again later.', 'server_error', null);
        return true;
      default:
        return false;
    }
  }

  async function createCall(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const contentType = req.headers['content-type'];
    const record: CallRequestRecord = { authorization: req.headers.authorization, contentType, session: null, sdp: null };
    callRequests.push(record);
    if (peer.options.callFailure === 'slow') {
      await wait(peer.options.slowMs, res);
      if (res.destroyed) return;
    }
    if (bearer(req.headers.authorization) !== peer.options.apiKey) {
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    if (failed(res)) return;
    if (!contentType?.startsWith('multipart/form-data')) {
      return sendError(
        res,
        400,
        'The server must send multipart/form-data with sdp and session.',
        'invalid_request_error',
        'invalid_content_type',
      );
    }
    const form = await readForm(raw, contentType);
    const sdp = form.get('sdp');
    const sessionPart = form.get('session');
    record.sdp = typeof sdp === 'string' ? sdp : sdp instanceof Blob ? await sdp.text() : null;
    const sessionText = typeof sessionPart === 'string' ? sessionPart : sessionPart instanceof Blob ? await sessionPart.text() : null;
    try {
      record.session = sessionText === null ? null : JSON.parse(sessionText);
    } catch {
      record.session = sessionText;
    }
    if (!record.sdp?.startsWith('v=0'))
      return sendError(res, 400, 'The sdp part is not an SDP offer.', 'invalid_request_error', 'invalid_offer');
    const parsed = realtimeSessionSchema.safeParse(record.session);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      return sendError(res, 400, `Invalid session: ${first?.path.join('.')}: ${first?.message}`, 'invalid_request_error', 'invalid_value');
    }
    const call = new RealtimeCall(peer.options, parsed.data, (c) => live.delete(c.record.id));
    live.set(call.record.id, call);
    calls.push(call.record);
    try {
      const answer = await call.answer(record.sdp);
      const headers: Record<string, string> = { 'Content-Type': 'application/sdp' };
      if (peer.options.callFailure !== 'no-location') headers.Location = `/v1/realtime/calls/${call.record.id}`;
      res.writeHead(201, headers);
      res.end(answer);
    } catch (error) {
      await call.close();
      sendError(
        res,
        400,
        `Could not answer the offer: ${error instanceof Error ? error.message : 'unknown'}`,
        'invalid_request_error',
        'invalid_offer',
      );
    }
  }

  async function hangup(req: http.IncomingMessage, res: http.ServerResponse, callId: string): Promise<void> {
    await readBody(req);
    if (bearer(req.headers.authorization) !== peer.options.apiKey) {
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    hangups.push(callId);
    const call = live.get(callId);
    if (!call) return sendError(res, 404, `Call ${callId} not found.`, 'invalid_request_error', 'call_not_found');
    // Answered at once; tearing the WebRTC side down may take a while when the browser is gone.
    res.writeHead(200);
    res.end();
    await call.hangup();
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    const hangupPath = /^\/v1\/realtime\/calls\/([^/]+)\/hangup$/.exec(url.pathname);
    const route =
      req.method === 'POST' && url.pathname === '/v1/realtime/calls'
        ? createCall(req, res)
        : req.method === 'POST' && hangupPath
          ? hangup(req, res, decodeURIComponent(hangupPath[1] ?? ''))
          : null;
    if (!route) return sendError(res, 404, `No route ${req.method} ${url.pathname}.`, 'invalid_request_error', 'not_found');
    route.catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 400, error instanceof Error ? error.message : 'Bad request.', 'invalid_request_error', null);
    });
  });

  // The sideband: a WebSocket to /v1/realtime?call_id=… with the API key.
  const sidebands = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    };
    if (url.pathname !== '/v1/realtime') return refuse(404, 'Not Found');
    if (bearer(req.headers.authorization) !== peer.options.apiKey) return refuse(401, 'Unauthorized');
    const call = live.get(url.searchParams.get('call_id') ?? '');
    if (!call) return refuse(404, 'Not Found');
    sidebands.handleUpgrade(req, socket, head, (ws) => call.attachSideband(ws));
  });

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${bound}`;

  const peer: RealtimePeer = {
    baseUrl: `${origin}/v1`,
    origin,
    options,
    callRequests,
    calls,
    hangups,
    activeCalls: () => live.size,
    close: async () => {
      for (const t of pendingTimers) clearTimeout(t);
      await Promise.all([...live.values()].map((c) => c.close()));
      for (const ws of sidebands.clients) ws.terminate();
      sidebands.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return peer;
}
