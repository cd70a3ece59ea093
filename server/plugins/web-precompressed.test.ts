import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/test-app';
import { FIXTURE_SETS } from '../../test-support/fixtures';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

describe('the built web app is served pre-compressed', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>t</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(path.join(dist, 'assets/app.js'), SCRIPT);
    writeFileSync(path.join(dist, 'assets/app.js.gz'), gzipSync(SCRIPT));
    writeFileSync(path.join(dist, 'assets/app.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(path.join(dist, '.build-stamp'), 'digest-of-the-sources\n');
    t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS, deps: { webDist: dist } });
  }, 300_000);
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (encoding?: string) =>
    t.app.inject({ method: 'GET', url: '/assets/app.js', headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends the brotli file to a browser that accepts it', async () => {
    const response = await get('gzip, deflate, br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip file when brotli is not accepted', async () => {
    const response = await get('gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the plain file to a client that accepts no encoding', async () => {
    const response = await get();
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SCRIPT);
  });

  it('does not serve the build stamp (or any dot file) of web/dist', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.build-stamp', headers: { accept: '*/*' } });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('digest-of-the-sources');
  });
});
