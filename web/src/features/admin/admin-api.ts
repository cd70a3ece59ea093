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
import { apiUrl } from '../../lib/api-base';
import { callApi, serverErrorOf, type ApiResult } from '../../lib/http';

/**
 * One admin call through the app's shared `callApi` (same URL building, failure kinds and typed
 * answers as the interviewee's calls), with the secret in its header (docs/product-rules.md, Admin area).
 */
function call<T>(
  secret: string,
  path: string,
  init: { method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown } = {},
): Promise<ApiResult<T>> {
  return callApi<T>(path, { ...init, headers: { 'x-admin-secret': secret } });
}

/**
 * The secret is verified with GET /api/events; only the status and the error are read.
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

/** A page of the list: each row carries previews of its texts (AdminEventRow). */
export function fetchEvents(secret: string, page: EventsPage): Promise<ApiResult<AdminEventRow[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return call(secret, `/api/events?${query.toString()}`);
}

/** One whole event: its full transcript, rating Markdown and breakdown (the details dialog). */
export function fetchEventDetails(secret: string, id: number): Promise<ApiResult<AdminEvent>> {
  return call(secret, `/api/events/${id}`);
}

export function fetchStats(secret: string): Promise<ApiResult<InterviewStats>> {
  return call(secret, '/api/interview-stats');
}

/** A page of accounts by email; `after` is the last email of the previous page. */
export function fetchEmails(secret: string, page: { limit: number; after?: string | undefined }): Promise<ApiResult<EmailAccount[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.after !== undefined) query.set('after', page.after);
  return call(secret, `/api/emails?${query.toString()}`);
}

/** How many feedback rows and accounts there are in all. */
export function fetchCounts(secret: string): Promise<ApiResult<{ feedback: number; emails: number }>> {
  return call(secret, '/api/admin/counts');
}

/** `{email, limit: null}` creates an account (409 when it exists). */
export function createEmail(secret: string, email: string): Promise<ApiResult<unknown>> {
  return call(secret, '/api/emails', { method: 'POST', body: { email, limit: null } });
}

/** `{email, isPro, limit: null}` sets the plan. */
export function setPlan(secret: string, email: string, isPro: boolean): Promise<ApiResult<unknown>> {
  return call(secret, '/api/emails', { method: 'POST', body: { email, isPro, limit: null } });
}

export function deleteEmail(secret: string, email: string): Promise<ApiResult<unknown>> {
  return call(secret, `/api/emails/${encodeURIComponent(email)}`, { method: 'DELETE' });
}

/** A page of feedback, newest first; `before` is the last id of the previous page. */
export function fetchFeedback(secret: string, page: { limit: number; before?: number | undefined }): Promise<ApiResult<AdminFeedback[]>> {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return call(secret, `/api/feedback?${query.toString()}`);
}

export function deleteFeedback(secret: string, id: number): Promise<ApiResult<unknown>> {
  return call(secret, `/api/feedback/${id}`, { method: 'DELETE' });
}

/** An own session limit, or null for the plan's default. */
export function setSessionLimit(secret: string, email: string, sessionLimit: number | null): Promise<ApiResult<EmailAccount>> {
  return call(secret, `/api/emails/${encodeURIComponent(email)}`, { method: 'PATCH', body: { sessionLimit } });
}

export function fetchUserData(secret: string, email: string): Promise<ApiResult<UserData>> {
  return call(secret, `/api/admin/users/${encodeURIComponent(email)}`);
}

export function eraseUser(secret: string, email: string): Promise<ApiResult<UserErasure>> {
  return call(secret, `/api/admin/users/${encodeURIComponent(email)}`, { method: 'DELETE' });
}

export function fetchDailyStats(secret: string, days: number): Promise<ApiResult<DailyStats>> {
  return call(secret, `/api/admin/stats/daily?days=${days}`);
}

export function fetchQuestionSets(secret: string): Promise<ApiResult<AdminQuestionSet[]>> {
  return call(secret, '/api/admin/question-sets');
}

export function saveQuestionSet(secret: string, id: number | null, set: QuestionSetInput): Promise<ApiResult<AdminQuestionSet>> {
  return id === null
    ? call(secret, '/api/admin/question-sets', { method: 'POST', body: set })
    : call(secret, `/api/admin/question-sets/${id}`, { method: 'PUT', body: set });
}

/** Moves a set to `index` in the tile order; answers the whole list as it now is. */
export function moveQuestionSet(secret: string, id: number, index: number): Promise<ApiResult<AdminQuestionSet[]>> {
  return call(secret, `/api/admin/question-sets/${id}/position`, { method: 'PUT', body: { index } });
}

export function deleteQuestionSet(secret: string, id: number): Promise<ApiResult<QuestionSetDeleteResult>> {
  return call(secret, `/api/admin/question-sets/${id}`, { method: 'DELETE' });
}

/** Whether a language model drafts phrasings here, and why not when it does not. */
export function fetchSetAssistant(secret: string): Promise<ApiResult<SetAssistant>> {
  return call(secret, '/api/admin/question-sets/assistant');
}

/** How the rater judges an answer to one question of the set as drafted; nothing is saved. */
export function tryAnswer(secret: string, input: TryAnswerInput): Promise<ApiResult<TryAnswerResult>> {
  return call(secret, '/api/admin/question-sets/try-answer', { method: 'POST', body: input });
}

/** The language model's drafts for one key point; nothing is saved. */
export function suggestPhrasings(secret: string, input: SuggestPhrasingsInput): Promise<ApiResult<PhrasingSuggestions>> {
  return call(secret, '/api/admin/question-sets/suggest-phrasings', { method: 'POST', body: input });
}

/** A streamed CSV export: the file, `empty` when there is nothing to export, or the failure. */
export type ExportResult = { ok: true; file: Blob } | { ok: true; empty: true } | { ok: false; message: string | null };

export async function fetchExport(secret: string, kind: 'ratings' | 'feedback'): Promise<ExportResult> {
  let response: Response;
  try {
    response = await fetch(apiUrl(`/api/admin/exports/${kind}.csv`), { headers: { 'x-admin-secret': secret } });
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
