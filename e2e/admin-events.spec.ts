/**
 * Dashboard and Recent Events (docs/product-rules.md, Admin area) against a real server seeded through the
 * product's own calls: logins, sessions (START) and rated interviews (RATE).
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import {
  admin,
  BROWSER_LOCALE,
  downloadedText,
  interview,
  openAdmin,
  quoted,
  recordDialogs,
  shownDateTime,
  startAdminServer,
  startSession,
  type RunningServer,
} from './support/admin';
import { login } from '../test-support/fixtures';
import { questionSets } from './support/app';
import type { TranscriptEntry } from '../contract';
import { expectAccessible } from './support/a11y';

interface ApiEvent {
  id: number;
  userEmail: string | null;
  eventType: string;
  topic: string | null;
  questionSetIndex: number | null;
  eventTimestamp: string;
  durationSeconds: number | null;
  transcript: TranscriptEntry[] | null;
  ratingMarkdown: string | null;
  ratingBreakdown: Array<{ question: string; verdict: string; score: number }> | null;
  score: number | null;
  rater: string | null;
}

let server: RunningServer;
/** What the server holds, newest first, read once after seeding. */
let events: ApiEvent[];

const ALICE_TRANSCRIPT: TranscriptEntry[] = [
  { role: 'interviewer', transcript: 'What is a closure in JavaScript?' },
  { role: 'interviewee', transcript: '=1+1, a function that "remembers" its scope <script>window.__pwned = 1</script>' },
  { role: 'interviewer', transcript: 'Thanks, that is all.' },
];
const BOB_TRANSCRIPT: TranscriptEntry[] = [
  { role: 'interviewer', transcript: 'Explain the event loop.' },
  { role: 'interviewee', transcript: 'The call stack runs, then microtasks, then the next macrotask.' },
];
/** Older than everything else, so the interviews are on the first page and these fill the second. */
const FILLER_SESSIONS = 48;

test.use(BROWSER_LOCALE);
test.beforeAll(async () => {
  server = await startAdminServer();
  const sets = await questionSets(server);
  const first = sets.find((set) => set.index === 1);
  if (!first) throw new Error('the catalogue needs a set with index 1');

  await login(server, 'dave@example.com');
  for (let i = 0; i < FILLER_SESSIONS; i++) await startSession(server, 'dave@example.com', first.id);
  await login(server, 'alice@example.com');
  await interview(server, 'alice@example.com', first.id, ALICE_TRANSCRIPT, 95);
  // Set 1 again: her first interview answered one question, so set 2 is still locked (a level
  // completes only when every question was answered: docs/product-rules.md).
  await interview(server, 'alice@example.com', first.id, BOB_TRANSCRIPT, 130);
  await login(server, 'bob@example.com');
  await interview(server, 'bob@example.com', first.id, BOB_TRANSCRIPT, 61);
  await login(server, 'carol@example.com');
  await startSession(server, 'carol@example.com', first.id);

  // The list carries previews (issue 33 item 2): each rating's whole texts come with its details.
  const listed = (await admin(server, 'GET', '/api/events?limit=500')).body as ApiEvent[];
  events = await Promise.all(
    listed.map(async (row) => (row.eventType === 'RATE' ? ((await admin(server, 'GET', `/api/events/${row.id}`)).body as ApiEvent) : row)),
  );
});
test.afterAll(async () => {
  await server?.stop();
});

const rows = (page: Page) => page.locator('tbody tr');

test('the dashboard shows the email total and one column per interview number', async ({ page }) => {
  await openAdmin(page, server, 'dashboard');
  await expect(page.getByTestId('email-count')).toHaveText('4');
  const table = page.getByRole('table', { name: 'Interviews taken' });
  // alice rated two interviews, bob one: "at least n" counts.
  await expect(table.getByRole('columnheader')).toHaveText(['1st interview taken', '2nd']);
  await expect(table.getByRole('cell')).toHaveText(['2', '1']);
});

