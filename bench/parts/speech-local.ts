/**
 * Issue 37 item 5: the paused-answers run (speech-pauses.ts) once more with a real local
 * text-to-speech server (bench/local-speech/piper_tts_server.py: piper-tts and a voice from PyPI,
 * MP3 by ffmpeg as it is synthesised) in place of the fake's fixed 200 ms to the first byte; the
 * recogniser stays the fake (no local speech-to-text fits here yet). Only with
 * `npm run bench -- --only=speech --local-tts=PYTHON` (a Python with bench/local-speech/requirements.txt):
 * never in CI.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../lib/processes';
import { measurePausedAnswers, type PausedAnswersResult } from './speech-pauses';

export type LocalTtsResult = PausedAnswersResult & { sttMs: number[]; tts: string };

async function startPiper(python: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(python, [path.join(ROOT, 'bench/local-speech/piper_tts_server.py'), '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\d+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the piper server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/v1`, stop: () => void child.kill('SIGTERM') };
}

export async function measureWithLocalTts(python: string, sttDelayMs: number, log: (line: string) => void): Promise<LocalTtsResult> {
  const piper = await startPiper(python);
  try {
    log('  with a local text-to-speech server (piper, en_US-joe-medium):');
    const result = await measurePausedAnswers(
      { sttDelayMs, ttsDelayMs: 0, env: { TTS_BASE_URL: piper.url, TTS_MODEL: 'piper', TTS_VOICE: 'joe' } },
      log,
    );
    return { ...result, tts: 'piper-tts 1.8.0, en_US-joe-medium, MP3 64 kb/s by ffmpeg' };
  } finally {
    piper.stop();
  }
}
