/** The main route's loader and action through a real memory router (docs/product-rules.md, Login and identity; Topic tiles). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';

const profile = (isNewUser: boolean, topicFeedback: Record<string, boolean> = {}) => ({
  subscription: { type: 'free', status: 'active' },
  progress: [],
  topicLevels: {},
  topicFeedback,
  isNewUser,
});

let stored: Map<string, string>;
let calls: string[];
let answers: Record<string, () => Response | Error>;

beforeEach(() => {
  vi.resetModules(); // the logged-in account is kept per page (per module instance)
  stored = new Map();
  calls = [];
  answers = {};
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
      removeItem: (k: string) => stored.delete(k),
    },
  });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push(`${init.method} ${url}`);
    const answer = answers[url]?.() ?? Response.json([]);
    if (answer instanceof Error) throw answer;
    return answer;
  });
});
afterEach(() => vi.unstubAllGlobals());

async function mainRoute() {
  const { loader, action } = await import('./main');
  const router = createMemoryRouter([{ id: 'main', path: '/', loader, action, Component: () => null }]);
  const settled = () =>
    vi.waitFor(() =>
      expect(router.state.initialized && router.state.navigation.state === 'idle' && router.state.revalidation === 'idle').toBe(true),
    );
  await settled();
  const data = () =>
    router.state.loaderData.main as { account: { email: string; profile: { topicFeedback: object } } | null; loginError: string | null };
  const send = async (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    // What a fetcher does: the action, then the route's data read again.
    const answer: unknown = await action({
      request: new Request('http://app/?index', { method: 'POST', body: form }),
      params: {},
      context: {},
    } as never);
    await router.revalidate();
    await settled();
    return answer;
  };
  return { router, data, send };
}

describe('the main route', () => {
  it('without a stored email nobody is logged in and nothing is asked', async () => {
    const { data } = await mainRoute();
    expect(data()).toEqual({ account: null, loginError: null });
    expect(calls).toEqual([]);
  });

  it('a stored email logs in by itself, once: a reload after a form asks the server nothing more', async () => {
    stored.set('userEmail', 'back@example.com');
    answers['/user/login'] = () => Response.json(profile(false));
    const { data, send } = await mainRoute();
    expect(data().account?.email).toBe('back@example.com');
    expect(calls).toEqual(['POST /user/login', 'GET /api/question-sets']);
    answers['/user/feedback'] = () => Response.json({ id: 1 }, { status: 201 });
    expect(
      await send({ intent: 'feedback', feedback: 'Clear questions and a good pace, thanks.', topic: 'React', questionIndex: '3' }),
    ).toEqual({ ok: true, topic: 'React' });
    expect(calls.slice(2)).toEqual(['POST /user/feedback']);
    // docs/product-rules.md, Topic tiles: the topic counts as having feedback from now on.
    expect(data().account?.profile.topicFeedback).toEqual({ React: true });
  });

  it('a stored email the server refuses is removed and its sentence shown', async () => {
    stored.set('userEmail', 'not an email');
    answers['/user/login'] = () => Response.json({ error: 'email: Enter a valid email address.' }, { status: 400 });
    const { data } = await mainRoute();
    expect(data()).toEqual({ account: null, loginError: 'Login failed: email: Enter a valid email address.' });
    expect(stored.has('userEmail')).toBe(false);
  });

  it('the login form: the trimmed email is stored on success; the status text or the network sentence on failure', async () => {
    const { data, send } = await mainRoute();
    answers['/user/login'] = () => Response.json(profile(true));
    expect(await send({ intent: 'login', email: ' new@example.com ' })).toEqual({ ok: true, isNewUser: true });
    expect(stored.get('userEmail')).toBe('new@example.com');
    expect(data().account?.email).toBe('new@example.com');

    answers['/user/login'] = () => new Response('', { status: 503, statusText: 'Service Unavailable' });
    expect(await send({ intent: 'login', email: 'down@example.com' })).toEqual({ ok: false, error: 'Login failed: Service Unavailable' });
    expect(stored.has('userEmail')).toBe(false);
    expect(data().account).toBeNull();

    vi.spyOn(console, 'error').mockImplementation(() => {});
    answers['/user/login'] = () => new TypeError('Failed to fetch');
    expect(await send({ intent: 'login', email: 'down@example.com' })).toEqual({ ok: false, error: 'An error occurred during login.' });
  });

  it('the feedback form: the server sentence, and the missing-information sentence when nobody is logged in', async () => {
    const { send } = await mainRoute();
    const fields = { intent: 'feedback', feedback: 'Clear questions and a good pace, thanks.', topic: 'React', questionIndex: '3' };
    expect(await send(fields)).toEqual({ ok: false, error: 'Missing feedback submission information' });
    answers['/user/login'] = () => Response.json(profile(false));
    await send({ intent: 'login', email: 'a@example.com' });
    answers['/user/feedback'] = () => Response.json({ error: 'Feedback could not be saved.' }, { status: 500 });
    expect(await send(fields)).toEqual({ ok: false, error: 'Failed to send feedback: Feedback could not be saved.' });
  });
});
