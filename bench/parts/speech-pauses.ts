/**
 * Spoken answers with real pauses, in Debian Chromium (issue 37): the microphone plays answers
 * spoken by espeak-ng with 0.6–1.2 s pauses inside them (after fillers and after words that lead
 * on, where people hesitate), the fake audio server writes down the words said in each upload (a
 * perfect recogniser: the page's own timing of the microphone says which) and answers no sooner
 * than STT_DELAY_MS (its first audio byte after TTS_DELAY_MS), and the interviewer (the
 * fake language model, writing a word every LLM_WORD_GAP_MS) answers every answer with one long
 * line of two sentences, so each next answer starts while it still plays (barge-in).
 *
 * The page taps the microphone's own stream (an analyser on the stream the detector gets), so the
 * candidate's words are timed on the page's clock, apart from any detector:
 * - last word → interviewer's voice: the end of an answer's last word to the next `playing`;
 * - cut off mid-thought: an answer during which (first word to last word) a turn was taken;
 * - barge-in → silence: the first word of an answer spoken over the interviewer to its audio's
 *   pause() for good (after which it did not play again during the answer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { startFakeAudioServer } from '../../test-support/fake-audio-server';
import { startFakeLlmServer } from '../../test-support/fake-llm-server';
import { espeakMp3, spokenWav } from '../../test-support/local-speech';
import { speechParts } from '../../server/services/speech';
import { startBenchServer, type BenchServer } from '../lib/processes';

/** Each answer: text spoken, numbers are seconds of silence inside it. */
export const PAUSED_ANSWERS: Array<Array<string | number>> = [
  ['A closure is um', 0.9, 'a function that remembers the variables of its scope.'],
  ['It keeps the outer variables alive because', 1.1, 'the inner function still refers to them.'],
  ['You can use a closure to make', 0.8, 'private counters and', 0.7, 'small factories of functions.'],
  ['The function and', 1.0, 'the scope it was created in travel together.'],
  ['Well', 0.8, 'a closure captures variables by reference and not by value.'],
  ['In a loop with var every callback sees the', 1.2, 'same variable so they all print the last value.'],
  ['A closure is created every time', 0.6, 'a function is created.'],
  ['I think that', 0.9, 'memory stays in use as long as the closure is reachable.'],
  ['Closures are used for callbacks', 0.7, 'and event handlers in the browser.'],
  ['So', 1.0, 'the garbage collector frees the scope when no closure refers to it.'],
  ['Uh', 0.8, 'module patterns used closures before JavaScript had modules.'],
  ['A closure gives a function access to', 1.1, 'its outer scope even after that scope has returned.'],
];
/** Seconds of silence after each answer: the interviewer's line (about 9 s) is still playing when the next answer starts. */
export const BETWEEN_ANSWERS_S = 6;
/** The interviewer's one line, about 10 s spoken, in two sentences (the first is synthesised while the rest is written). */
export const INTERVIEWER_LINE =
  'Thank you, that was a clear answer. Now tell me again, in your own words and with an example if you can, what a closure in JavaScript is and why it keeps the variables of its outer scope alive?';
/**
 * The fake language model writes a word every this many ms (about 60 tokens a second, a small
 * cloud model's pace), from the first word at once: the figures leave out a real model's time to
 * its first token.
 */
export const LLM_WORD_GAP_MS = 20;
/** The texts of the microphone's stretches of speech, in order. */
const SPOKEN = PAUSED_ANSWERS.flat().filter((part): part is string => typeof part === 'string');

export interface PausedAnswersResult {
  answers: number;
  /** The page's raw timings (page clock, ms), to check the figures by. */
  raw?: NonNullable<Window['__voiceBench']>;
  /** Last word → interviewer audio playing, per answer that got a reply before the next answer began. */
  lastWordToVoiceMs: number[];
  cutOff: number;
  /** The fake language model's pace (ms a word), when it wrote at one. */
  llmWordGapMs?: number;
  /** First word spoken over the interviewer → its audio paused. */
  bargeInMs: number[];
}

/** The microphone's layout for spokenWav: a lead-in, then each answer and the silence after it. */
export function pausedMicSegments(leadInSeconds: number): Array<string | number> {
  return [leadInSeconds, ...PAUSED_ANSWERS.flatMap((answer) => [...answer, BETWEEN_ANSWERS_S]), 60];
}

declare global {
  interface Window {
    __voiceBench?: { loud: Array<[number, number]>; playing: number[]; paused: number[]; turns: number[]; uploads: number[] };
  }
}

