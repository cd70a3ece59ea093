/**
 * A speech WAV for Chromium's fake microphone (`--use-file-for-fake-audio-capture`), made at test
 * time with espeak-ng + sox: one spoken answer followed by silence, so the looping file yields a
 * sequence of separate utterances for the peer's voice detector.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function makeSpeechWav(text = 'I would use a hash map, and test the edge cases.', silenceSeconds = 1.5): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'realtime-speech-'));
  const raw = path.join(dir, 'speech-raw.wav');
  const out = path.join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', raw, text]);
  // 48 kHz mono 16-bit, as Chromium's capture path expects; the padding is the pause between answers.
  execFileSync('sox', [raw, '-r', '48000', '-c', '1', '-b', '16', out, 'pad', '0', String(silenceSeconds)]);
  return out;
}
