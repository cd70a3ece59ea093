/** How callApi reports each way a call can end (docs/product-rules.md, Exact texts and where they live needs "server said no" apart from "no answer"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi, serverErrorOf } from './http';

afterEach(() => vi.unstubAllGlobals());

function answer(response: Response | Error) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (response instanceof Error) throw response;
    return response;
  });
  return calls;
}

describe('callApi', () => {
  it('sends JSON with the headers given and answers the typed body', async () => {
    const calls = answer(new Response(JSON.stringify({ id: 7 }), { status: 201 }));
    const result = await callApi<{ id: number }>('/user/feedback', {
      method: 'POST',
      body: { a: 1 },
      headers: { 'x-user-email': 'a@b.co' },
    });
    expect(result).toEqual({ ok: true, data: { id: 7 } });
    expect(calls[0]?.url).toBe('/user/feedback');
    expect(calls[0]?.init).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'x-user-email': 'a@b.co', 'content-type': 'application/json' },
    });
  });

  it('sends a body as it is when the caller gives its content type (a spoken answer)', async () => {
    const calls = answer(new Response(JSON.stringify({ ok: 1 }), { status: 200 }));
    const wav = new ArrayBuffer(44);
    const result = await callApi('/interview/speech-answer', { method: 'POST', body: wav, headers: { 'content-type': 'audio/wav' } });
    expect(result).toEqual({ ok: true, data: { ok: 1 } });
    expect(calls[0]?.init?.body).toBe(wav);
    expect(calls[0]?.init?.headers).toEqual({ 'content-type': 'audio/wav' });
  });

  it("gives the server's {error} sentence, or the status text when there is none", async () => {
    answer(new Response(JSON.stringify({ error: 'We do not know this email yet.' }), { status: 401, statusText: 'Unauthorized' }));
    expect(await callApi('/user/ratings')).toEqual({
      ok: false,
      kind: 'http',
      status: 401,
      message: 'We do not know this email yet.',
      serverError: 'We do not know this email yet.',
    });
    answer(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(await callApi('/user/ratings')).toEqual({ ok: false, kind: 'http', status: 502, message: 'Bad Gateway', serverError: null });
  });

  it('tells a call that got no answer from a success whose body is not JSON', async () => {
    answer(new TypeError('Failed to fetch'));
    expect(await callApi('/api/config')).toMatchObject({ ok: false, kind: 'network' });
    answer(new Response('<html>captive portal</html>', { status: 200 }));
    expect(await callApi('/api/config')).toMatchObject({ ok: false, kind: 'invalid', status: 200 });
  });
});

describe('serverErrorOf', () => {
  it('reads only a non-empty string error', () => {
    expect(serverErrorOf({ error: 'No.' })).toBe('No.');
    expect(serverErrorOf({ error: '' })).toBeNull();
    expect(serverErrorOf({ error: { message: 'x' } })).toBeNull();
    expect(serverErrorOf(null)).toBeNull();
    expect(serverErrorOf('error')).toBeNull();
  });
});
