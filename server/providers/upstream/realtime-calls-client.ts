/**
 * The server's half of an OpenAI realtime call (GA "unified interface"): the browser's SDP offer
 * goes to `POST {OPENAI_BASE_URL}/realtime/calls` as multipart `sdp` + `session` with the server
 * key (the official `openai` client sends it and bounds the wait; `callForm` builds the body), the call id comes
 * from `Location`, a sideband WebSocket (`/realtime?call_id=`) hears every event of the call, and
 * `/realtime/calls/{id}/hangup` ends it. Upstream failures become a ProviderError with a sentence
 * for the candidate; the upstream's own words go to the log only.
 */
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { RealtimeClientEvent, RealtimeServerEvent, RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime';
import WebSocket from 'ws';
import { ProviderError } from '../types';
import { isAbort } from './plumbing';

/** pino-compatible (Fastify's logger fits). */
export interface ProviderLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** The sentences the candidate sees when the voice service fails (the upstream's own words go to the log only). */
export const PROVIDER_TEXTS = {
  rejectedKey: "The AI provider rejected the server's API key. Please ask the operator to check OPENAI_API_KEY.",
  forbidden:
    'The AI provider refused this server access to the voice model (for example in this region). Please ask the operator to check the OpenAI project.',
  rateLimited: 'The AI provider is busy or its usage quota is used up. Please try again in a few minutes.',
  unavailable: 'The AI provider is having problems right now. Please try again in a few minutes.',
  timeout: 'The AI provider did not answer in time. Please try again.',
  malformed: 'The AI provider sent an answer the server could not understand. Please try again later.',
  network: 'The server could not reach the AI provider. Please try again later.',
  refused: 'The AI provider could not start a voice session. Please try again later.',
  noKey: 'Voice interviews with OpenAI are not configured on this server.',
} as const;

export const CALL_TIMEOUT_MS = 10_000;
export const SIDEBAND_OPEN_TIMEOUT_MS = 5_000;

export interface Sideband {
  send(event: RealtimeClientEvent): void;
  close(): void;
  onEvent(listener: (event: RealtimeServerEvent) => void): void;
  onClose(listener: () => void): void;
}

export interface RealtimeCallsClient {
  /** Posts the offer with the session; answers the call id and the answer SDP. */
  create(
    sdp: string,
    session: RealtimeSessionCreateRequest,
    logContext: Record<string, unknown>,
  ): Promise<{ callId: string; answer: string }>;
  /** Ends the call; failures are logged (the call may already be over). */
  hangup(callId: string): Promise<void>;
  /** Opens the sideband WebSocket of a call (resolves once it is open). */
  openSideband(callId: string): Promise<Sideband>;
}

export interface RealtimeCallsClientConfig {
  openaiApiKey: string;
  /** No trailing slash, e.g. https://api.openai.com/v1 */
  openaiBaseUrl: string;
}

/** The sideband's address: the API base with a WebSocket scheme (wss for https). */
export function sidebandUrl(baseUrl: string, callId: string): string {
  // config.ts already took any trailing slash off the base URL.
  const url = new URL(`${baseUrl}/realtime`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('call_id', callId);
  return url.toString();
}

/** Maps an upstream failure to the candidate's sentence (status 502/503/504). */
export function providerErrorOf(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError || isAbort(error))
    return new ProviderError(PROVIDER_TEXTS.timeout, 504);
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    if (status === 401) return new ProviderError(PROVIDER_TEXTS.rejectedKey, 502, status);
    // A valid key without access (region not supported, project permissions).
    if (status === 403) return new ProviderError(PROVIDER_TEXTS.forbidden, 502, status);
    // Rate limited, or the account's quota is used up (`insufficient_quota`): both are 429.
    if (status === 429) return new ProviderError(PROVIDER_TEXTS.rateLimited, 503, status);
    if (status >= 500) return new ProviderError(PROVIDER_TEXTS.unavailable, 503, status);
    return new ProviderError(PROVIDER_TEXTS.refused, 502, status);
  }
  return new ProviderError(PROVIDER_TEXTS.network, 502);
}

function callIdOf(location: string | null): string | null {
  const id = location?.split('?')[0]?.split('/').filter(Boolean).pop();
  return id && /^[\w-]{1,200}$/.test(id) ? id : null;
}

/**
 * The body of `POST /realtime/calls`: multipart, the offer as part `sdp` (application/sdp), the
 * session as part `session` (application/json), each with an empty filename. `openai` 7.x builds
 * exactly this in `realtime.calls.create`; 6.x, pinned because 7.x requires Node 22
 * (docs/decisions/023-node-20-sdk-pins.md), lacks that method, so the request goes through the
 * SDK's generic `post` (same auth, timeout, errors) with this body.
 */
export function callForm(sdp: string, session: RealtimeSessionCreateRequest): FormData {
  const form = new FormData();
  form.append('sdp', new File([sdp], '', { type: 'application/sdp' }), '');
  form.append('session', new File([JSON.stringify(session)], '', { type: 'application/json' }), '');
  return form;
}

export function createRealtimeCallsClient(
  config: RealtimeCallsClientConfig,
  log: ProviderLog,
  options: { timeoutMs?: number } = {},
): RealtimeCallsClient {
  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  const client = new OpenAI({
    apiKey: config.openaiApiKey,
    baseURL: config.openaiBaseUrl,
    // Explicit, so the SDK never picks these up from the environment.
    organization: null,
    project: null,
    timeout: timeoutMs,
    // The candidate waits on the start button: one bounded try, a clear answer.
    maxRetries: 0,
  });

  async function create(sdp: string, session: RealtimeSessionCreateRequest, logContext: Record<string, unknown>) {
    let res: Response;
    // The SDK's timeout ends at the answer's headers; this deadline also covers its body.
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      res = await client
        .post('/realtime/calls', { body: callForm(sdp, session), headers: { Accept: 'application/sdp' }, signal: deadline })
        .asResponse();
    } catch (error) {
      const mapped = providerErrorOf(error);
      const detail = error instanceof APIError ? error.message.slice(0, 500) : error instanceof Error ? error.message : String(error);
      log.warn({ ...logContext, upstreamStatus: mapped.upstreamStatus, detail }, 'OpenAI refused the realtime call');
      throw mapped;
    }
    const callId = callIdOf(res.headers.get('location'));
    let answer: string;
    try {
      answer = await res.text();
    } catch (error) {
      log.warn({ ...logContext, callId, upstreamStatus: res.status }, 'OpenAI did not finish answering the realtime call in time');
      if (callId) void hangup(callId);
      throw deadline.aborted ? new ProviderError(PROVIDER_TEXTS.timeout, 504) : providerErrorOf(error);
    }
    if (!callId || !answer.startsWith('v=')) {
      log.warn(
        { ...logContext, upstreamStatus: res.status, location: res.headers.get('location') },
        'OpenAI answered the realtime call without a call id or SDP',
      );
      if (callId) void hangup(callId);
      throw new ProviderError(PROVIDER_TEXTS.malformed, 502, res.status);
    }
    return { callId, answer };
  }

  async function hangup(callId: string): Promise<void> {
    try {
      await client.realtime.calls.hangup(callId, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      log.warn(
        { callId, upstreamStatus: error instanceof APIError ? error.status : undefined },
        'OpenAI hang-up failed (the call may already be over)',
      );
    }
  }

  function openSideband(callId: string): Promise<Sideband> {
    const ws = new WebSocket(sidebandUrl(config.openaiBaseUrl, callId), {
      headers: { Authorization: `Bearer ${config.openaiApiKey}` },
      handshakeTimeout: SIDEBAND_OPEN_TIMEOUT_MS,
      perMessageDeflate: false,
    });
    const sideband: Sideband = {
      send: (event) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(event));
      },
      close: () => ws.close(1000, 'done'),
      onEvent: (listener) =>
        ws.on('message', (data: WebSocket.RawData) => {
          let event: unknown;
          try {
            event = JSON.parse(data.toString());
          } catch {
            return;
          }
          if (event && typeof event === 'object' && typeof (event as { type?: unknown }).type === 'string')
            listener(event as RealtimeServerEvent);
        }),
      onClose: (listener) => ws.on('close', () => listener()),
    };
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(sideband));
      ws.once('unexpected-response', (_req, res) => {
        log.warn({ callId, upstreamStatus: res.statusCode }, 'OpenAI refused the sideband connection');
        ws.terminate();
        reject(new ProviderError(PROVIDER_TEXTS.refused, 502, res.statusCode));
      });
      ws.once('error', (error) => {
        log.warn({ callId, err: error.message }, 'OpenAI sideband connection failed');
        reject(new ProviderError(PROVIDER_TEXTS.network, 502));
      });
    });
  }

  return { create, hangup, openSideband };
}
