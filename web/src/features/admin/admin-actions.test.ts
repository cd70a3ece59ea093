/** The emails and question-set actions against a stand-in API: which call each change makes, and their texts (docs/product-rules.md, Admin area). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chartRangeOf } from './dashboard-range';
import { runEmailAction } from './emails-actions';
import { runQuestionSetChange } from './question-sets/question-sets-actions';
import { ADMIN_SESSION } from './admin-api';

interface Sent {
  method: string;
  path: string;
  body: unknown;
}
let sent: Sent[];
/** The next answer of the stand-in API; `offline` throws like a refused connection. */
let answer: { status: number; body?: unknown } | 'offline';

beforeEach(() => {
  sent = [];
  answer = { status: 200, body: {} };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ method: init.method ?? 'GET', path: url, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    if (answer === 'offline') throw new TypeError('Failed to fetch');
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status, statusText: answer.status === 500 ? 'Internal Server Error' : 'OK' });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

describe('runEmailAction', () => {
  it('creates the trimmed address and sets plans and limits with the right calls', async () => {
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'create', email: '  new@example.com ' }))).toEqual({
      intent: 'create',
      ok: true,
      message: undefined,
    });
    await runEmailAction(ADMIN_SESSION, form({ intent: 'plan', email: 'a@example.com', pro: 'true' }));
    await runEmailAction(ADMIN_SESSION, form({ intent: 'limit', email: 'a@example.com', sessionLimit: '12' }));
    await runEmailAction(ADMIN_SESSION, form({ intent: 'limit', email: 'a@example.com', sessionLimit: '' }));
    await runEmailAction(ADMIN_SESSION, form({ intent: 'delete', email: 'a@example.com' }));
    expect(sent).toEqual([
      { method: 'POST', path: '/api/emails', body: { email: 'new@example.com', limit: null } },
      { method: 'POST', path: '/api/emails', body: { email: 'a@example.com', isPro: true, limit: null } },
      { method: 'PATCH', path: '/api/emails/a%40example.com', body: { sessionLimit: 12 } },
      { method: 'PATCH', path: '/api/emails/a%40example.com', body: { sessionLimit: null } },
      { method: 'DELETE', path: '/api/emails/a%40example.com', body: undefined },
    ]);
  });

  it("says each change's failure texts", async () => {
    answer = { status: 500, body: {} };
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'create', email: 'x@example.com' }))).toEqual({
      intent: 'create',
      ok: false,
      error: 'Failed to create email: Could not create email.',
    });
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'plan', email: 'x@example.com', pro: 'true' }))).toMatchObject({
      error: 'Failed to update plan.',
    });
    answer = { status: 409, body: { error: 'This email already exists.' } };
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'create', email: 'x@example.com' }))).toMatchObject({
      error: 'Failed to create email: This email already exists.',
    });
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'limit', email: 'x@example.com', sessionLimit: '3' }))).toMatchObject({
      error: 'Failed to update the session limit: This email already exists.',
    });
    answer = 'offline';
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'delete', email: 'x@example.com' }))).toMatchObject({
      error: 'An error occurred while deleting the email.',
    });
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'erase', email: 'x@example.com' }))).toMatchObject({
      error: 'An error occurred while erasing the data.',
    });
  });

  it('sums up an erasure, and refuses an intent it does not know', async () => {
    answer = { status: 200, body: { removed: { accounts: 1, events: 2, feedback: 0, sessions: 1 } } };
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'erase', email: 'b@example.com' }))).toEqual({
      intent: 'erase',
      ok: true,
      message: 'Erased 1 account, 2 events, 0 feedback, 1 session.',
    });
    await expect(runEmailAction(ADMIN_SESSION, form({ intent: 'drop-table' }))).rejects.toThrow('Unknown emails action: drop-table');
  });

  it('signs an email out everywhere with its own call, says how many sessions ended, and says why it failed', async () => {
    answer = { status: 200, body: { email: 'a@example.com', ended: 2 } };
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'signout', email: ' a@example.com ' }))).toEqual({
      intent: 'signout',
      ok: true,
      message: 'Signed a@example.com out everywhere: 2 sessions ended.',
    });
    expect(sent).toEqual([{ method: 'POST', path: '/api/admin/users/a%40example.com/signout', body: undefined }]);
    answer = { status: 200, body: { email: 'b@example.com', ended: 1 } };
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'signout', email: 'b@example.com' }))).toMatchObject({
      message: 'Signed b@example.com out everywhere: 1 session ended.',
    });
    answer = { status: 401, body: { error: 'The admin secret is missing.' } };
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'signout', email: 'b@example.com' }))).toEqual({
      intent: 'signout',
      ok: false,
      error: 'Failed to sign the email out: The admin secret is missing.',
    });
    answer = 'offline';
    expect(await runEmailAction(ADMIN_SESSION, form({ intent: 'signout', email: 'b@example.com' }))).toMatchObject({
      error: 'An error occurred while signing the email out.',
    });
  });
});

describe('runQuestionSetChange', () => {
  const set = {
    name: 'Closures',
    index: 3,
    isPremium: false,
    requiresFeedback: false,
    instructions: '',
    questions: ['Q?'],
    modelAnswers: '### 1. Q?',
  };

  it('creates without an id, updates with one, and says so', async () => {
    answer = { status: 200, body: { ...set, id: 9 } };
    expect(await runQuestionSetChange(ADMIN_SESSION, { intent: 'save', id: null, set })).toMatchObject({
      ok: true,
      notice: 'Saved "Closures". Candidates see it now.',
      saved: { id: 9 },
    });
    await runQuestionSetChange(ADMIN_SESSION, { intent: 'save', id: 9, set });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/admin/question-sets', 'PUT /api/admin/question-sets/9']);
  });

  it('says whether a deleted set was archived', async () => {
    answer = { status: 200, body: { outcome: 'archived' } };
    expect(await runQuestionSetChange(ADMIN_SESSION, { intent: 'delete', id: 9, name: 'Closures' })).toEqual({
      ok: true,
      notice: 'Archived "Closures": interviews used it, so its history is kept. The later sets moved up one place.',
      saved: null,
    });
    answer = { status: 200, body: { outcome: 'deleted' } };
    expect(await runQuestionSetChange(ADMIN_SESSION, { intent: 'delete', id: 9, name: 'Closures' })).toMatchObject({
      notice: 'Deleted "Closures". The later sets moved up one place.',
    });
    answer = { status: 400, body: { error: 'This question set has 1 questions but 2 model answers.' } };
    expect(await runQuestionSetChange(ADMIN_SESSION, { intent: 'save', id: 9, set })).toEqual({
      ok: false,
      error: 'Failed to save the question set: This question set has 1 questions but 2 model answers.',
    });
  });
});

describe('chartRangeOf', () => {
  it('reads ?days= when it is one of the ranges, 30 otherwise', () => {
    const range = (search: string) => chartRangeOf(new URL(`http://localhost/admin${search}`));
    expect(range('?days=7')).toBe(7);
    expect(range('?days=90')).toBe(90);
    for (const search of ['', '?days=8', '?days=abc', '?days=']) expect(range(search)).toBe(30);
  });
});
