/** The result → data-or-sentence helper, driven through a real data router (ARCHITECTURE.md, "How a screen gets its data"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import type { ApiResult } from './http';
import { dataOr, loadData, routeErrorSentence, submitData, type FailureTexts } from './load-data';

const texts: FailureTexts = {
  http: (message) => `Failed to fetch history: ${message}`,
  network: 'An error occurred.',
  log: 'History request failed:',
};
const ok: ApiResult<number> = { ok: true, data: 7 };
const http: ApiResult<number> = {
  ok: false,
  kind: 'http',
  status: 500,
  message: 'The history is unavailable.',
  serverError: 'The history is unavailable.',
};
const network: ApiResult<number> = { ok: false, kind: 'network', error: new TypeError('Failed to fetch') };
const invalid: ApiResult<number> = { ok: false, kind: 'invalid', status: 200, error: new SyntaxError('Unexpected token') };

afterEach(() => vi.restoreAllMocks());

/** Runs `loader` as the only route of a memory router and answers what the route would render. */
async function route(loader: () => Promise<unknown>) {
  const router = createMemoryRouter([{ id: 'page', path: '/', loader, Component: () => null }]);
  await vi.waitFor(() => expect(router.state.initialized).toBe(true));
  const error = router.state.errors?.page;
  router.dispose();
  return { data: router.state.loaderData.page as unknown, error, sentence: routeErrorSentence(error) };
}

describe('loadData', () => {
  it('gives the data of a successful call', async () => {
    expect(await route(() => loadData(Promise.resolve(ok), texts))).toMatchObject({ data: 7, error: undefined });
  });

  it("throws an {error} response with the server's sentence and the call's status", async () => {
    const { error, sentence } = await route(() => loadData(Promise.resolve(http), texts));
    expect(sentence).toBe('Failed to fetch history: The history is unavailable.');
    expect(error).toMatchObject({ status: 500, data: { error: sentence } });
  });

  it('throws the network sentence (status 503) and logs the cause when no usable answer came', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const failure of [network, invalid]) {
      const { error, sentence } = await route(() => loadData(Promise.resolve(failure), texts));
      expect(sentence).toBe('An error occurred.');
      expect(error).toMatchObject({ status: 503 });
    }
    expect(log).toHaveBeenCalledWith('History request failed:', expect.any(TypeError));
    expect(log).toHaveBeenCalledWith('History request failed:', expect.any(SyntaxError));
  });

  it('gives no sentence for an unexpected error (the fallback screen shows it)', async () => {
    const { sentence, error } = await route(() => Promise.reject(new Error('bug')));
    expect(error).toBeInstanceOf(Error);
    expect(sentence).toBeNull();
  });
});

describe('submitData', () => {
  it('answers the data or the sentence to show next to the form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await submitData(Promise.resolve(ok), texts)).toEqual({ ok: true, data: 7 });
    expect(await submitData(Promise.resolve(http), texts)).toEqual({
      ok: false,
      error: 'Failed to fetch history: The history is unavailable.',
    });
    expect(await submitData(Promise.resolve(network), texts)).toEqual({ ok: false, error: 'An error occurred.' });
  });
});

describe('dataOr', () => {
  it('answers the fallback for any failure and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await dataOr(Promise.resolve(ok), 0, 'x')).toBe(7);
    expect(await dataOr(Promise.resolve(http), 0, 'Could not load the app settings:')).toBe(0);
    expect(log).toHaveBeenCalledWith('Could not load the app settings:', '500 The history is unavailable.');
    expect(await dataOr(Promise.resolve(network), 0, 'x')).toBe(0);
  });
});

describe('texts without a console label (the admin pages)', () => {
  const quiet: FailureTexts = {
    http: (message, failure) => `Failed to create email: ${failure.serverError ?? 'Could not create email.'} (${message})`,
    network: 'An error occurred while creating the email.',
  };

  it('log nothing, and the http sentence may use the whole failure', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const noBody: ApiResult<number> = { ok: false, kind: 'http', status: 500, message: 'Internal Server Error', serverError: null };
    expect(await submitData(Promise.resolve(noBody), quiet)).toEqual({
      ok: false,
      error: 'Failed to create email: Could not create email. (Internal Server Error)',
    });
    expect(await submitData(Promise.resolve(network), quiet)).toEqual({ ok: false, error: 'An error occurred while creating the email.' });
    expect(await dataOr(Promise.resolve(network), 0, null)).toBe(0);
    expect(log).not.toHaveBeenCalled();
  });
});
