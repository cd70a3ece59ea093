/** The audio player over a line whose clips arrive while it plays (a streamed turn), with a stand-in for <audio>. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clipList, createAudioPlayer } from './speech-pipeline-io';

/** Records what the player asks of each element; the test says when one plays and ends. */
class FakeAudio {
  static made: FakeAudio[] = [];
  preload = '';
  paused = true;
  currentTime = 0;
  duration = Number.NaN;
  onplaying: (() => void) | null = null;
  onended: (() => void) | null = null;
  onerror: (() => void) | null = null;
  played = 0;
  constructor(public src: string) {
    FakeAudio.made.push(this);
  }
  play(): Promise<void> {
    this.played++;
    this.paused = false;
    queueMicrotask(() => this.onplaying?.());
    return Promise.resolve();
  }
  pause(): void {
    this.paused = true;
  }
  removeAttribute(): void {
    this.src = '';
  }
  end(): void {
    this.onended?.();
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};
const element = (src: string) => FakeAudio.made.find((a) => a.src === src);

afterEach(() => {
  vi.unstubAllGlobals();
  FakeAudio.made = [];
});

describe('audio player', () => {
  it('plays a clip as soon as it is told, asks for the next one while it plays, and ends once the line is ended and played', async () => {
    vi.stubGlobal('Audio', FakeAudio);
    const player = createAudioPlayer();
    const clips = clipList(['/a']);
    const events = { started: vi.fn(), clipFailed: vi.fn() };
    let done = false;
    void player.play(clips, events).then(() => (done = true));
    await settle();
    expect(element('/a')?.played).toBe(1);
    expect(events.started).toHaveBeenCalledTimes(1);
    // Told while /a plays: asked for at once (no gap), played when /a ends.
    clips.add('/b');
    await settle();
    expect(element('/b')).toMatchObject({ preload: 'auto', played: 0 });
    element('/a')?.end();
    await settle();
    expect(element('/b')?.played).toBe(1);
    // The list is not ended: the player waits for a third clip.
    element('/b')?.end();
    await settle();
    expect(done).toBe(false);
    clips.add('/c');
    await settle();
    expect(element('/c')?.played).toBe(1);
    clips.end();
    element('/c')?.end();
    await settle();
    expect(done).toBe(true);
    expect(events.started).toHaveBeenCalledTimes(1);
    expect(events.clipFailed).not.toHaveBeenCalled();
  });

  it('stop() ends a line waiting for its next clip, and a clip told after it is not played', async () => {
    vi.stubGlobal('Audio', FakeAudio);
    const player = createAudioPlayer();
    const clips = clipList(['/a']);
    let done = false;
    void player.play(clips, { started: () => undefined, clipFailed: () => undefined }).then(() => (done = true));
    await settle();
    element('/a')?.end();
    await settle();
    expect(done).toBe(false);
    player.stop();
    await settle();
    expect(done).toBe(true);
    clips.add('/b');
    await settle();
    expect(element('/b')).toBeUndefined();
  });
});
