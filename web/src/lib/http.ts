/**
 * One way to call the API: builds the URL from the API origin, parses the answer with the
 * contract's zod schema, and says precisely how a call failed, because the screens show different
 * texts for "the server answered an error" and "the call did not get through" (spec §8).
 */
import type { z } from 'zod';
import { errorSchema } from '../../../contract';
import { apiUrl } from './api-base';

export type ApiFailure =
  /** The server answered with an error status; `message` is its `error` field or the status text. */
  | { ok: false; kind: 'http'; status: number; message: string; serverError: string | null }
  /** No answer at all (offline, refused, aborted). */
  | { ok: false; kind: 'network'; error: unknown }
  /** A success status with a body that is not what the contract says. */
  | { ok: false; kind: 'invalid'; status: number; error: unknown };
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function callApi<S extends z.ZodType>(path: string, schema: S, options: CallOptions = {}): Promise<ApiResult<z.infer<S>>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    return { ok: false, kind: 'network', error };
  }
  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    json = null;
  }
  if (!response.ok) {
    const parsedError = errorSchema.safeParse(json);
    const serverError = parsedError.success && parsedError.data.error ? parsedError.data.error : null;
    return { ok: false, kind: 'http', status: response.status, message: serverError ?? response.statusText, serverError };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, kind: 'invalid', status: response.status, error: parsed.error };
  return { ok: true, data: parsed.data };
}

export function userHeaders(email: string): Record<string, string> {
  return { 'x-user-email': email };
}
