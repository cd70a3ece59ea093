import { describe, expect, it } from 'vitest';
import { wavSeconds } from './wav-seconds';

/** A PCM WAV of `samples` 16-bit mono samples at `rate` Hz. */
function wav(samples: number, rate = 16_000, extraChunk = false): Buffer {
  const data = Buffer.alloc(samples * 2);
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(1, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE(rate * 2, 16);
  fmt.writeUInt16LE(2, 20);
  fmt.writeUInt16LE(16, 22);
  const list = extraChunk
    ? Buffer.concat([Buffer.from('LIST', 'ascii'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0', 'ascii')])
    : Buffer.alloc(0);
  const header = Buffer.alloc(8);
  header.write('data', 0, 'ascii');
  header.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), fmt, list, header, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

describe('wavSeconds', () => {
  it('reads the length of a PCM WAV, past other chunks', () => {
    expect(wavSeconds(wav(24_000))).toBe(1.5);
    expect(wavSeconds(wav(8_000, 16_000, true))).toBe(0.5);
  });

  it('answers null for what is not a WAV', () => {
    expect(wavSeconds(Buffer.from('OggS0000000000000000'))).toBeNull();
    expect(wavSeconds(Buffer.alloc(4))).toBeNull();
  });
});
