/** The history route's loader through a real memory router: page param, redirect of a page out of range, error sentences. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import { routeErrorSentence } from '../../lib/load-data';
import { loadHistory, modelAnswersFor, requestedPage } from './history-data';

const pagination = (page: number, totalPages: number) => ({
  page,
  limit: 9,
  totalCount: totalPages * 9,
  totalPages,
  hasNextPage: page < totalPages,
  hasPreviousPage: page > 1,
});

afterEach(() => vi.unstubAllGlobals());

/** A logged-in browser whose /user/ratings answers `ratings(page)`. */
function browser(email: string | null, ratings: (page: number) => Response | Error) {
  const asked: string[] = [];
  vi.stubGlobal('window', { localStorage: { getItem: () => email } });
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    if (url.startsWith('/api/question-sets')) return Response.json([]);
    const result = ratings(Number(new URL(url, 'http://x').searchParams.get('page')));
    if (result instanceof Error) throw result;
    return result;
  });
  return asked;
}

async function visit(path: string) {
  const router = createMemoryRouter([{ id: 'history', path: '/history', loader: loadHistory, Component: () => null }], {
    initialEntries: [path],
  });
  await vi.waitFor(() => expect(router.state.initialized && router.state.navigation.state === 'idle').toBe(true));
  const { location, loaderData, errors } = router.state;
  router.dispose();
  return {
    location: location.pathname + location.search,
    data: loaderData.history as Record<string, unknown> | undefined,
    sentence: routeErrorSentence(errors?.history),
  };
}

describe('the history loader', () => {
  it('asks for the page of the URL', async () => {
    const asked = browser('a@b.co', (page) => Response.json({ ratings: [], pagination: pagination(page, 3) }));
    const { data } = await visit('/history?page=2');
    expect(data?.history).toEqual({ ratings: [], pagination: pagination(2, 3) });
    expect(asked).toContain('/user/ratings?page=2&limit=9');
  });

  it('goes to the last page when the URL asks for one past it', async () => {
    browser('a@b.co', (page) => Response.json({ ratings: [], pagination: pagination(Math.min(page, 2), 2) }));
    expect((await visit('/history?page=7')).location).toBe('/history?page=2');
  });

  it('answers no data when nobody is logged in', async () => {
    const asked = browser(null, () => new Error('not called'));
    expect((await visit('/history')).data).toEqual({ email: null });
    expect(asked).toEqual([]);
  });

  it('throws the sentences of docs/product-rules.md for a refused call and for no answer', async () => {
    browser('a@b.co', () => Response.json({ error: 'The history is unavailable.' }, { status: 500 }));
    expect((await visit('/history')).sentence).toBe('Failed to fetch history: The history is unavailable.');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    browser('a@b.co', () => new TypeError('Failed to fetch'));
    expect((await visit('/history')).sentence).toBe('An error occurred while fetching your history.');
  });
});

describe('requestedPage and modelAnswersFor', () => {
  it('reads ?page=N, 1 for anything else', () => {
    expect(['', '?page=3', '?page=0', '?page=x', '?page=1.5'].map((q) => requestedPage(new URL(`http://x/history${q}`)))).toEqual([
      1, 3, 1, 1, 1,
    ]);
  });
  it('takes the model answers of the set whose index is questionSetIndex + 1', () => {
    const sets = [
      { index: 3, modelAnswers: 'three' },
      { index: 4, modelAnswers: 'four' },
    ] as never[];
    expect(modelAnswersFor({ questionSetIndex: 2 } as never, sets)).toBe('three');
    expect(modelAnswersFor({ questionSetIndex: null } as never, sets)).toBeNull();
  });
});
