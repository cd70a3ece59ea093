import { describe, expect, it } from 'vitest';
import { isAbort, upstreamDetail, upstreamErrorMessage } from './plumbing';

describe('upstream plumbing', () => {
  it('reads the message of both error body shapes, and nothing from others', () => {
    expect(upstreamErrorMessage({ error: { message: 'Incorrect API key', code: 'invalid_api_key' } })).toBe('Incorrect API key');
    expect(upstreamErrorMessage({ error: 'model not found' })).toBe('model not found');
    expect(upstreamErrorMessage({ error: { code: 'x' } })).toBeNull();
    expect(upstreamErrorMessage('Bad Gateway')).toBeNull();
    expect(upstreamErrorMessage(null)).toBeNull();
  });

  it('gives the log the error message, else the start of a non-JSON body', async () => {
    expect(await upstreamDetail(new Response(JSON.stringify({ error: { message: 'Quota used up' } }), { status: 429 }))).toBe(
      'Quota used up',
    );
    expect(await upstreamDetail(new Response('<html>Bad Gateway</html>', { status: 502 }))).toBe('<html>Bad Gateway</html>');
    expect(await upstreamDetail(new Response('', { status: 500 }))).toBeUndefined();
  });

  it('tells a timeout or abort from other failures', async () => {
    const signal = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isAbort(signal.reason)).toBe(true);
    expect(isAbort(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isAbort(new TypeError('fetch failed'))).toBe(false);
  });
});
