/**
 * Shared set-up of the admin end-to-end specs: a real server on a fresh data directory, seeded
 * through the product's own public calls (login, token, rating, feedback), so the admin pages show
 * exactly what users produced.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import type { TranscriptEntry } from '../../contract';
import { call, type Answer, type Method } from '../../test-support/fixtures';
import { must, startServer, type RunningServer } from '../../test-support/server-process';

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

/** An admin call (the secret in `x-admin-secret`); fails the test on an error status unless `allowFailure`. */
export async function admin<T = unknown>(
  server: RunningServer,
  method: Method,
  path: string,
  options: { body?: unknown } = {},
  allowFailure = false,
): Promise<Answer<T>> {
  const answer = await call<T>(server, method, path, { ...options, admin: server.adminSecret });
  if (!allowFailure) must(answer, `${method} ${path}`);
  return answer;
}

/** A START event (GET /interview/token); answers the session id. */
export async function startSession(server: RunningServer, email: string, questionSetId: number): Promise<string> {
  return must(await call<{ sessionId: string }>(server, 'GET', `/interview/token?questionSetId=${questionSetId}`, { email }), 'token')
    .sessionId;
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
  const body = { transcripts, durationSeconds, questionSetId, sessionId };
  must(await call(server, 'POST', '/interview/rate-transcript', { email, body }), 'rating');
}

export async function giveFeedback(
  server: RunningServer,
  email: string,
  topic: string,
  questionIndex: number,
  feedback: string,
): Promise<number> {
  return must(await call<{ id: number }>(server, 'POST', '/user/feedback', { email, body: { feedback, topic, questionIndex } }), 'feedback')
    .id;
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