/** Runs in the page before its scripts: taps the microphone, records playback, pauses and turn calls. */
function instrument(email: string): void {
  window.localStorage.setItem('userEmail', email);
  const bench = {
    loud: [] as Array<[number, number]>,
    playing: [] as number[],
    paused: [] as number[],
    turns: [] as number[],
    uploads: [] as number[],
  };
  window.__voiceBench = bench;
  const originalFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    // A turn taken on a spoken answer: the whole answer's audio (before), or its words (after).
    const body = typeof init?.body === 'string' ? init.body : '';
    if (url.includes('/interview/speech-answer') || url.includes('/interview/speech-transcript')) bench.uploads.push(performance.now());
    if (url.includes('/interview/speech-answer') || (url.includes('/interview/speech-turn') && body.includes('"utterance"')))
      bench.turns.push(performance.now());
    return originalFetch(input, init);
  };
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    this.addEventListener('playing', () => bench.playing.push(performance.now()));
    return play.call(this);
  };
  const pause = HTMLMediaElement.prototype.pause;
  HTMLMediaElement.prototype.pause = function (this: HTMLMediaElement) {
    if (!this.paused) bench.paused.push(performance.now());
    return pause.call(this);
  };
  const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await getUserMedia(constraints);
    const context = new AudioContext();
    const source = context.createMediaStreamSource(stream);
    const processor = context.createScriptProcessor(512, 1, 1);
    let loudFrom: number | null = null;
    let lastLoud = 0;
    processor.onaudioprocess = (event) => {
      const samples = event.inputBuffer.getChannelData(0);
      let sum = 0;
      for (const s of samples) sum += s * s;
      // On the audio clock (when this buffer was captured), not when the page got round to it:
      // a busy page runs this late, in bursts.
      const stamp = context.getOutputTimestamp();
      const now =
        (stamp.performanceTime ?? performance.now()) +
        (event.playbackTime - (stamp.contextTime ?? context.currentTime) - samples.length / context.sampleRate) * 1000;
      if (Math.sqrt(sum / samples.length) > 0.005) {
        loudFrom ??= now;
        lastLoud = now;
      } else if (loudFrom !== null && now - lastLoud > 150) {
        // Gaps between espeak's words are shorter than 150 ms; a longer one ends a stretch of speech.
        bench.loud.push([loudFrom, lastLoud]);
        loudFrom = null;
      }
    };
    source.connect(processor);
    processor.connect(context.destination);
    return stream;
  };
}

/** Stretches of speech joined where the gap between them is under `gapMs`. */
function joined(loud: Array<[number, number]>, gapMs: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of loud) {
    const last = out.at(-1);
    if (last && from - last[1] < gapMs) last[1] = to;
    else out.push([from, to]);
  }
  return out;
}

/** Stretches of speech into answers: a gap over 2.5 s starts the next answer. */
const answersOf = (loud: Array<[number, number]>): Array<[number, number]> => joined(loud, 2500);

export function pausedAnswerFigures(bench: NonNullable<Window['__voiceBench']>): PausedAnswersResult {
  const answers = answersOf(bench.loud);
  const lastWordToVoiceMs: number[] = [];
  const bargeInMs: number[] = [];
  let cutOff = 0;
  for (const [i, [from, to]] of answers.entries()) {
    const next = answers[i + 1]?.[0] ?? Infinity;
    if (bench.turns.some((t) => t > from + 300 && t < to)) cutOff++;
    const voice = bench.playing.find((p) => p > to && p < next);
    if (voice !== undefined) lastWordToVoiceMs.push(voice - to);
    // Spoken over the interviewer: its audio was playing when the answer began.
    const before = bench.playing.filter((p) => p < from).at(-1);
    const stoppedBefore = bench.paused.some((p) => before !== undefined && p > before && p < from);
    if (before !== undefined && !stoppedBefore && i > 0) {
      // Paused for good: the voice did not play again before the answer ended (a hold released
      // after a sound that was not speech is not a barge-in).
      const stop = bench.paused.find((p) => p >= from && p < to && !bench.playing.some((q) => q > p && q < to));
      if (stop !== undefined) bargeInMs.push(stop - from);
    }
  }
  return { answers: answers.length, lastWordToVoiceMs, cutOff, bargeInMs };
}

/**
 * The microphone's stretches of speech, one per text of SPOKEN: the page splits at gaps over 150 ms
 * (so a stretch has ended by the time its piece is uploaded), which a slow consonant inside a
 * sentence can reach; the pauses between texts are 0.6 s or more, so gaps under 400 ms are joined.
 */
const stretchesOf = (loud: Array<[number, number]>): Array<[number, number]> => joined(loud, 400);

/**
 * The speech-to-text stand-in: a perfect recogniser. The k-th upload's audio ended when the page
 * sent it; the stretches of speech that ended within its length before that are the words in it,
 * written as the corpus writes them.
 */
async function heardIn(page: Page, upload: number, seconds: number): Promise<string> {
  const bench = await page.evaluate(() => window.__voiceBench);
  const sent = bench?.uploads[upload];
  if (!bench || sent === undefined) return '';
  return stretchesOf(bench.loud)
    .map(([, to], i) => ({ to, text: SPOKEN[i] ?? '' }))
    .filter(({ to }) => to <= sent && to >= sent - seconds * 1000 - 200)
    .map(({ text }) => text)
    .join(' ');
}

