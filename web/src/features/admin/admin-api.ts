import type { AdminEvent, AdminFeedback, EmailAccount, InterviewStats } from '../../../../contract/admin';
import { callApi, type ApiResult } from '../../lib/http';

export type { ApiResult };

/**
 * One admin call through the app's shared `callApi` (same URL building, failure kinds and typed
 * answers as the interviewee's calls), with the secret in its header (spec §6).
 */
function call<T>(secret: string, path: string, init: { method?: 'POST' | 'DELETE'; body?: unknown } = {}): Promise<ApiResult<T>> {
  return callApi<T>(path, { ...init, headers: { 'x-admin-secret': secret } });
}

/**
 * Spec §7: the secret is verified with GET /api/events; only the status and the error are read.
 * One event is enough to prove the secret, so the check stays cheap on a large table.
 */
export async function verifySecret(secret: string): Promise<ApiResult<unknown>> {
  return call(secret, '/api/events?limit=1');
}

export interface EventsPage {
  limit: number;
  /** Only events older than this id (the last id already shown). */
  before?: number;
}

export function fetchEvents(secret: string, page: EventsPage): Promise<ApiResult<AdminEvent[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return call(secret, `/api/events?${query.toString()}`);
}

export function fetchStats(secret: string): Promise<ApiResult<InterviewStats>> {
  return call(secret, '/api/interview-stats');
}

export function fetchEmails(secret: string): Promise<ApiResult<EmailAccount[]>> {
  return call(secret, '/api/emails');
}

/** Spec §7: `{email, limit: null}` creates an account (409 when it exists). */
export function createEmail(secret: string, email: string): Promise<ApiResult<unknown>> {
  return call(secret, '/api/emails', { method: 'POST', body: { email, limit: null } });
}

/** Spec §7: `{email, isPro, limit: null}` sets the plan. */
export function setPlan(secret: string, email: string, isPro: boolean): Promise<ApiResult<unknown>> {
  return call(secret, '/api/emails', { method: 'POST', body: { email, isPro, limit: null } });
}

export function deleteEmail(secret: string, email: string): Promise<ApiResult<unknown>> {
  return call(secret, `/api/emails/${encodeURIComponent(email)}`, { method: 'DELETE' });
}

export function fetchFeedback(secret: string): Promise<ApiResult<AdminFeedback[]>> {
  return call(secret, '/api/feedback');
}

export function deleteFeedback(secret: string, id: number): Promise<ApiResult<unknown>> {
  return call(secret, `/api/feedback/${id}`, { method: 'DELETE' });
}

// Re-exported so pages need one import for the call results they show.
export type { AdminEvent, AdminFeedback, EmailAccount, InterviewStats };