test('a failed stats load only ends the loading state', async ({ page }) => {
  await page.route('**/api/interview-stats', (route) => route.abort('failed'));
  await openAdmin(page, server, 'dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Loading...')).toHaveCount(0);
  await expect(page.getByTestId('email-count')).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the events table lists the newest 50 and loads older pages with the cursor', async ({ page }) => {
  expect(events).toHaveLength(FILLER_SESSIONS + 7);
  await openAdmin(page, server, 'events');
  await expect(page.getByRole('heading', { name: 'Admin - Recent Events' })).toBeVisible();
  await expect(rows(page)).toHaveCount(50);

  const newest = events[0]!;
  expect(newest.userEmail).toBe('carol@example.com');
  await expect(rows(page).first().getByRole('cell')).toHaveText([
    String(newest.id),
    'carol@example.com',
    'START',
    newest.topic ?? '',
    `${newest.questionSetIndex}Set ${(newest.questionSetIndex ?? 0) + 1} · ${newest.topic}`,
    shownDateTime(newest.eventTimestamp),
    '',
    'Details',
  ]);
  const rated = events.find((event) => event.eventType === 'RATE' && event.userEmail === 'bob@example.com')!;
  const ratedRow = rows(page).filter({ has: page.getByRole('cell', { name: String(rated.id), exact: true }) });
  await expect(ratedRow.getByRole('cell')).toHaveText([
    String(rated.id),
    'bob@example.com',
    'RATE',
    rated.topic ?? '',
    `${rated.questionSetIndex}Set ${(rated.questionSetIndex ?? 0) + 1} · ${rated.topic}`,
    shownDateTime(rated.eventTimestamp),
    '61',
    'Details',
  ]);
  await expect(rows(page).first().getByText('START', { exact: true })).toHaveClass(/bg-green-100/);
  await expect(ratedRow.getByText('RATE', { exact: true })).toHaveClass(/bg-blue-100/);

  const older = page.waitForRequest((request) => request.url().includes(`/api/events?limit=50&before=${events[49]!.id}`));
  await page.getByRole('button', { name: 'Load older events' }).click();
  await older;
  await expect(rows(page)).toHaveCount(events.length);
  await expect(rows(page).locator('td:first-child')).toHaveText(events.map((event) => String(event.id)));
  await expect(page.getByRole('button', { name: 'Load older events' })).toHaveCount(0);
});

