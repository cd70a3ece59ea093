import { describe, expect, it } from 'vitest';
import type { RecognitionErrorEventLike, RecognitionLike, RecognitionResultEventLike } from './browser-speech-io';
import { createListeningLoop } from './listening-loop';

class FakeRecognizer implements RecognitionLike {
  static last: FakeRecognizer | null = null;
  continuous = false;
  interimResults = false;
  lang = '';
  onresult: ((event: RecognitionResultEventLike) => void) | null = null;
  onerror: ((event: RecognitionErrorEventLike) => void) | null = null;
  onend: (() => void) | null = null;
  starts = 0;
  constructor() {
    FakeRecognizer.last = this;
  }
  start() {
    this.starts++;
  }
  stop() {}
  abort() {}
  say(...words: string[]) {
    this.onresult?.({ resultIndex: 0, results: words.map((transcript) => ({ isFinal: false, length: 1, 0: { transcript } })) });
  }
}

function loop() {
  const timers: Array<{ fn: () => void; cancelled: boolean }> = [];
  const heard = { interim: [] as string[], answers: [] as string[], unusable: 0 };
  const ears = createListeningLoop({
    Recognition: FakeRecognizer,
    lang: 'en-US',
    pauseMs: () => 2500,
    schedule: (fn) => {
      const timer = { fn, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
    onInterim: (text) => heard.interim.push(text),
    onAnswer: (text) => heard.answers.push(text),
    onUnusable: () => heard.unusable++,
  });
  const firePause = () => timers.filter((t) => !t.cancelled).forEach((t) => t.fn());
  return { ears, heard, firePause, recognizer: () => FakeRecognizer.last! };
}

describe('listening loop', () => {
  it('keeps the words across a recogniser restart and hands the answer on after the pause', () => {
    const { ears, heard, firePause, recognizer } = loop();
    ears.listen();
    recognizer().say('closures keep');
    recognizer().onend?.();
    expect(recognizer().starts).toBe(2);
    recognizer().say('their scope');
    expect(heard.interim).toEqual(['closures keep', 'closures keep their scope']);
    firePause();
    expect(heard.answers).toEqual(['closures keep their scope']);
  });

  it('forgets the answer in progress when stopped, and hears nothing until told to listen', () => {
    const { ears, heard, firePause, recognizer } = loop();
    ears.listen();
    recognizer().say('half an answer');
    ears.stop();
    firePause();
    recognizer().say('ignored');
    expect(heard.answers).toEqual([]);
    expect(heard.interim).toEqual(['half an answer']);
  });

  it('gives up for good on a fatal recogniser error, but not on a routine one', () => {
    const { ears, heard, recognizer } = loop();
    ears.listen();
    recognizer().onerror?.({ error: 'no-speech' });
    expect(heard.unusable).toBe(0);
    recognizer().onerror?.({ error: 'not-allowed' });
    expect(heard.unusable).toBe(1);
    const starts = recognizer().starts;
    ears.listen();
    expect(recognizer().starts).toBe(starts);
  });
});
