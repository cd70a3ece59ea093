/**
 * Audio for the local realtime peer: Opus frames of a soft tone for the interviewer's "voice", and a
 * decoder plus energy detector that turns the candidate's incoming Opus into utterances.
 */
import OpusScript from 'opusscript';

export const SAMPLE_RATE = 48_000;
export const FRAME_MS = 20;
export const FRAME_SAMPLES = (SAMPLE_RATE * FRAME_MS) / 1000;

/** 450 Hz fits exactly 9 periods in 20 ms, so one encoded frame repeats without clicks. */
export function encodeToneFrame(frequency = 450, amplitude = 6000): Buffer {
  const encoder = new OpusScript(SAMPLE_RATE, 1, OpusScript.Application.AUDIO);
  try {
    const pcm = Buffer.alloc(FRAME_SAMPLES * 2);
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      pcm.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE)), i * 2);
    }
    // The first frame of a fresh encoder is a ramp-up; the second is the steady tone we repeat.
    encoder.encode(pcm, FRAME_SAMPLES);
    return Buffer.from(encoder.encode(pcm, FRAME_SAMPLES));
  } finally {
    encoder.delete();
  }
}

export interface VadOptions {
  /** RMS (16-bit PCM) above which a frame counts as speech. */
  threshold: number;
  /** Silence that ends an utterance. */
  silenceGapMs: number;
  /** Shorter bursts (clicks, comfort noise) are not answers. */
  minSpeechMs: number;
}

export const DEFAULT_VAD: VadOptions = { threshold: 400, silenceGapMs: 700, minSpeechMs: 300 };

/**
 * Frame-counting VAD: time is measured in received 20 ms frames, not wall time, so the result does not
 * depend on how busy the machine is.
 */
export class OpusEnergyVad {
  private readonly decoder = new OpusScript(SAMPLE_RATE, 1, OpusScript.Application.VOIP);
  private speechFrames = 0;
  private silenceFrames = 0;
  private inSpeech = false;
  private disposed = false;

  constructor(
    private readonly options: VadOptions,
    private readonly onUtterance: (speechMs: number) => void,
    private readonly onSpeechStarted: () => void = () => undefined,
  ) {}

  push(opusPayload: Buffer): void {
    if (this.disposed || opusPayload.length === 0) return;
    let pcm: Buffer;
    try {
      pcm = this.decoder.decode(opusPayload);
    } catch {
      return;
    }
    this.frame(rms(pcm));
  }

  /** Exposed for unit tests that feed energies directly. */
  frame(energy: number): void {
    if (energy >= this.options.threshold) {
      if (!this.inSpeech) {
        this.inSpeech = true;
        this.speechFrames = 0;
        this.onSpeechStarted();
      }
      this.speechFrames += 1 + this.silenceFrames;
      this.silenceFrames = 0;
      return;
    }
    if (!this.inSpeech) return;
    this.silenceFrames += 1;
    if (this.silenceFrames * FRAME_MS >= this.options.silenceGapMs) {
      const speechMs = this.speechFrames * FRAME_MS;
      this.inSpeech = false;
      this.speechFrames = 0;
      this.silenceFrames = 0;
      if (speechMs >= this.options.minSpeechMs) this.onUtterance(speechMs);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.decoder.delete();
  }
}

function rms(pcm: Buffer): number {
  const samples = Math.floor(pcm.length / 2);
  if (samples === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples; i++) {
    const s = pcm.readInt16LE(i * 2);
    sum += s * s;
  }
  return Math.sqrt(sum / samples);
}
