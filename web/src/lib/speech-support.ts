/**
 * Whether this browser can hear the candidate in the browser-speech mode (docs/product-rules.md,
 * Session lifecycle): without the Web Speech API's recogniser (Firefox) answers are typed, and the
 * candidate is told so before a credit is spent (the welcome dialog, beside the start button).
 */
export function canRecogniseSpeech(): boolean {
  const w = window as unknown as Record<string, unknown>;
  return Boolean(w.SpeechRecognition ?? w.webkitSpeechRecognition);
}

/** A browser-speech interview in a browser that cannot recognise speech: every answer is typed. */
export function answersWillBeTyped(voiceMode: string): boolean {
  return voiceMode === 'browser-speech' && !canRecogniseSpeech();
}

export const TYPED_ANSWERS_NOTICE =
  'This browser cannot recognise speech: you will type your answers. In Chrome, Edge or Safari you can speak them.';

/** The welcome dialog's step about starting, for a browser whose answers will be typed. */
export const TYPED_START_STEP =
  'Press Start Session to begin. This browser cannot recognise speech, so you type your answers and no microphone is used.';
