import type { AdminEvent, AdminFeedback, EmailAccount, InterviewStats } from '../../../../contract/admin';
import { apiUrl } from '../../lib/api-base';
import { serverErrorOf } from '../../lib/http';

/** Spec §9: the local storage key of the admin secret. */
export const ADMIN_SECRET_KEY = 'adminSecret';

/**
 * The outcome of one admin call. The pages need to tell apart "the server answered with an error"
 * (spec §8: `Failed to ...: {server error or status text}`) from "the call did not work at all"
 * (`An error occurred while ...`), so failures are values, not exceptions.
 */
export type ApiResult<T> =
  | { ok: true; data: T }
  /** The server answered with a non-2xx status; `message` is its `error` field or the status text. */
  | { ok: false; kind: 'http'; status: number; message: string; serverError: string | null }
  /** Network failure, or a success answer that is not JSON. */
  | { ok: false; kind: 'other'; cause: unknown };

async function readServerError(response: Response): Promise<string | null> {
  try {
    return serverErrorOf(await response.json());
  } catch {
    return null;
  }
}

/**
 * `expectsBody` false: the call answers nothing the page reads. Answers are typed by the contract,
 * not parsed again (the server's serializer checked them; docs/decisions/006).
 */
async function call<T>(
  secret: string,
  path: string,
  init: { method?: string; body?: unknown },
  expectsBody: boolean,
): Promise<ApiResult<T>> {
  try {
    const headers: Record<string, string> = { 'x-admin-secret': secret };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(apiUrl(path), {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) {
      const serverError = await readServerError(response);
      return { ok: false, kind: 'http', status: response.status, serverError, message: serverError ?? response.statusText };
    }
    if (!expectsBody) return { ok: true, data: undefined as T };
    return { ok: true, data: (await response.json()) as T };
  } catch (cause) {
    return { ok: false, kind: 'other', cause };
  }
}

/**
 * Spec §7: the secret is verified with GET /api/events; only the status and the error are read.
 * One event is enough to prove the secret, so the check stays cheap on a large table.
 */
export async function verifySecret(secret: string): Promise<ApiResult<void>> {
  return call<void>(secret, '/api/events?limit=1', {}, false);
}

export interface EventsPage {
  limit: number;
  /** Only events older than this id (the last id already shown). */
  before?: number;
}

export function fetchEvents(secret: string, page: EventsPage): Promise<ApiResult<AdminEvent[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return call(secret, `/api/events?${query.toString()}`, {}, true);
}

export function fetchStats(secret: string): Promise<ApiResult<InterviewStats>> {
  return call(secret, '/api/interview-stats', {}, true);
}

export function fetchEmails(secret: string): Promise<ApiResult<EmailAccount[]>> {
  return call(secret, '/api/emails', {}, true);
}

/** Spec §7: `{email, limit: null}` creates an account (409 when it exists). */
export function createEmail(secret: string, email: string): Promise<ApiResult<void>> {
  return call<void>(secret, '/api/emails', { method: 'POST', body: { email, limit: null } }, false);
}

/** Spec §7: `{email, isPro, limit: null}` sets the plan. */
export function setPlan(secret: string, email: string, isPro: boolean): Promise<ApiResult<void>> {
  return call<void>(secret, '/api/emails', { method: 'POST', body: { email, isPro, limit: null } }, false);
}

export function deleteEmail(secret: string, email: string): Promise<ApiResult<void>> {
  return call<void>(secret, `/api/emails/${encodeURIComponent(email)}`, { method: 'DELETE' }, false);
}

export function fetchFeedback(secret: string): Promise<ApiResult<AdminFeedback[]>> {
  return call(secret, '/api/feedback', {}, true);
}

export function deleteFeedback(secret: string, id: number): Promise<ApiResult<void>> {
  return call<void>(secret, `/api/feedback/${id}`, { method: 'DELETE' }, false);
}

// Re-exported so pages need one import for the call results they show.
export type { AdminEvent, AdminFeedback, EmailAccount, InterviewStats };
