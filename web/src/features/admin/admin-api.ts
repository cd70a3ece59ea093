import type { AdminEvent, AdminEventRow, AdminFeedback, EmailAccount, InterviewStats } from '../../../../contract/admin';
import type {
  AdminQuestionSet,
  PhrasingSuggestions,
  QuestionSetDeleteResult,
  QuestionSetInput,
  SetAssistant,
  SuggestPhrasingsInput,
  TryAnswerInput,
  TryAnswerResult,
} from '../../../../contract/admin-question-sets';
import type { DailyStats } from '../../../../contract/admin-stats';
import type { UserData, UserErasure } from '../../../../contract/admin-users';
import type { SignedOutEverywhere } from '../../../../contract/signin';
import { apiUrl } from '../../lib/api-base';
import { callApi, serverErrorOf, type ApiResult } from '../../lib/http';

/**
 * This browser holds an admin session: an HttpOnly cookie the server set when the secret was sent
 * once to POST /api/admin/session (docs/decisions/026-sign-in-links.md). No script can read the
 * cookie, and the secret itself is kept nowhere in the page; a value of this type only says the
 * gate opened, so an admin call cannot be made before it did.
 */
export interface AdminSession {
  readonly kind: 'admin-session';
}
export const ADMIN_SESSION: AdminSession = { kind: 'admin-session' };

/**
 * One admin call through the app's shared `callApi` (same URL building, failure kinds and typed
 * answers as the interviewee's calls). The browser sends the admin session cookie by itself
 * (fetch's default `credentials: 'same-origin'`): no secret in a header.
 */
function call<T>(
  _session: AdminSession,
  path: string,
  init: { method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown } = {},
): Promise<ApiResult<T>> {
  return callApi<T>(path, init);
}

/** Sends the typed (or addressed) secret once; the answer sets the admin session cookie. */
export function openAdminSession(secret: string): Promise<ApiResult<unknown>> {
  return callApi('/api/admin/session', { method: 'POST', headers: { 'x-admin-secret': secret } });
}

/** Whether this browser still holds an admin session (200) or not (401); counts as no wrong guess. */
export function probeAdminSession(): Promise<ApiResult<unknown>> {
  return callApi('/api/admin/session');
}

/** Ends this browser's admin session (the server forgets it and clears the cookie). */
export function closeAdminSession(): Promise<ApiResult<unknown>> {
  return callApi('/api/admin/session', { method: 'DELETE' });
}

/** Signs a candidate's email out of every browser (SIGNIN=link): how many sessions ended. */
export function signOutEverywhere(session: AdminSession, email: string): Promise<ApiResult<SignedOutEverywhere>> {
  return call(session, `/api/admin/users/${encodeURIComponent(email)}/signout`, { method: 'POST' });
}

export interface EventsPage {
  limit: number;
  /** Only events older than this id (the last id already shown). */
  before?: number;
}

/** A page of the list: each row carries previews of its texts (AdminEventRow). */
export function fetchEvents(session: AdminSession, page: EventsPage): Promise<ApiResult<AdminEventRow[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return call(session, `/api/events?${query.toString()}`);
}

/** One whole event: its full transcript, rating Markdown and breakdown (the details dialog). */
export function fetchEventDetails(session: AdminSession, id: number): Promise<ApiResult<AdminEvent>> {
  return call(session, `/api/events/${id}`);
}

export function fetchStats(session: AdminSession): Promise<ApiResult<InterviewStats>> {
  return call(session, '/api/interview-stats');
}

/** A page of accounts by email; `after` is the last email of the previous page. */
export function fetchEmails(
  session: AdminSession,
  page: { limit: number; after?: string | undefined },
): Promise<ApiResult<EmailAccount[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.after !== undefined) query.set('after', page.after);
  return call(session, `/api/emails?${query.toString()}`);
}

/** How many feedback rows and accounts there are in all. */
export function fetchCounts(session: AdminSession): Promise<ApiResult<{ feedback: number; emails: number }>> {
  return call(session, '/api/admin/counts');
}

/** `{email, limit: null}` creates an account (409 when it exists). */
export function createEmail(session: AdminSession, email: string): Promise<ApiResult<unknown>> {
  return call(session, '/api/emails', { method: 'POST', body: { email, limit: null } });
}

/** `{email, isPro, limit: null}` sets the plan. */
export function setPlan(session: AdminSession, email: string, isPro: boolean): Promise<ApiResult<unknown>> {
  return call(session, '/api/emails', { method: 'POST', body: { email, isPro, limit: null } });
}

