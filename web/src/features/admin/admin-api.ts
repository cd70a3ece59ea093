import type { z } from 'zod';
import {
  emailListSchema,
  eventsResponseSchema,
  feedbackListSchema,
  interviewStatsSchema,
  type AdminEvent,
  type AdminFeedback,
  type EmailAccount,
  type InterviewStats,
} from '../../../../contract/admin';
import { errorSchema } from '../../../../contract/common';
import { apiUrl } from '../../lib/api-base';

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
  /** Network failure, or an answer that is not what the contract says. */
  | { ok: false; kind: 'other'; cause: unknown };

async function readServerError(response: Response): Promise<string | null> {
  try {
    const parsed = errorSchema.safeParse(await response.json());
    return parsed.success ? parsed.data.error : null;
  } catch {
    return null;
  }
}

async function call<T>(
  secret: string,
  path: string,
  init: { method?: string; body?: unknown },
  schema: z.ZodType<T> | null,
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
    if (schema === null) return { ok: true, data: undefined as T };
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success) return { ok: false, kind: 'other', cause: parsed.error };
    return { ok: true, data: parsed.data };
  } catch (cause) {
    return { ok: false, kind: 'other', cause };
  }
}

/**
 * Spec §7: the secret is verified with GET /api/events; only the status and the error are read.
 * One event is enough to prove the secret, so the check stays cheap on a large table.
 */
export async function verifySecret(secret: string): Promise<ApiResult<void>> {
  return call<void>(secret, '/api/events?limit=1', {}, null);
}

export interface EventsPage {
  limit: number;
  /** Only events older than this id (the last id already shown). */
  before?: number;
}

export function fetchEvents(secret: string, page: EventsPage): Promise<ApiResult<AdminEvent[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return call(secret, `/api/events?${query.toString()}`, {}, eventsResponseSchema);
}

export function fetchStats(secret: string): Promise<ApiResult<InterviewStats>> {
  return call(secret, '/api/interview-stats', {}, interviewStatsSchema);
}

export function fetchEmails(secret: string): Promise<ApiResult<EmailAccount[]>> {
  return call(secret, '/api/emails', {}, emailListSchema);
}

/** Spec §7: `{email, limit: null}` creates an account (409 when it exists). */
export function createEmail(secret: string, email: string): Promise<ApiResult<void>> {
  return call<void>(secret, '/api/emails', { method: 'POST', body: { email, limit: null } }, null);
}

/** Spec §7: `{email, isPro, limit: null}` sets the plan. */
export function setPlan(secret: string, email: string, isPro: boolean): Promise<ApiResult<void>> {
  return call<void>(secret, '/api/emails', { method: 'POST', body: { email, isPro, limit: null } }, null);
}

export function deleteEmail(secret: string, email: string): Promise<ApiResult<void>> {
  return call<void>(secret, `/api/emails/${encodeURIComponent(email)}`, { method: 'DELETE' }, null);
}

export function fetchFeedback(secret: string): Promise<ApiResult<AdminFeedback[]>> {
  return call(secret, '/api/feedback', {}, feedbackListSchema);
}

export function deleteFeedback(secret: string, id: number): Promise<ApiResult<void>> {
  return call<void>(secret, `/api/feedback/${id}`, { method: 'DELETE' }, null);
}

// Re-exported so pages need one import for the call results they show.
export type { AdminEvent, AdminFeedback, EmailAccount, InterviewStats };
