import { utils as vadUtils } from '@ricky0123/vad-web';
import { describe, expect, it } from 'vitest';
import { pcmWav } from '../../../test-support/pcm-wav';
import { pcmWavSeconds } from './wav-seconds';

/** `wav` with a LIST chunk between `fmt ` and `data`, as some recorders write. */
function withListChunk(wav: Buffer): Buffer {
  const list = Buffer.concat([Buffer.from('LIST', 'ascii'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0', 'ascii')]);
  return Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
}

describe('pcmWavSeconds', () => {
  it('reads the length of an integer PCM WAV, past other chunks', () => {
    expect(pcmWavSeconds(pcmWav(1.5))).toBe(1.5);
    expect(pcmWavSeconds(withListChunk(pcmWav(0.5)))).toBe(0.5);
    expect(pcmWavSeconds(pcmWav(2, 48_000))).toBe(2);
  });

  it("reads the web app's own recordings: 32-bit float from the voice detector's encoder", () => {
    expect(pcmWavSeconds(Buffer.from(vadUtils.encodeWAV(new Float32Array(24_000))))).toBe(1.5);
  });

  it('counts what arrived when a streamed WAV announces more than it holds', () => {
    const wav = pcmWav(1);
    wav.writeUInt32LE(0xffffffff, 40);
    expect(pcmWavSeconds(wav)).toBe(1);
  });

  it('answers null for what is not a sane PCM WAV', () => {
    expect(pcmWavSeconds(Buffer.from('OggS0000000000000000'))).toBeNull();
    expect(pcmWavSeconds(Buffer.alloc(4))).toBeNull();
    const lyingRate = pcmWav(1);
    lyingRate.writeUInt32LE(1, 28);
    expect(pcmWavSeconds(lyingRate)).toBeNull();
    const compressed = pcmWav(1);
    compressed.writeUInt16LE(0x55, 20);
    expect(pcmWavSeconds(compressed)).toBeNull();
    // A float format with integer-sized samples.
    const floatOf16Bits = pcmWav(1);
    floatOf16Bits.writeUInt16LE(3, 20);
    expect(pcmWavSeconds(floatOf16Bits)).toBeNull();
    const tooFast = pcmWav(1, 96_000);
    expect(pcmWavSeconds(tooFast)).toBeNull();
    expect(pcmWavSeconds(pcmWav(0))).toBeNull();
  });
});

/** `wav` followed by a second `data` chunk of `bytes` more samples (issue 33: ffmpeg plays both). */
function withSecondDataChunk(wav: Buffer, bytes: number): Buffer {
  const header = Buffer.alloc(8);
  header.write('data', 0, 'ascii');
  header.writeUInt32LE(bytes, 4);
  return Buffer.concat([wav, header, Buffer.alloc(bytes, 0x11)]);
}

describe('pcmWavSeconds counts what a speech server may hear', () => {
  it('counts every byte after the first data chunk, a second data chunk included', () => {
    // 1 s announced, 2 s more in a second chunk (32,000 bytes a second), 8 bytes of its header.
    expect(pcmWavSeconds(withSecondDataChunk(pcmWav(1), 64_000))).toBe(3);
    expect(pcmWavSeconds(withSecondDataChunk(pcmWav(1), 9 * 1024 * 1024))).toBeGreaterThan(290);
  });

  it('refuses a second fmt chunk', () => {
    const wav = pcmWav(1);
    const fmt = wav.subarray(12, 36);
    expect(pcmWavSeconds(Buffer.concat([wav.subarray(0, 36), fmt, wav.subarray(36)]))).toBeNull();
  });
});
