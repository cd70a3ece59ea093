/**
 * One way to call the API: builds the URL from the API origin, types the answer with the shared
 * contract, and says precisely how a call failed, because the screens show different texts for
 * "the server answered an error" and "the call did not get through" (docs/product-rules.md, Exact texts and where they live).
 *
 * Answers are typed, not parsed again: the server's serializer already checks every answer against
 * the same zod contract before it leaves, and keeping zod out of the browser keeps the first
 * screen small (docs/decisions/006-browser-trusts-typed-answers.md).
 */
import { apiUrl } from './api-base';

export type ApiFailure =
  /** The server answered with an error status; `message` is its `error` field or the status text. */
  | { ok: false; kind: 'http'; status: number; message: string; serverError: string | null }
  /** No answer at all (offline, refused, aborted). */
  | { ok: false; kind: 'network'; error: unknown }
  /** A success status whose body is not JSON (a proxy's page, a truncated answer). */
  | { ok: false; kind: 'invalid'; status: number; error: unknown };
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; sent as it is when `headers` give its content-type (a spoken answer's audio/wav). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** A stand-in for the browser's fetch (transport tests answer from a script). */
  fetch?: typeof fetch;
}

/** How a call failed, for the console: the status and message, or what stopped the call. */
export function failureForLog(failure: ApiFailure): unknown {
  return failure.kind === 'http' ? `${failure.status} ${failure.message}` : failure.error;
}

/** The `error` sentence of a `{error}` body, or null when the body is something else. */
export function serverErrorOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const { error } = body as { error: unknown };
  return (typeof error === 'string' && error) || null;
}

/** `T` is the contract's answer type for the path; `null` when the call answers no body. */
export async function callApi<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
  const sent = await send(path, options);
  return 'response' in sent ? answerOf<T>(sent.response) : sent;
}

/** The call sent: its response, or the failure of a call that got no answer. */
export async function send(path: string, options: CallOptions): Promise<{ response: Response } | ApiFailure> {
  let { body } = options;
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined && !headers['content-type']) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(body);
  }
  try {
    const response = await (options.fetch ?? fetch)(apiUrl(path), {
      method: options.method ?? 'GET',
      headers,
      body: body as BodyInit | undefined,
      signal: options.signal,
    });
    return { response };
  } catch (error) {
    return { ok: false, kind: 'network', error };
  }
}

/** A JSON answer read as callApi reads it. */
export async function answerOf<T>(response: Response): Promise<ApiResult<T>> {
  let json: unknown;
  let jsonError: unknown;
  try {
    json = await response.json();
  } catch (error) {
    jsonError = error;
  }
  if (!response.ok) {
    const serverError = serverErrorOf(json);
    return { ok: false, kind: 'http', status: response.status, message: serverError ?? response.statusText, serverError };
  }
  if (json === undefined) return { ok: false, kind: 'invalid', status: response.status, error: jsonError };
  return { ok: true, data: json as T };
}

export function userHeaders(email: string): Record<string, string> {
  return { 'x-user-email': email };
}
