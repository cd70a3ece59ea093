/**
 * The browser's speech APIs behind two small interfaces, so the transport's turn logic can be
 * driven by scripted stand-ins in unit tests. The Web Speech types are declared here because
 * TypeScript's DOM library does not ship SpeechRecognition.
 */

/** Speaks one line; `done(ok)` is called once when it ended (ok) or failed (not ok). */
export interface SpeechOutput {
  speak(text: string, lang: string, done: (ok: boolean) => void): void;
  cancel(): void;
  /** Characters of the line being spoken that were said so far (its last word boundary); null when unknown. */
  spokenChars?(): number | null;
}

export interface RecognitionAlternativeLike {
  readonly transcript: string;
}
export interface RecognitionResultLike {
  readonly isFinal: boolean;
  readonly length: number;
  readonly [index: number]: RecognitionAlternativeLike | undefined;
}
export interface RecognitionResultEventLike {
  readonly resultIndex: number;
  readonly results: { readonly length: number; readonly [index: number]: RecognitionResultLike | undefined };
}
export interface RecognitionErrorEventLike {
  readonly error: string;
}

/** The part of SpeechRecognition / webkitSpeechRecognition the transport uses. */
export interface RecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: RecognitionResultEventLike) => void) | null;
  onerror: ((event: RecognitionErrorEventLike) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
export type RecognitionConstructor = new () => RecognitionLike;

/** The page's recogniser class, standard or prefixed; null where the browser has none (Firefox). */
export function browserRecognition(): RecognitionConstructor | null {
  if (typeof window === 'undefined') return null;
  const w = window as unknown as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/**
 * A voice for the language: an exact match first (en-US), then the same language (en-GB), the
 * browser's default of that language preferred; none leaves the browser's choice.
 */
export function pickVoice(voices: readonly SpeechSynthesisVoice[], lang: string): SpeechSynthesisVoice | null {
  const wanted = lang.toLowerCase().replace('_', '-');
  const base = wanted.split('-')[0] ?? wanted;
  const norm = (v: SpeechSynthesisVoice): string => v.lang.toLowerCase().replace('_', '-');
  const exact = voices.filter((v) => norm(v) === wanted);
  const sameLanguage = voices.filter((v) => norm(v).split('-')[0] === base);
  const pool = exact.length > 0 ? exact : sameLanguage;
  return pool.find((v) => v.default) ?? pool.find((v) => v.localService) ?? pool[0] ?? null;
}

/** speechSynthesis of the page; null where the browser has none. */
export function browserSpeechOutput(): SpeechOutput | null {
  if (typeof window === 'undefined' || !('speechSynthesis' in window) || typeof SpeechSynthesisUtterance === 'undefined') {
    return null;
  }
  const synth = window.speechSynthesis;
  /** The word boundary the line being spoken reached (boundary events; not every voice sends them). */
  let boundary: number | null = null;
  return {
    spokenChars: () => boundary,
    speak(text, lang, done) {
      boundary = null;
      let finished = false;
      const finish = (ok: boolean): void => {
        if (finished) return;
        finished = true;
        done(ok);
      };
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = lang;
      const voice = pickVoice(synth.getVoices(), lang);
      if (voice) utterance.voice = voice;
      utterance.onboundary = (event) => {
        boundary = event.charIndex;
      };
      utterance.onend = () => finish(true);
      utterance.onerror = (event) => finish(event.error === 'interrupted' || event.error === 'canceled');
      try {
        // Chrome can keep a stuck queue from an earlier page or line; start from a clean one.
        if (synth.speaking || synth.pending) synth.cancel();
        synth.speak(utterance);
      } catch {
        finish(false);
      }
    },
    cancel() {
      synth.cancel();
    },
  };
}
