/**
 * Lighthouse 12 (mobile: its default emulation and simulated slow 4G) on the first screen, in
 * Debian Chromium, against the real server serving the built app. A logged-out first visit
 * (the email dialog) is what every new user sees.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startBenchServer } from '../lib/processes';

export interface LighthouseResult {
  url: string;
  performance: number;
  accessibility: number;
  metrics: Record<string, string>;
  failedAudits: string[];
  pass: boolean;
  problem?: string;
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
