/**
 * Real speech on this machine for the end-to-end test of the speech pipeline, plugged into the
 * fake audio server (test-support/fake-audio-server.ts):
 * - pocketsphinx (Debian `pocketsphinx` + `pocketsphinx-en-us`) recognises the uploaded answer,
 *   a weak but real offline recogniser;
 * - espeak-ng + ffmpeg synthesise the interviewer's line as mp3, as OpenAI's /audio/speech does;
 * - `spokenWav` makes a microphone recording for Chromium's fake capture device.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** An espeak-ng voice pocketsphinx understands well enough (checked on this machine). */
export const SPEAKING_VOICE = ['-v', 'en-us+klatt2', '-s', '140'];

function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'local-speech-'));
  return fn(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The words pocketsphinx hears in an audio file (any format sox reads), lower case. */
export function pocketsphinxTranscribe(file: { name: string; bytes: Buffer }): Promise<string> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, path.basename(file.name) || 'answer.wav');
    const pcm = path.join(dir, 'answer-16k.wav');
    writeFileSync(input, file.bytes);
    await run('sox', [input, '-r', '16000', '-c', '1', '-b', '16', pcm]);
    const { stdout } = await run('pocketsphinx_continuous', ['-infile', pcm, '-logfn', '/dev/null'], { maxBuffer: 1 << 20 });
    return stdout.replace(/\s+/g, ' ').trim();
  });
}

/** The line spoken by espeak-ng (quickly unless `wordsPerMinute` says otherwise), as mp3 bytes. */
export function espeakMp3(text: string, wordsPerMinute = 260): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const wav = path.join(dir, 'line.wav');
    await run('espeak-ng', ['-v', 'en-us', '-s', String(wordsPerMinute), '-w', wav, text]);
    const { stdout } = await run(
      'ffmpeg',
      ['-loglevel', 'error', '-i', wav, '-codec:a', 'libmp3lame', '-b:a', '48k', '-f', 'mp3', 'pipe:1'],
      {
        encoding: 'buffer',
        maxBuffer: 16 << 20,
      },
    );
    return stdout;
  });
}

/**
 * A 48 kHz mono WAV of `parts`: text is spoken (SPEAKING_VOICE), numbers are seconds of silence
 * (with `trimSilence`, exactly: the silence espeak-ng puts around each sentence is cut).
 * Chromium loops the file, so it should end with a long silence.
 */
export function spokenWav(target: string, parts: Array<string | number>, options: { trimSilence?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'spoken-wav-'));
  try {
    const pieces = parts.map((part, i) => {
      const file = path.join(dir, `${i}.wav`);
      if (typeof part === 'number') execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', file, 'trim', '0', String(part)]);
      else {
        const raw = path.join(dir, `${i}-raw.wav`);
        execFileSync('espeak-ng', [...SPEAKING_VOICE, '-w', raw, part]);
        // espeak-ng pads each clip with silence; trimmed, the numbers are the whole pauses.
        const trim = options.trimSilence ? ['silence', '1', '0.01', '0.1%', 'reverse', 'silence', '1', '0.01', '0.1%', 'reverse'] : [];
        execFileSync('sox', [raw, '-r', '48000', '-c', '1', '-b', '16', file, ...trim]);
      }
      return file;
    });
    execFileSync('sox', [...pieces, target]);
    return target;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
