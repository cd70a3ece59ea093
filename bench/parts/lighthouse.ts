/**
 * Lighthouse 12 (mobile: its default emulation and simulated slow 4G) on the first screen, in
 * Debian Chromium, against the real server serving the built app. A logged-out first visit
 * (the email dialog) is what every new user sees.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { call, login } from '../../test-support/fixtures';
import { startBenchServer, type BenchServer } from '../lib/processes';

export interface LighthouseResult {
  url: string;
  performance: number;
  accessibility: number;
  metrics: Record<string, string>;
  failedAudits: string[];
  pass: boolean;
  problem?: string;
  /** History for a candidate with rated interviews: its cumulative layout shift (target ≤ 0.02). */
  history?: { cls: number; interviews: number; pass: boolean };
}

/** The most the History page may shift while it loads (issue: a click landed on the card that had been there). */
export const HISTORY_CLS_TARGET = 0.02;
const HISTORY_EMAIL = 'lighthouse-history@bench.example';
const HISTORY_INTERVIEWS = 4;

/** A candidate with rated interviews, through the product's own calls (login, token, rating). */
async function seedHistory(server: BenchServer): Promise<void> {
  await login(server, HISTORY_EMAIL);
  const sets = (await call<Array<{ id: number; index: number; questions: string[] }>>(server, 'GET', '/api/question-sets')).body;
  const set = sets.find((s) => s.index === 1);
  if (!set) throw new Error('The catalogue has no set 1');
  for (let i = 0; i < HISTORY_INTERVIEWS; i += 1) {
    const token = await call<{ sessionId: string }>(server, 'GET', `/interview/token?questionSetId=${set.id}`, { email: HISTORY_EMAIL });
    const transcripts = set.questions.flatMap((question) => [
      { role: 'interviewer', transcript: question },
      { role: 'interviewee', transcript: 'I would explain it with an example from a project of mine.' },
    ]);
    const rated = await call(server, 'POST', '/interview/rate-transcript', {
      email: HISTORY_EMAIL,
      body: { transcripts, durationSeconds: 300, questionSetId: set.id, sessionId: token.body.sessionId },
    });
    if (rated.status !== 200) throw new Error(`seeding History: rating answered ${rated.status}`);
  }
}

/**
 * Lighthouse on /history of a logged-in candidate: the email is put in the browser's storage
 * first (through the same Chromium), and Lighthouse is told to keep it.
 */
async function historyLayoutShift(server: BenchServer, port: number): Promise<number> {
  await seedHistory(server);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
  await page.goto(`${server.url}/`);
  await page.evaluate((email) => window.localStorage.setItem('userEmail', email), HISTORY_EMAIL);
  await page.close();
  await browser.close();
  const runner = await lighthouse(`${server.url}/history`, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: true,
  });
  const value = runner?.lhr.audits['cumulative-layout-shift']?.numericValue;
  if (typeof value !== 'number') throw new Error('Lighthouse measured no layout shift on History');
  return value;
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function runLighthouse(log: (line: string) => void): Promise<LighthouseResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lh-'));
  const server = await startBenchServer({ dataDir });
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: FLAGS });
  try {
    const url = `${server.url}/`;
    // Lighthouse sometimes fails to record the trace (NO_NAVSTART with this Chromium); that says
    // nothing about the page, so such a run is repeated, up to three in all, and the log says so.
    let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
    for (let attempt = 1; ; attempt += 1) {
      const runner = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      });
      if (!runner?.lhr) throw new Error('Lighthouse returned no report');
      lhr = runner.lhr;
      if (!lhr.runtimeError || attempt === 3) break;
      log(`  lighthouse run ${attempt} could not measure (${lhr.runtimeError.code}); running it again`);
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const metrics: Record<string, string> = {};
    for (const id of [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'cumulative-layout-shift',
      'speed-index',
    ]) {
      metrics[id] = lhr.audits[id]?.displayValue ?? 'n/a';
    }
    const failedAudits = Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          a.scoreDisplayMode !== 'informative' &&
          a.scoreDisplayMode !== 'manual' &&
          a.scoreDisplayMode !== 'notApplicable',
      )
      .map((a) => `${a.id} (${a.displayValue ?? a.score})`);
    const result: LighthouseResult = {
      url,
      performance: score('performance'),
      accessibility: score('accessibility'),
      metrics,
      failedAudits,
      pass: score('performance') >= 95 && score('accessibility') === 100,
      ...(lhr.runtimeError ? { problem: lhr.runtimeError.message } : {}),
    };
    const cls = await historyLayoutShift(server, chrome.port);
    result.history = { cls, interviews: HISTORY_INTERVIEWS, pass: cls <= HISTORY_CLS_TARGET };
    log(`  lighthouse mobile, History: cumulative layout shift ${cls.toFixed(3)} (target ≤ ${HISTORY_CLS_TARGET})`);
    log(
      `  lighthouse mobile: performance ${result.performance}, accessibility ${result.accessibility}; ${Object.entries(metrics)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    if (failedAudits.length > 0) log(`  below 0.9: ${failedAudits.join('; ')}`);
    return result;
  } finally {
    chrome.kill();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
