import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stampPath, webBuildState, webSourcesDigest } from './web-build-stamp';

let root: string;

function write(relative: string, text: string): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'web-stamp-'));
  write('web/src/main.tsx', 'export const a = 1;');
  write('web/index.html', '<div id="root"></div>');
  write('contract/index.ts', 'export const b = 2;');
  write('domain/tiles.ts', 'export const c = 3;');
  write('package-lock.json', '{}');
  write('server/app.ts', 'export const server = 1;');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('webSourcesDigest', () => {
  it('is the same for the same sources and settings', () => {
    expect(webSourcesDigest(root, { VITE_API_ORIGIN: 'x' })).toBe(webSourcesDigest(root, { VITE_API_ORIGIN: 'x' }));
  });

  it.each([
    ['a web source', 'web/src/main.tsx', 'export const a = 2;'],
    ['a new web file', 'web/src/extra.ts', ''],
    ['the contract', 'contract/index.ts', 'export const b = 3;'],
    ['the domain rules', 'domain/tiles.ts', 'export const c = 4;'],
    ['the dependency versions', 'package-lock.json', '{"v":2}'],
  ])('changes with %s', (_what, file, text) => {
    const before = webSourcesDigest(root, {});
    write(file, text);
    expect(webSourcesDigest(root, {})).not.toBe(before);
  });

  it('changes with a VITE_ build setting but not with other settings', () => {
    const before = webSourcesDigest(root, { PORT: '3000' });
    expect(webSourcesDigest(root, { PORT: '4000' })).toBe(before);
    expect(webSourcesDigest(root, { PORT: '3000', VITE_API_ORIGIN: 'https://api.example' })).not.toBe(before);
  });

  it('ignores the build output, server code and test files', () => {
    const before = webSourcesDigest(root, {});
    write('web/dist/assets/index.js', 'built');
    write('server/app.ts', 'export const server = 2;');
    write('web/src/lib/http.test.ts', 'test');
    expect(webSourcesDigest(root, {})).toBe(before);
  });
});

describe('webBuildState', () => {
  const dist = () => path.join(root, 'web/dist');

  it('is missing without a build, stale without a stamp, fresh with a matching stamp, stale again when sources change', () => {
    const digest = webSourcesDigest(root, {});
    expect(webBuildState(dist(), digest)).toBe('missing');
    write('web/dist/index.html', '<html></html>');
    expect(webBuildState(dist(), digest)).toBe('stale');
    writeFileSync(stampPath(dist()), `${digest}\n`);
    expect(webBuildState(dist(), digest)).toBe('fresh');
    write('web/src/main.tsx', 'export const a = 5;');
    expect(webBuildState(dist(), webSourcesDigest(root, {}))).toBe('stale');
  });

  it('is missing when the stamp is there but the built page is not', () => {
    const digest = webSourcesDigest(root, {});
    write('web/dist/.build-stamp', digest);
    expect(webBuildState(dist(), digest)).toBe('missing');
  });
});
