/** How callApi reports each way a call can end (docs/product-rules.md, Exact texts and where they live needs "server said no" apart from "no answer"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi, serverErrorOf } from './http';
import { postSpeechTurn } from './session-api';

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

describe('postSpeechTurn in lines (callApiInLines)', () => {
  const ndjson = (text: string) => new Response(text, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
  const reply = { heard: null, say: 'Hello. What is a closure?', closeSession: null, audio: ['/interview/speech/a'], retry: false };

  it('asks with Accept, tells each clip path as its line comes and answers the reply of the last line', async () => {
    const calls = answer(ndjson(`{"audio":"/interview/speech/a"}\n{"reply":${JSON.stringify(reply)}}\n`));
    const told: string[] = [];
    const result = await postSpeechTurn('a@b.co', { sessionToken: 'sp_x' }, { onAudio: (path) => told.push(path) });
    expect(result).toEqual({ ok: true, data: reply });
    expect(told).toEqual(['/interview/speech/a']);
    expect(calls[0]?.init?.headers).toMatchObject({ accept: 'application/x-ndjson', 'x-user-email': 'a@b.co' });
  });

  it("a failure's line is the server's sentence with its status; a stream cut before its last line did not get through", async () => {
    answer(
      ndjson(
        '{"audio":"/interview/speech/a"}\n{"error":"This interview session has already finished. Please start a new session.","status":409}\n',
      ),
    );
    expect(await postSpeechTurn('a@b.co', { sessionToken: 'sp_x' }, { onAudio: () => undefined })).toEqual({
      ok: false,
      kind: 'http',
      status: 409,
      message: 'This interview session has already finished. Please start a new session.',
      serverError: 'This interview session has already finished. Please start a new session.',
    });
    answer(ndjson('{"audio":"/interview/speech/a"}\n'));
    expect(await postSpeechTurn('a@b.co', { sessionToken: 'sp_x' }, { onAudio: () => undefined })).toMatchObject({
      ok: false,
      kind: 'network',
    });
  });

  it('reads a plain answer (whole before any clip, or an error status) as callApi does', async () => {
    answer(new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } }));
    expect(await postSpeechTurn('a@b.co', { sessionToken: 'sp_x' }, { onAudio: () => undefined })).toEqual({ ok: true, data: reply });
    answer(new Response(JSON.stringify({ error: 'Unknown session.' }), { status: 404 }));
    expect(await postSpeechTurn('a@b.co', { sessionToken: 'sp_x' }, { onAudio: () => undefined })).toMatchObject({
      ok: false,
      kind: 'http',
      status: 404,
      serverError: 'Unknown session.',
    });
  });
});
