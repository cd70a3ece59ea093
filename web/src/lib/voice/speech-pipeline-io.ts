/**
 * The speech pipeline's two browser parts behind small interfaces, so the transport's turn logic
 * runs with scripted stand-ins in unit tests:
 * - the microphone with a voice-activity detector (Silero VAD via @ricky0123/vad-web, loaded only
 *   when a pipeline session starts; its model and onnxruntime's WASM are served by us from /vad/,
 *   copied there by web/vite.config.ts), which hands over each answer as a 16 kHz WAV;
 * - a player for the interviewer's audio clips: <audio> elements play a streamed response as its
 *   first bytes arrive, and a line's clips are played as their paths arrive (ClipList).
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

/**
 * The clips of one line, in order, as their paths become known: a streamed turn tells each path as
 * soon as its clip exists, so the first can play before the line is whole.
 */
export interface ClipList {
  readonly urls: readonly string[];
  /** No more clips will be added. */
  readonly ended: boolean;
  /** Resolves at the next add() or end(). */
  changed(): Promise<void>;
}

export interface GrowingClipList extends ClipList {
  add(url: string): void;
  end(): void;
}

export function clipList(urls: readonly string[] = [], ended = false): GrowingClipList {
  const held = [...urls];
  let done = ended;
  let wake: Array<() => void> = [];
  const changed = (): void => {
    for (const resolve of wake) resolve();
    wake = [];
  };
  return {
    urls: held,
    get ended() {
      return done;
    },
    changed: () => (done ? Promise.resolve() : new Promise<void>((resolve) => wake.push(resolve))),
    add(url) {
      if (done) return;
      held.push(url);
      changed();
    },
    end() {
      done = true;
      changed();
    },
  };
}

export interface VoicePlayer {
  /**
   * Plays the clips in order, waiting for the next one while the list is not ended; resolves when
   * the last one ended or failed and the list is ended, or stop() was called.
   */
  play(clips: ClipList, events: ClipEvents): Promise<void>;
  /** Pauses the voice (the candidate may be starting to talk); release() plays on. */
  hold(): void;
  release(): void;
  stop(): void;
  /**
   * How much of the line being played has been heard, 0 to 1 (each clip an equal share of the clips
   * known so far); null when none plays.
   */
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
  /** The clip playing and the line's clips known so far, for played(). */
  let clip: { index: number; urls: readonly string[] } = { index: 0, urls: [] };

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

  /** Wakes a line waiting for its next clip when stop() is called. */
  let interrupt: (() => void) | null = null;

  return {
    async play(clips, events) {
      const mine = ++generation;
      let started = false;
      const stopped = new Promise<void>((resolve) => (interrupt = resolve));
      const urls = clips.urls;
      // The next clip is asked for while the current one plays, so there is no gap between them;
      // a path that arrives during the current clip is asked for at once.
      const elements: HTMLAudioElement[] = [];
      const element = (i: number): HTMLAudioElement | null => {
        const url = urls[i];
        if (url === undefined) return null;
        if (!elements[i]) {
          const made = new Audio(url);
          made.preload = 'auto';
          elements[i] = made;
        }
        return elements[i];
      };
      for (let i = 0; mine === generation; i++) {
        while (urls[i] === undefined && !clips.ended && mine === generation) await Promise.race([clips.changed(), stopped]);
        const playing = mine === generation ? element(i) : null;
        if (!playing) break;
        element(i + 1);
        if (!clips.ended)
          void (async () => {
            while (urls[i + 1] === undefined && !clips.ended && mine === generation) await Promise.race([clips.changed(), stopped]);
            if (mine === generation) element(i + 1);
          })();
        current = playing;
        clip = { index: i, urls };
        const ok = await playOne(playing, () => {
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
      if (!current || clip.urls.length === 0) return null;
      const within = Number.isFinite(current.duration) && current.duration > 0 ? current.currentTime / current.duration : 0;
      return Math.min(1, (clip.index + within) / clip.urls.length);
    },
    stop() {
      generation++;
      interrupt?.();
      interrupt = null;
      current?.pause();
      current?.removeAttribute('src');
      current = null;
      stopCurrent?.();
    },
  };
}
