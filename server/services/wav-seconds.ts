/**
 * Seconds of audio in a WAV file (RIFF: the `fmt ` chunk's byte rate, the `data` chunk's size):
 * the speech pipeline's answers arrive as WAV, and the telemetry counts the audio transcribed.
 * null for anything else (webm, ogg): those are not counted.
 */
export function wavSeconds(audio: Buffer): number | null {
  if (audio.length < 12 || audio.toString('ascii', 0, 4) !== 'RIFF' || audio.toString('ascii', 8, 12) !== 'WAVE') return null;
  let byteRate = 0;
  let offset = 12;
  while (offset + 8 <= audio.length) {
    const id = audio.toString('ascii', offset, offset + 4);
    const size = audio.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= audio.length) byteRate = audio.readUInt32LE(offset + 16);
    if (id === 'data') {
      if (byteRate <= 0) return null;
      // A streamed WAV may announce more (or 0xffffffff) than it holds: count what arrived.
      const bytes = Math.min(size, audio.length - offset - 8);
      return Math.round((bytes / byteRate) * 1000) / 1000;
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}
