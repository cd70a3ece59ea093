/**
 * A local stand-in for the OpenAI Realtime API (GA) over HTTP + WebRTC, for tests and demos:
 *   POST /v1/realtime/client_secrets  (bearer API key, JSON session) → { value: "ek_...", expires_at, session }
 *   POST /v1/realtime/calls           (bearer ek_..., application/sdp) → 201 answer SDP + Location
 * Cross-origin friendly: the browser posts its SDP here directly, as it does to api.openai.com.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RealtimeCall, type CallRecord } from './call';
import { defaultPeerOptions, type PeerOptions } from './options';
import { clientSecretRequestSchema, questionsFromInstructions, type RealtimeSessionRequest } from './session-schema';

export interface SecretRequestRecord {
  authorization: string | undefined;
  betaHeader: string | undefined;
  body: unknown;
}

export interface RealtimePeer {
  /** e.g. http://127.0.0.1:41234/v1 — what OPENAI_BASE_URL should be. */
  baseUrl: string;
  origin: string;
  /** Mutable: tests switch behaviour between cases. */
  options: PeerOptions;
  secretRequests: SecretRequestRecord[];
  calls: CallRecord[];
  /** Calls whose connection is still up. */
  activeCalls(): number;
  close(): Promise<void>;
}

interface IssuedSecret {
  session: RealtimeSessionRequest;
  expiresAt: number;
}

const MAX_BODY = 256 * 1024;

function readBody(req: http.IncomingMessage): Promise<string> {
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
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function cors(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, x-openai-agents-sdk');
  res.setHeader('Access-Control-Expose-Headers', 'Location');
  res.setHeader('Access-Control-Max-Age', '600');
}

function sendError(res: http.ServerResponse, status: number, message: string, type: string, code: string | null): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, code, param: null } }));
}

function bearer(req: http.IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

export async function startRealtimePeer(overrides: Partial<PeerOptions> = {}, port = 0): Promise<RealtimePeer> {
  const options: PeerOptions = { ...defaultPeerOptions(), ...overrides };
  const secrets = new Map<string, IssuedSecret>();
  const live = new Set<RealtimeCall>();
  const secretRequests: SecretRequestRecord[] = [];
  const calls: CallRecord[] = [];
  const pendingTimers = new Set<NodeJS.Timeout>();

  async function clientSecrets(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    secretRequests.push({ authorization: req.headers.authorization, betaHeader: req.headers['openai-beta'] as string | undefined, body });

    if (peer.options.secretFailure === 'slow') {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          pendingTimers.delete(t);
          resolve();
        }, peer.options.slowMs);
        pendingTimers.add(t);
        res.on('close', () => {
          clearTimeout(t);
          pendingTimers.delete(t);
          resolve();
        });
      });
      if (res.destroyed) return;
    }
    if (req.headers['openai-beta']) {
      return sendError(res, 400, 'The Realtime Beta API is no longer supported.', 'invalid_request_error', 'beta_api_shape_disabled');
    }
    if (peer.options.secretFailure === 'reject-key' || bearer(req) !== peer.options.apiKey) {
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    if (peer.options.secretFailure === 'rate-limit') {
      return sendError(res, 429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota');
    }
    if (peer.options.secretFailure === 'forbidden') {
      return sendError(res, 403, 'Country, region, or territory not supported', 'request_forbidden', 'unsupported_country_region_territory');
    }
    if (peer.options.secretFailure === 'server-error') {
      res.writeHead(500, { 'Content-Type': 'text/html' });
      res.end('<html><body>Internal Server Error</body></html>');
      return;
    }
    if (peer.options.secretFailure === 'malformed') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ client_secret: null, note: 'not what you expected' }));
      return;
    }
    const parsed = clientSecretRequestSchema.safeParse(body);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      return sendError(res, 400, `Invalid session: ${first?.path.join('.')}: ${first?.message}`, 'invalid_request_error', 'invalid_value');
    }
    const ttl = parsed.data.expires_after?.seconds ?? 600;
    const expiresAt = Math.floor(Date.now() / 1000) + ttl;
    const value = `ek_${randomBytes(16).toString('hex')}`;
    secrets.set(value, { session: parsed.data.session, expiresAt });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        value,
        expires_at: expiresAt,
        session: { ...parsed.data.session, object: 'realtime.session', id: `sess_${randomUUID().replace(/-/g, '').slice(0, 20)}` },
      }),
    );
  }

  async function createCall(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const offer = await readBody(req);
    const key = bearer(req);
    const secret = key ? secrets.get(key) : undefined;
    if (!key?.startsWith('ek_') || !secret || secret.expiresAt < Date.now() / 1000) {
      return sendError(res, 401, 'Invalid or expired ephemeral key.', 'invalid_request_error', 'invalid_api_key');
    }
    if (!req.headers['content-type']?.startsWith('application/sdp')) {
      return sendError(res, 400, 'Content-Type must be application/sdp.', 'invalid_request_error', 'invalid_content_type');
    }
    if (peer.options.rejectCalls || !offer.startsWith('v=0')) {
      return sendError(res, 400, 'The call could not be created.', 'invalid_request_error', 'invalid_offer');
    }
    const call = new RealtimeCall(peer.options, questionsFromInstructions(secret.session.instructions), secret.session.model, (c) =>
      live.delete(c),
    );
    live.add(call);
    calls.push(call.record);
    try {
      const answer = await call.answer(offer);
      res.writeHead(201, { 'Content-Type': 'application/sdp', Location: `/v1/realtime/calls/${call.record.id}` });
      res.end(answer);
    } catch (error) {
      await call.close();
      sendError(res, 400, `Could not answer the offer: ${error instanceof Error ? error.message : 'unknown'}`, 'invalid_request_error', 'invalid_offer');
    }
  }

  const server = http.createServer((req, res) => {
    cors(req, res);
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    const route =
      req.method === 'POST' && url.pathname === '/v1/realtime/client_secrets'
        ? clientSecrets
        : req.method === 'POST' && url.pathname === '/v1/realtime/calls'
          ? createCall
          : null;
    if (!route) return sendError(res, 404, `No route ${req.method} ${url.pathname}.`, 'invalid_request_error', 'not_found');
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 400, error instanceof Error ? error.message : 'Bad request.', 'invalid_request_error', null);
    });
  });

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${bound}`;

  const peer: RealtimePeer = {
    baseUrl: `${origin}/v1`,
    origin,
    options,
    secretRequests,
    calls,
    activeCalls: () => live.size,
    close: async () => {
      for (const t of pendingTimers) clearTimeout(t);
      await Promise.all([...live].map((c) => c.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return peer;
}
