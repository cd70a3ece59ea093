/**
 * The speech pipeline's two browser parts behind small interfaces, so the transport's turn logic
 * runs with scripted stand-ins in unit tests:
 * - the microphone with a voice-activity detector (Silero VAD via @ricky0123/vad-web, loaded only
 *   when a pipeline session starts; its model and onnxruntime's WASM are served by us from /vad/,
 *   copied there by web/vite.config.ts), which hands over each answer as a 16 kHz WAV;
 * - a player for the interviewer's audio clips: <audio> elements play a streamed response as its
 *   first bytes arrive.
 */

export interface AnswerEvents {
  /** Something that may be speech began (the first frame the detector takes for a voice). */
  soundStart(): void;
  /** Real speech started (not a click or a cough): the candidate is talking. */
  speechStart(): void;
  /** The candidate paused: the audio since the last pause as WAV. */
  speechEnd(wav: ArrayBuffer): void;
  /** What looked like speech was too short to be an answer. */
  misfire(): void;
}

export interface AnswerDetector {
  /** Hands over the speech heard so far now (speechEnd), as if the candidate had paused. */
  flush(): void;
  /** Stops listening for good and switches the microphone off. */
  destroy(): void;
}

/** `pauseMs`: the silence after which the detector hands over the speech so far. */
export type StartAnswerDetector = (events: AnswerEvents, options: { pauseMs: number }) => Promise<AnswerDetector>;

export interface ClipEvents {
  /** The first clip started to play (audio is coming out). */
  started(): void;
  /** A clip could not be played (its synthesis failed, or the browser refused it). */
  clipFailed(): void;
}

export interface VoicePlayer {
  /** Plays the clips in order; resolves when the last one ended, failed, or stop() was called. */
  play(urls: string[], events: ClipEvents): Promise<void>;
  /** Pauses the voice (the candidate may be starting to talk); release() plays on. */
  hold(): void;
  release(): void;
  stop(): void;
  /** How much of the line being played has been heard, 0 to 1 (each clip an equal share); null when none plays. */
  played?(): number | null;
}

/** Shorter bursts are noise, not answers. */
export const MIN_ANSWER_SPEECH_MS = 300;

/** Where the VAD's worklet, model and onnxruntime's WASM are served (see web/vite.config.ts). */
export function vadAssetBase(): string {
  return `${import.meta.env.BASE_URL}vad/`;
}

export const startMicrophoneVad: StartAnswerDetector = async (events, { pauseMs }) => {
  const { MicVAD, utils } = await import('@ricky0123/vad-web');
  const base = vadAssetBase();
  const vad = await MicVAD.new({
    model: 'v5',
    baseAssetPath: base,
    onnxWASMBasePath: base,
    // Every pause this long hands over the speech so far, to be written down while the candidate
    // is silent; how long a pause ends the answer is decided from the words (spoken-answer.ts).
    redemptionMs: pauseMs,
    submitUserSpeechOnPause: true,
    minSpeechMs: MIN_ANSWER_SPEECH_MS,
    preSpeechPadMs: 300,
    startOnLoad: true,
    // Echo cancellation keeps the interviewer's own voice (from loudspeakers) out of the answers.
    getStream: () =>
      navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      }),
    ortConfig: (ort) => {
      ort.env.logLevel = 'error';
      // No cross-origin isolation here, so no WASM threads; one thread is plenty for 32 ms frames.
      ort.env.wasm.numThreads = 1;
    },
    // flush() pauses and restarts the detector to hand over the speech so far; the microphone stays open.
    pauseStream: async () => undefined,
    resumeStream: async (stream) => stream,
    onSpeechStart: () => events.soundStart(),
    onSpeechRealStart: () => events.speechStart(),
    onSpeechEnd: (audio) => events.speechEnd(utils.encodeWAV(audio)),
    onVADMisfire: () => events.misfire(),
  });
  return {
    flush: () => void vad.pause().then(() => vad.start()),
    destroy: () => void vad.destroy(),
  };
};

export function createAudioPlayer(): VoicePlayer {
  let current: HTMLAudioElement | null = null;
  let stopCurrent: (() => void) | null = null;
  let generation = 0;
  /** The clip playing and how many the line has, for played(). */
  let clip = { index: 0, count: 0 };

  function playOne(element: HTMLAudioElement, onPlaying: () => void): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (ok: boolean) => {
        if (settled) return;
        settled = true;
        stopCurrent = null;
        resolve(ok);
      };
      stopCurrent = () => finish(true);
      element.onplaying = onPlaying;
      element.onended = () => finish(true);
      element.onerror = () => finish(false);
      element.play().catch(() => finish(false));
    });
  }

  return {
    async play(urls, events) {
      const mine = ++generation;
      let started = false;
      // The next clip is asked for while the current one plays, so there is no gap between them.
      let next: HTMLAudioElement | null = urls[0] ? new Audio(urls[0]) : null;
      for (let i = 0; i < urls.length && next && mine === generation; i++) {
        const element: HTMLAudioElement = next;
        next = urls[i + 1] ? new Audio(urls[i + 1]) : null;
        if (next) next.preload = 'auto';
        current = element;
        clip = { index: i, count: urls.length };
        const ok = await playOne(element, () => {
          if (started) return;
          started = true;
          events.started();
        });
        if (!ok && mine === generation) events.clipFailed();
      }
      if (mine === generation) current = null;
    },
    hold() {
      current?.pause();
    },
    release() {
      if (current?.paused && current.src) current.play().catch(() => undefined);
    },
    played() {
      if (!current || clip.count === 0) return null;
      const within = Number.isFinite(current.duration) && current.duration > 0 ? current.currentTime / current.duration : 0;
      return Math.min(1, (clip.index + within) / clip.count);
    },
    stop() {
      generation++;
      current?.pause();
      current?.removeAttribute('src');
      current = null;
      stopCurrent?.();
    },
  };
}
