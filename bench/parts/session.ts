/**
 * Session start: the median time from pressing `start session` to the status leaving
 * `Not Connected` (it reads `Connected`), in Debian Chromium with a fake microphone, against the
 * real server — once with OPENAI_* pointing at the local realtime peer on loopback (WebRTC),
 * once in browser-speech mode. Both timestamps come from the page's own clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { startRealtimePeer, type RealtimePeer } from '../../test-support/realtime-peer/server';
import { startBenchServer, type BenchServer } from '../lib/processes';

export interface SessionResult {
  mode: 'openai-realtime (local peer)' | 'browser-speech';
  runs: number[];
  medianMs: number;
  status: string;
}

declare global {
  interface Window {
    __benchClick?: number;
    __benchConnected?: { at: number; status: string };
  }
}

async function measure(browser: Browser, server: BenchServer, email: string): Promise<{ ms: number; status: string }> {
  const login = await fetch(`${server.url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(m.text()));
    await page.addInitScript((value) => {
      window.localStorage.setItem('userEmail', value);
      document.addEventListener(
        'click',
        (event) => {
          if ((event.target as Element | null)?.closest('button')?.textContent?.includes('start session'))
            window.__benchClick = performance.now();
        },
        true,
      );
      new MutationObserver(() => {
        const status = document.querySelector('[data-testid="status-indicator"]')?.getAttribute('data-status');
        if (window.__benchClick !== undefined && !window.__benchConnected && status && status !== 'Not Connected') {
          window.__benchConnected = { at: performance.now(), status };
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    }, email);
    await page.goto(`${server.url}/`);
    await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
    await page.getByRole('button', { name: 'start session' }).click();
    await page
      .waitForFunction(() => window.__benchConnected !== undefined, undefined, { timeout: 30_000 })
      .catch(async (error: unknown) => {
        const status = await page
          .getByTestId('status-indicator')
          .getAttribute('data-status')
          .catch(() => null);
        throw new Error(
          `no connection (status ${status}, clicked ${await page.evaluate(() => window.__benchClick)}); console: ${consoleLines.slice(-5).join(' | ')}`,
          { cause: error },
        );
      });
    const result = await page.evaluate(() => ({
      ms: (window.__benchConnected?.at ?? NaN) - (window.__benchClick ?? NaN),
      status: window.__benchConnected?.status ?? '',
    }));
    return result;
  } finally {
    await context.close();
  }
}

async function runMode(
  mode: SessionResult['mode'],
  env: Record<string, string>,
  runs: number,
  log: (line: string) => void,
): Promise<SessionResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-session-'));
  const server = await startBenchServer({ dataDir, env });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
  try {
    const times: number[] = [];
    let status = '';
    // One unmeasured start warms the browser's and the server's caches.
    for (let i = 0; i <= runs; i += 1) {
      const result = await measure(browser, server, `session-${i}-${Date.now()}@bench.example`);
      if (i > 0) times.push(result.ms);
      status = result.status;
    }
    const sorted = [...times].sort((a, b) => a - b);
    const medianMs = sorted[Math.floor(sorted.length / 2)] ?? NaN;
    log(`  ${mode}: median ${medianMs.toFixed(0)} ms to "${status}" (runs ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
    return { mode, runs: times, medianMs, status };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runSession(log: (line: string) => void, runs = 7): Promise<SessionResult[]> {
  const results: SessionResult[] = [];
  let peer: RealtimePeer | null = null;
  try {
    peer = await startRealtimePeer({ apiKey: 'bench-key' });
    results.push(await runMode('openai-realtime (local peer)', { OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: peer.baseUrl }, runs, log));
  } finally {
    await peer?.close();
  }
  results.push(await runMode('browser-speech', {}, runs, log));
  return results;
}
