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

/**
 * A spoken answer's audio, checked before anything is sent upstream: a RIFF/WAVE file of linear PCM
 * (8 to 32-bit integers or 32/64-bit floats, 1 or 2 channels, 8 to 48 kHz) whose `fmt ` chunk agrees with itself and whose
 * `data` chunk is not empty. Answers its length in seconds, or null when it is not such a file.
 */
export function pcmWavSeconds(audio: Buffer): number | null {
  if (audio.length < 12 || audio.toString('ascii', 0, 4) !== 'RIFF' || audio.toString('ascii', 8, 12) !== 'WAVE') return null;
  let format: { channels: number; rate: number; byteRate: number; blockAlign: number } | null = null;
  let offset = 12;
  while (offset + 8 <= audio.length) {
    const id = audio.toString('ascii', offset, offset + 4);
    const size = audio.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
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
      if (!sane) return null;
      format = { channels, rate, byteRate, blockAlign };
    }
    if (id === 'data') {
      if (!format) return null;
      // A streamed WAV may announce more (or 0xffffffff) than it holds: what arrived counts.
      const bytes = Math.min(size, audio.length - offset - 8);
      if (bytes <= 0) return null;
      return Math.round((bytes / format.byteRate) * 1000) / 1000;
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}