/** Seconds of a WAV with a 44-byte header (the detector's): data bytes over the byte rate. */
function wavSeconds(bytes: Buffer): number {
  const byteRate = bytes.length >= 44 ? bytes.readUInt32LE(28) : 0;
  return byteRate > 0 ? (bytes.length - 44) / byteRate : 0;
}

export async function runPausedAnswers(
  server: BenchServer,
  micWav: string,
  log: (line: string) => void,
  onPage: (page: Page) => void,
): Promise<PausedAnswersResult> {
  const email = `speech-pauses-${Date.now()}@bench.example`;
  const login = await fetch(`${server.url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!login.ok) throw new Error(`login answered ${login.status}`);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${micWav}`, '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage();
    onPage(page);
    await page.addInitScript(instrument, email);
    await page.goto(`${server.url}/`);
    await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
    await page.getByRole('button', { name: 'start session' }).click();
    const wanted = PAUSED_ANSWERS.length;
    await page.waitForFunction(
      (n) => {
        // The grouping of answersOf, in the page.
        let count = 0;
        let lastEnd = -Infinity;
        for (const [from, to] of window.__voiceBench?.loud ?? []) {
          if (from - lastEnd >= 2500) count++;
          lastEnd = to;
        }
        return count >= n;
      },
      wanted,
      { timeout: 30_000 + wanted * 20_000, polling: 500 },
    );
    // Let the last answer's reply come.
    await page.waitForTimeout(4000);
    const bench = await page.evaluate(() => window.__voiceBench);
    if (!bench) throw new Error('the page was not instrumented');
    const result = { ...pausedAnswerFigures(bench), raw: bench };
    log(
      `  paused answers: ${result.answers} answers, last word -> voice ${result.lastWordToVoiceMs.map((r) => r.toFixed(0)).join(', ')} ms; cut off ${result.cutOff}; barge-in ${result.bargeInMs.map((r) => r.toFixed(0)).join(', ')} ms`,
    );
    return result;
  } finally {
    await browser.close();
  }
}

/**
 * The whole measurement: the fake audio server (pocketsphinx, answering no sooner than
 * `sttDelayMs`; first audio byte after `ttsDelayMs`), the fake language model saying
 * INTERVIEWER_LINE, the real server, Chromium.
 */
export async function measurePausedAnswers(
  options: { sttDelayMs: number; ttsDelayMs: number; env?: Record<string, string> },
  log: (line: string) => void,
): Promise<PausedAnswersResult & { sttMs: number[] }> {
  // Each part of the line as the server splits it for speech, and the whole line for any other text.
  const line = await espeakMp3(INTERVIEWER_LINE, 150);
  const parts = new Map<string, Buffer>();
  for (const part of speechParts(INTERVIEWER_LINE)) parts.set(part, await espeakMp3(part, 150));
  let unknownTexts = 0;
  const sttMs: number[] = [];
  let page: Page | null = null;
  let uploads = 0;
  const audio = await startFakeAudioServer({
    apiKey: null,
    sttModel: 'bench-stt',
    ttsModel: 'bench-tts',
    ttsVoice: 'bench-voice',
    // The words said in the audio; the call takes at least the fixed delay.
    transcribe: async (file) => {
      const started = performance.now();
      const upload = uploads++;
      // The page notes a stretch of speech once 150 ms of silence follow it, which can be just after
      // a piece handed over at a 200 ms pause is sent: it is read near the end of the fixed delay.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, options.sttDelayMs - 60)));
      const text = page ? await heardIn(page, upload, wavSeconds(file.bytes)) : '';
      const took = performance.now() - started;
      if (took < options.sttDelayMs) await new Promise((resolve) => setTimeout(resolve, options.sttDelayMs - took));
      sttMs.push(performance.now() - started);
      return text;
    },
    synthesize: (text) => {
      const known = parts.get(text);
      if (!known) unknownTexts++;
      return known ?? line;
    },
    ttsDelayMs: options.ttsDelayMs,
  });
  const llm = await startFakeLlmServer();
  llm.setFallback({ content: INTERVIEWER_LINE, wordGapMs: LLM_WORD_GAP_MS });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-speech-pauses-'));
  const micDir = mkdtempSync(path.join(tmpdir(), 'bench-speech-pauses-mic-'));
  const server = await startBenchServer({
    dataDir,
    env: {
      ...audio.pipelineSettings,
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'bench-llm',
      FREE_SESSION_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
  try {
    const mic = spokenWav(path.join(micDir, 'mic.wav'), pausedMicSegments(5), { trimSilence: true });
    const result = await runPausedAnswers(server, mic, log, (opened) => (page = opened));
    // Every text the server had spoken should be a part of the line as speechParts splits it.
    if (unknownTexts > 0) log(`  ${unknownTexts} texts to speak were not parts of the line (the whole line was spoken for each)`);
    return { ...result, sttMs, llmWordGapMs: LLM_WORD_GAP_MS };
  } finally {
    await server.stop();
    await audio.close();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(micDir, { recursive: true, force: true });
  }
}