export function deleteEmail(session: AdminSession, email: string): Promise<ApiResult<unknown>> {
  return call(session, `/api/emails/${encodeURIComponent(email)}`, { method: 'DELETE' });
}

/** A page of feedback, newest first; `before` is the last id of the previous page. */
export function fetchFeedback(
  session: AdminSession,
  page: { limit: number; before?: number | undefined },
): Promise<ApiResult<AdminFeedback[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return call(session, `/api/feedback?${query.toString()}`);
}

export function deleteFeedback(session: AdminSession, id: number): Promise<ApiResult<unknown>> {
  return call(session, `/api/feedback/${id}`, { method: 'DELETE' });
}

/** An own session limit, or null for the plan's default. */
export function setSessionLimit(session: AdminSession, email: string, sessionLimit: number | null): Promise<ApiResult<EmailAccount>> {
  return call(session, `/api/emails/${encodeURIComponent(email)}`, { method: 'PATCH', body: { sessionLimit } });
}

export function fetchUserData(session: AdminSession, email: string): Promise<ApiResult<UserData>> {
  return call(session, `/api/admin/users/${encodeURIComponent(email)}`);
}

export function eraseUser(session: AdminSession, email: string): Promise<ApiResult<UserErasure>> {
  return call(session, `/api/admin/users/${encodeURIComponent(email)}`, { method: 'DELETE' });
}

export function fetchDailyStats(session: AdminSession, days: number): Promise<ApiResult<DailyStats>> {
  return call(session, `/api/admin/stats/daily?days=${days}`);
}

export function fetchQuestionSets(session: AdminSession): Promise<ApiResult<AdminQuestionSet[]>> {
  return call(session, '/api/admin/question-sets');
}

export function saveQuestionSet(session: AdminSession, id: number | null, set: QuestionSetInput): Promise<ApiResult<AdminQuestionSet>> {
  return id === null
    ? call(session, '/api/admin/question-sets', { method: 'POST', body: set })
    : call(session, `/api/admin/question-sets/${id}`, { method: 'PUT', body: set });
}

/** Moves a set to `index` in the tile order; answers the whole list as it now is. */
export function moveQuestionSet(session: AdminSession, id: number, index: number): Promise<ApiResult<AdminQuestionSet[]>> {
  return call(session, `/api/admin/question-sets/${id}/position`, { method: 'PUT', body: { index } });
}

export function deleteQuestionSet(session: AdminSession, id: number): Promise<ApiResult<QuestionSetDeleteResult>> {
  return call(session, `/api/admin/question-sets/${id}`, { method: 'DELETE' });
}

/** Whether a language model drafts phrasings here, and why not when it does not. */
export function fetchSetAssistant(session: AdminSession): Promise<ApiResult<SetAssistant>> {
  return call(session, '/api/admin/question-sets/assistant');
}

/** How the rater judges an answer to one question of the set as drafted; nothing is saved. */
export function tryAnswer(session: AdminSession, input: TryAnswerInput): Promise<ApiResult<TryAnswerResult>> {
  return call(session, '/api/admin/question-sets/try-answer', { method: 'POST', body: input });
}

/** The language model's drafts for one key point; nothing is saved. */
export function suggestPhrasings(session: AdminSession, input: SuggestPhrasingsInput): Promise<ApiResult<PhrasingSuggestions>> {
  return call(session, '/api/admin/question-sets/suggest-phrasings', { method: 'POST', body: input });
}

/** A streamed CSV export: the file, `empty` when there is nothing to export, or the failure. */
export type ExportResult = { ok: true; file: Blob } | { ok: true; empty: true } | { ok: false; message: string | null };

export async function fetchExport(_session: AdminSession, kind: 'ratings' | 'feedback'): Promise<ExportResult> {
  let response: Response;
  try {
    response = await fetch(apiUrl(`/api/admin/exports/${kind}.csv`));
  } catch {
    return { ok: false, message: null };
  }
  if (response.status === 204) return { ok: true, empty: true };
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    return { ok: false, message: serverErrorOf(body) ?? response.statusText };
  }
  return { ok: true, file: await response.blob() };
}

// Re-exported so pages need one import for the call results they show.
export type {
  AdminEvent,
  AdminEventRow,
  AdminFeedback,
  AdminQuestionSet,
  DailyStats,
  EmailAccount,
  InterviewStats,
  PhrasingSuggestions,
  QuestionSetInput,
  SetAssistant,
  TryAnswerResult,
  UserData,
};
