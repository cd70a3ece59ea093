/**
 * The one place where an API result (lib/http.ts) becomes what a screen uses, so no component
 * branches on how a call failed (ARCHITECTURE.md, "How a screen gets its data"):
 *
 * - loaders call `loadData`: the data, or a thrown Response whose JSON body is `{error: sentence}`,
 *   which the route's `errorElement` shows (`routeErrorSentence`);
 * - actions and fetchers call `submitData`: the data, or `{error: sentence}` to show next to the form;
 * - `dataOr` is for data a screen can do without (the app settings, the topic list): logged, then a fallback.
 *
 * The sentences are the screens' own (docs/product-rules.md, Exact texts and where they live): the
 * server's `{error}` (or the status text) goes into `http`, and `network` is said when no usable
 * answer came back, which is also logged for whoever reads the console.
 */
import { isRouteErrorResponse } from 'react-router';
import { failureForLog, serverErrorOf, type ApiFailure, type ApiResult } from './http';

export type HttpFailure = Extract<ApiFailure, { kind: 'http' }>;

export interface FailureTexts {
  /**
   * The sentence for an error answer, given the server's `error` sentence or the status text
   * (`failure` for the texts that need more, e.g. only the server's own sentence).
   */
  http: (message: string, failure: HttpFailure) => string;
  /** The sentence when the call got no usable answer (offline, refused, not JSON). */
  network: string;
  /**
   * The console label of a call that got no usable answer (e.g. 'History request failed:'); without
   * one nothing is logged (the admin pages: the operator reads the sentence, the browser logs the request).
   */
  log?: string;
}

export type Submitted<T> = { ok: true; data: T } | { ok: false; error: string };

/** The sentence a person reads for a failed call. */
export function failureSentence(failure: ApiFailure, texts: FailureTexts): string {
  if (failure.kind === 'http') return texts.http(failure.message, failure);
  if (texts.log !== undefined) console.error(texts.log, failure.error);
  return texts.network;
}

/** A Response carrying `{error: sentence}`, the shape of every error of the API. */
export function errorResponse(sentence: string, status: number): Response {
  return new Response(JSON.stringify({ error: sentence }), { status, headers: { 'content-type': 'application/json' } });
}

/** For loaders: the data, or a thrown `{error}` Response (the call's status; 503 when no usable answer came). */
export async function loadData<T>(call: Promise<ApiResult<T>>, texts: FailureTexts): Promise<T> {
  const result = await call;
  if (result.ok) return result.data;
  throw errorResponse(failureSentence(result, texts), result.kind === 'http' ? result.status : 503);
}

/** For actions and fetchers: the data, or the sentence to show next to the form. */
export async function submitData<T>(call: Promise<ApiResult<T>>, texts: FailureTexts): Promise<Submitted<T>> {
  const result = await call;
  return result.ok ? { ok: true, data: result.data } : { ok: false, error: failureSentence(result, texts) };
}

/** For data a screen can do without: the data, or (logged under `log`, unless it is null) the fallback. */
export async function dataOr<T>(call: Promise<ApiResult<T>>, fallback: T, log: string | null): Promise<T> {
  const result = await call;
  if (result.ok) return result.data;
  if (log !== null) console.error(log, failureForLog(result));
  return fallback;
}

/** The sentence of a route error: an `{error}` Response's sentence, else null (an unexpected error). */
export function routeErrorSentence(error: unknown): string | null {
  return isRouteErrorResponse(error) ? serverErrorOf(error.data) : null;
}
