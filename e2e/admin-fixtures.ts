/**
 * Shared set-up of the admin end-to-end specs: a real server on a fresh data directory, seeded
 * through the product's own public calls (login, token, rating, feedback), so the admin pages show
 * exactly what users produced.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { api, startServer, type RunningServer } from './support/server';

export type { RunningServer };

/** Pinned so dates render the same on every machine. */
export const BROWSER_LOCALE = { locale: 'en-US', timezoneId: 'UTC' } as const;

export function shownDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { timeZone: 'UTC' });
}

export async function startAdminServer(): Promise<RunningServer> {
  // Enough credits for the events pagination seed; the default free plan allows a handful.
  return startServer({ env: { FREE_SESSION_LIMIT: '200', PRO_SESSION_LIMIT: '200' } });
}

interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One call to the server; fails the test on any non-2xx answer unless `allowFailure`. */
export async function call<T = unknown>(
  server: RunningServer,
  path: string,
  options: CallOptions = {},
  allowFailure = false,
): Promise<{ status: number; body: T }> {
  const answer = await api<T>(server, path, options);
  if (!allowFailure && answer.status >= 300) {
    throw new Error(`${options.method ?? 'GET'} ${path} -> ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer;
}

export function admin(server: RunningServer, path: string, options: CallOptions = {}, allowFailure = false) {
  return call(server, path, { ...options, headers: { 'x-admin-secret': server.adminSecret, ...options.headers } }, allowFailure);
}

interface QuestionSet {
  id: number;
  name: string;
  index: number;
}

export async function questionSets(server: RunningServer): Promise<QuestionSet[]> {
  return (await call<QuestionSet[]>(server, '/api/question-sets')).body;
}

export async function login(server: RunningServer, email: string): Promise<void> {
  await call(server, '/user/login', { method: 'POST', body: { email } });
}

/** A START event (GET /interview/token); answers the session id. */
export async function startSession(server: RunningServer, email: string, questionSetId: number): Promise<string> {
  const { body } = await call<{ sessionId: string }>(server, `/interview/token?questionSetId=${questionSetId}`, {
    headers: { 'x-user-email': email },
  });
  return body.sessionId;
}

export interface TranscriptEntry {
  role: 'interviewer' | 'interviewee';
  transcript: string;
}

/** A START and then a RATE event for one interview. */
export async function interview(
  server: RunningServer,
  email: string,
  questionSetId: number,
  transcripts: TranscriptEntry[],
  durationSeconds: number,
): Promise<void> {
  const sessionId = await startSession(server, email, questionSetId);
  await call(server, '/interview/rate-transcript', {
    method: 'POST',
    headers: { 'x-user-email': email },
    body: { transcripts, durationSeconds, questionSetId, sessionId },
  });
}

export async function giveFeedback(
  server: RunningServer,
  email: string,
  topic: string,
  questionIndex: number,
  feedback: string,
): Promise<number> {
  const { body } = await call<{ id: number }>(server, '/user/feedback', {
    method: 'POST',
    headers: { 'x-user-email': email },
    body: { feedback, topic, questionIndex },
  });
  return body.id;
}

/** Opens an admin page with the secret as the route parameter (the gate verifies it, then drops it from the URL). */
export async function openAdmin(
  page: Page,
  server: RunningServer,
  section: 'dashboard' | 'events' | 'emails' | 'feedback' | 'question-sets',
): Promise<void> {
  await page.goto(`${server.url}/admin/${section}/${encodeURIComponent(server.adminSecret)}`);
  await expect(page.getByRole('dialog', { name: 'Enter Admin Secret' })).toBeHidden();
  await expect(page).toHaveURL(`${server.url}/admin/${section}`);
}

/** Collects every alert/confirm message and answers confirms with `accept`. */
export function recordDialogs(page: Page, accept = true): string[] {
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    messages.push(`${dialog.type()}: ${dialog.message()}`);
    void (accept ? dialog.accept() : dialog.dismiss());
  });
  return messages;
}

/** The downloaded CSV's text, after the UTF-8 byte-order mark every export starts with (for Excel). */
export async function downloadedText(download: Download): Promise<string> {
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}

/** A field as RFC 4180 writes it when it holds a comma, quote or line break. */
export function quoted(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