test('the details dialog shows the transcript as formatted JSON and the rating Markdown', async ({ page }) => {
  const rated = events.find((event) => event.eventType === 'RATE' && event.durationSeconds === 95)!;
  expect(rated.ratingMarkdown).toBeTruthy();
  await openAdmin(page, server, 'events');
  // The list's rows carry previews: opening one fetches the whole event.
  const whole = page.waitForResponse((response) => new URL(response.url()).pathname === `/api/events/${rated.id}`);
  await rows(page)
    .filter({ has: page.getByRole('cell', { name: String(rated.id), exact: true }) })
    .getByRole('button', { name: 'Details' })
    .click();
  expect((await whole).status()).toBe(200);

  const dialog = page.getByRole('dialog', { name: 'Event Details' });
  await expect(dialog.getByTestId('detail-id')).toHaveText(String(rated.id));
  await expect(dialog.getByTestId('detail-topic')).toHaveText(rated.topic ?? '');
  await expect(dialog.getByTestId('detail-index')).toHaveText(String(rated.questionSetIndex));
  await expect(dialog.getByTestId('detail-set')).toHaveText(`Set ${(rated.questionSetIndex ?? 0) + 1} · ${rated.topic}`);
  // Beside the JSON: the conversation, speaker by speaker.
  await expect(dialog.getByTestId('detail-conversation').getByRole('listitem')).toHaveCount(rated.transcript?.length ?? 0);
  await expect(dialog.getByTestId('detail-conversation').getByRole('listitem').first()).toContainText(
    rated.transcript?.[0]?.role === 'interviewer' ? 'Interviewer' : 'Candidate',
  );
  await expect(dialog.getByTestId('detail-transcript')).toHaveText(JSON.stringify(rated.transcript, null, 2));
  expect(rated.transcript).toEqual(ALICE_TRANSCRIPT);
  // The candidate's markup is text: no script element was made from it and nothing ran.
  await expect(dialog.locator('script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  const heading = /^#{1,6}\s+(.+)$/m.exec(rated.ratingMarkdown ?? '')?.[1];
  expect(heading, 'the rating Markdown has a heading').toBeTruthy();
  await expect(
    dialog
      .getByTestId('detail-rating')
      .getByRole('heading', { name: heading!.replace(/[*_`]/g, '').trim() })
      .first(),
  ).toBeVisible();

  // The per-question breakdown: one entry per question of the set, with its verdict and score.
  const breakdown = rated.ratingBreakdown ?? [];
  expect(breakdown.length).toBeGreaterThan(0);
  const items = dialog.getByTestId('detail-breakdown').locator(':scope > li');
  await expect(items).toHaveCount(breakdown.length);
  await expect(items.first()).toContainText(`${breakdown[0]!.question} — ${breakdown[0]!.verdict} (${breakdown[0]!.score}/100)`);

  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();

  const start = events.find((event) => event.eventType === 'START')!;
  await rows(page)
    .filter({ has: page.getByRole('cell', { name: String(start.id), exact: true }) })
    .getByRole('button', { name: 'Details' })
    .click();
  await expect(dialog.getByTestId('detail-rating').locator('em')).toHaveText('No rating markdown available');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('Download Ratings exports every RATE event, streamed by the server, byte for byte', async ({ page }) => {
  await openAdmin(page, server, 'events');
  await expect(rows(page)).toHaveCount(50);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Ratings' }).click()]);
  expect(download.suggestedFilename()).toBe('ratings_and_transcripts.csv');

  const rated = events.filter((event) => event.eventType === 'RATE');
  expect(rated).toHaveLength(3);
  const transcriptText = (entries: TranscriptEntry[]) =>
    entries.map((entry) => `${entry.role === 'interviewer' ? 'Interviewer' : 'Interviewee'}: ${entry.transcript}`).join('\n');
  // A formula sign right after a line break (a Markdown bullet "- ") gets the leading ' too: a
  // spreadsheet splitting the file on another separator would start a cell there (docs/product-rules.md, CSV rules).
  const afterBreaks = (text: string) => text.replace(/\n(?=[=+\-@])/g, "\n'");
  const expected =
    'ID,User Email,Topic,Set Index (from 0),Set Number (as candidates see it),Timestamp,Duration (s),Score,Rater,Transcript,Rating Markdown\r\n' +
    rated
      .map((event) => {
        expect(event.ratingMarkdown).toMatch(/^[^=+\-@\t\r]/);
        expect(event.ratingMarkdown).toContain('\n');
        return (
          [
            event.id,
            event.userEmail,
            event.topic,
            event.questionSetIndex,
            (event.questionSetIndex ?? 0) + 1,
            event.eventTimestamp,
            event.durationSeconds,
            event.score,
            event.rater,
            quoted(transcriptText(event.transcript ?? [])),
            quoted(afterBreaks(event.ratingMarkdown ?? '')),
          ].join(',') + '\r\n'
        );
      })
      .join('');
  expect(await downloadedText(download)).toBe(expected);
  // The candidate's formula-looking answer is not at a cell start, so it stays as written.
  expect(expected).toContain('Interviewee: =1+1, a function that ""remembers"" its scope');
});

test('event load failures show the documented texts', async ({ page }) => {
  const pageLoad = (url: URL) => url.pathname === '/api/events' && url.searchParams.get('limit') === '50';
  await page.route(pageLoad, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'The database is unavailable.' }) }),
  );
  await openAdmin(page, server, 'events');
  await expect(page.getByRole('alert')).toHaveText('Failed to fetch events: The database is unavailable.');

  await page.unroute(pageLoad);
  await page.route(pageLoad, (route) => route.fulfill({ status: 503, body: '' }));
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('Failed to fetch events: Service Unavailable');

  await page.unroute(pageLoad);
  await page.route(pageLoad, (route) => route.abort('failed'));
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('An error occurred while fetching events.');
  await expect(page.getByRole('heading', { name: 'Admin - Recent Events' })).toBeVisible();
  expect(recordDialogs(page)).toEqual([]);
});

test('a failed details load shows the documented texts in the dialog', async ({ page }) => {
  const rated = events.find((event) => event.eventType === 'RATE')!;
  const detailsLoad = (url: URL) => url.pathname === `/api/events/${rated.id}`;
  await page.route(detailsLoad, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'The database is unavailable.' }) }),
  );
  await openAdmin(page, server, 'events');
  const details = rows(page)
    .filter({ has: page.getByRole('cell', { name: String(rated.id), exact: true }) })
    .getByRole('button', { name: 'Details' });
  const dialog = page.getByRole('dialog', { name: 'Event Details' });
  await details.click();
  await expect(dialog.getByRole('alert')).toHaveText('Failed to fetch the event: The database is unavailable.');
  await expect(dialog.getByTestId('detail-id')).toHaveText(String(rated.id));
  await page.keyboard.press('Escape');

  await page.unroute(detailsLoad);
  await page.route(detailsLoad, (route) => route.abort('failed'));
  await details.click();
  await expect(dialog.getByRole('alert')).toHaveText('An error occurred while fetching the event.');
  expect(recordDialogs(page)).toEqual([]);
});

test('the admin pages pass the accessibility audit with this seed (paged events)', async ({ page }) => {
  for (const section of ['dashboard', 'events', 'emails', 'feedback'] as const) {
    await openAdmin(page, server, section);
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await expectAccessible(page, `admin ${section}`);
  }
});
