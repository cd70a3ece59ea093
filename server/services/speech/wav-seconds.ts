/**
 * The sample formats a spoken answer may come in. The web app's voice detector (@ricky0123/vad-web's
 * `encodeWAV`) writes 32-bit IEEE float; integer PCM and WAVE_FORMAT_EXTENSIBLE are what other
 * recorders write. Speech-to-text servers read all three.
 */
const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;

function saneFormat(tag: number, bits: number): boolean {
  if (tag === IEEE_FLOAT) return bits === 32 || bits === 64;
  return (tag === PCM || tag === EXTENSIBLE) && [8, 16, 24, 32].includes(bits);
}

type WavFormat = { byteRate: number };

/** The `fmt ` chunk at `offset`, or null when it does not agree with itself. */
function readFormat(audio: Buffer, offset: number, size: number): WavFormat | null {
  if (size < 16 || offset + 24 > audio.length) return null;
  const tag = audio.readUInt16LE(offset + 8);
  const channels = audio.readUInt16LE(offset + 10);
  const rate = audio.readUInt32LE(offset + 12);
  const byteRate = audio.readUInt32LE(offset + 16);
  const blockAlign = audio.readUInt16LE(offset + 20);
  const bits = audio.readUInt16LE(offset + 22);
  const sane =
    saneFormat(tag, bits) &&
    (channels === 1 || channels === 2) &&
    rate >= 8000 &&
    rate <= 48_000 &&
    blockAlign === (channels * bits) / 8 &&
    byteRate === rate * blockAlign;
  return sane ? { byteRate } : null;
}

/**
 * A spoken answer's audio, checked before anything is sent upstream: a RIFF/WAVE file of linear PCM
 * (8 to 32-bit integers or 32/64-bit floats, 1 or 2 channels, 8 to 48 kHz) with one `fmt ` chunk
 * that agrees with itself, before a `data` chunk that is not empty. Answers its length in seconds,
 * or null when it is not such a file.
 *
 * The length is what a speech server may hear, whatever the chunk sizes claim: every byte from the
 * first `data` chunk's samples to the end of the file. ffmpeg goes on from one `data` chunk to the
 * next, and a streamed WAV may announce more (or 0xffffffff) than it holds, so neither the first
 * chunk's size nor the RIFF size bounds what is decoded (issue 33: 1 s announced, 19 min heard).
 */
export function pcmWavSeconds(audio: Buffer): number | null {
  if (audio.length < 12 || audio.toString('ascii', 0, 4) !== 'RIFF' || audio.toString('ascii', 8, 12) !== 'WAVE') return null;
  let format: WavFormat | null = null;
  let offset = 12;
  while (offset + 8 <= audio.length) {
    const id = audio.toString('ascii', offset, offset + 4);
    const size = audio.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      // A second format could make a decoder read the samples at another rate.
      if (format) return null;
      format = readFormat(audio, offset, size);
      if (!format) return null;
    }
    if (id === 'data') {
      if (!format) return null;
      const bytes = audio.length - offset - 8;
      if (bytes <= 0 || size === 0) return null;
      return Math.round((bytes / format.byteRate) * 1000) / 1000;
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}
