/**
 * Browser-speech turns with a language model, in Debian Chromium (issue 37 item 2,
 * docs/decisions/034): the real server with the fake language model writing INTERVIEWER_LINE (two
 * sentences) a word every LLM_WORD_GAP_MS; the candidate types each answer (this Chromium cannot
 * recognise speech: its recogniser needs its vendor's service). The page's speechSynthesis is a
 * recorder that says each text in 60 ms a word, so what is timed is when our code asks the
 * browser to speak, not a voice's own start-up.
 *
 * For each answer: answer sent → the first speechSynthesis.speak() of the reply, and answer sent
 * → the whole reply read (the moment the code before ADR 034 began to speak: it spoke the line
 * once the one JSON body was whole).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { startFakeLlmServer } from '../../test-support/fake-llm-server';
import { startBenchServer } from '../lib/processes';
import { INTERVIEWER_LINE, LLM_WORD_GAP_MS } from './speech-pauses';

export interface BrowserSpeechTurnsResult {
  answers: number;
  llmWordGapMs: number;
  /** Answer sent → the reply's first speak() call, per answer. */
  firstVoiceMs: number[];
  /** Answer sent → the whole reply read, per answer. */
  wholeReplyMs: number[];
}

declare global {
  interface Window {
    __turnBench?: { sent: number[]; whole: number[]; spoken: Array<[number, string]> };
  }
}

/** Runs in the page before its scripts: records answers sent, replies read whole and lines spoken. */
function instrument(email: string): void {
  window.localStorage.setItem('userEmail', email);
  const bench = { sent: [] as number[], whole: [] as number[], spoken: [] as Array<[number, string]> };
  window.__turnBench = bench;
  const originalFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const answer = url.includes('/interview/turn') && typeof init?.body === 'string' && init.body.includes('"utterance"');
    if (answer) bench.sent.push(performance.now());
    const response = await originalFetch(input, init);
    if (answer)
      void response
        .clone()
        .text()
        .then(() => bench.whole.push(performance.now()));
    return response;
  };
  window.speechSynthesis.speak = (utterance: SpeechSynthesisUtterance) => {
    bench.spoken.push([performance.now(), utterance.text]);
    const words = utterance.text.split(/\s+/).length;
    setTimeout(() => utterance.onend?.(new Event('end') as SpeechSynthesisEvent), 60 * words);
  };
}

export async function measureBrowserSpeechTurns(log: (line: string) => void, answers = 10): Promise<BrowserSpeechTurnsResult> {
  const llm = await startFakeLlmServer();
  llm.setFallback({ content: INTERVIEWER_LINE, wordGapMs: LLM_WORD_GAP_MS });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-browser-speech-'));
  const server = await startBenchServer({
    dataDir,
    env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'bench-llm', FREE_SESSION_LIMIT: '1000', LOG_LEVEL: 'warn' },
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
  try {
    const email = `browser-speech-turns-${Date.now()}@bench.example`;
    const login = await fetch(`${server.url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    if (!login.ok) throw new Error(`login answered ${login.status}`);
    const page = await browser.newPage();
    await page.addInitScript(instrument, email);
    await page.goto(`${server.url}/`);
    await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
    await page.getByRole('button', { name: 'start session' }).click();
    await page.getByTestId('message-card').first().waitFor({ timeout: 30_000 });
    const box = page.getByLabel('Type your answer');
    for (let i = 0; i < answers; i++) {
      await box.fill(`My answer number ${i + 1}: a closure keeps the variables of its outer scope alive.`);
      await box.press('Enter');
      // The reply read whole; then it is spoken to its end (about 2.5 s at 60 ms a word).
      await page.waitForFunction((n) => (window.__turnBench?.whole.length ?? 0) > n, i, { timeout: 30_000 });
      await page.waitForTimeout(3000);
    }
    const bench = await page.evaluate(() => window.__turnBench);
    if (!bench) throw new Error('the page was not instrumented');
    const firstVoiceMs: number[] = [];
    const wholeReplyMs: number[] = [];
    for (const [i, sent] of bench.sent.entries()) {
      const voice = bench.spoken.find(([at]) => at >= sent)?.[0];
      const whole = bench.whole[i];
      if (voice !== undefined) firstVoiceMs.push(voice - sent);
      if (whole !== undefined) wholeReplyMs.push(whole - sent);
    }
    log(
      `  browser speech: answer sent -> first voice ${firstVoiceMs.map((v) => v.toFixed(0)).join(', ')} ms; -> whole reply ${wholeReplyMs.map((v) => v.toFixed(0)).join(', ')} ms`,
    );
    return { answers: bench.sent.length, llmWordGapMs: LLM_WORD_GAP_MS, firstVoiceMs, wholeReplyMs };
  } finally {
    await browser.close();
    await server.stop();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
