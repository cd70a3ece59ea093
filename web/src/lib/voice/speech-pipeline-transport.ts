/**
 * Speech-pipeline transport (docs/speech-pipeline-mode.md): spoken interviews in every browser,
 * with the speech servers the operator chose. A voice-activity detector hands over the answer's
 * audio at every pause, which is written down at once (POST /interview/speech-transcript); the
 * words so far say how long a pause ends the answer (spoken-answer.ts, domain/answer-ending.ts).
 * Then the words go to the interviewer (POST /interview/speech-turn, `spoken`), whose reply's
 * voice plays as it arrives: the turn is asked for in lines, each clip path as soon as its clip
 * exists, so the first sentence plays while the interviewer is still writing the rest. The candidate can talk over the interviewer (playback stops), end an
 * answer at once (endAnswer: the Done button, the Enter key) and can always type instead.
 */
import type { SpeechPipelineToken, SpeechTranscriptResponse, SpeechTurnResponse, TokenResponse } from '../../../../contract';
import { apiUrl } from '../api-base';
import { schedule as browserSchedule, type Cancel, type Schedule } from '../schedule';
import { postSpeechTranscript, postSpeechTurn } from '../session-api';
import { createSpokenAnswer } from './spoken-answer';
import {
  clipList,
  createAudioPlayer,
  startMicrophoneVad,
  type GrowingClipList,
  type AnswerDetector,
  type StartAnswerDetector,
  type VoicePlayer,
} from './speech-pipeline-io';
import type { Connectivity } from './connectivity';
import { createTurnTaking, TURN_FAILED_MESSAGE } from './turn-taking';
import { isReconnectable } from './turn-failure';
import { spokenAfterResume } from './heard-again';
import type { StartOptions, TransportContext, TransportListener, VoiceTransport } from './types';

export const NO_MICROPHONE_NOTICE =
  'The microphone is not available, so spoken answers cannot be heard. Type your answers in the box below and press Send.';
export const NO_VOICE_NOTICE = "The interviewer's voice could not be played. Read the lines on screen.";
export const LISTENING_TEXT = 'Listening…';
export const TRANSCRIBING_TEXT = 'Writing down your answer…';

export interface SpeechPipelineOptions {
  /** Stand-in for the browser's fetch, passed to the shared API client. */
  fetch?: typeof fetch;
  startDetector?: StartAnswerDetector;
  player?: VoicePlayer;
  now?: () => number;
  schedule?: Schedule;
  /** Online/offline and page visibility (the page's own by default). */
  connectivity?: Connectivity;
}

/** A typed answer (or the opening, or a resume's first turn), or a spoken answer's words. */
type Request = { kind: 'text'; utterance?: string; resume?: boolean; typed?: boolean } | { kind: 'spoken'; utterance?: string };

/**
 * A reply's voice that starts before the reply is whole (a streamed turn): its clips as they are
 * told, played from the first; `stopped` once the candidate talked over it or typed.
 */
interface EarlyVoice {
  clips: GrowingClipList;
  playing: Promise<void> | null;
  speaking: boolean;
  stopped: boolean;
  /** Where the candidate cut it off before its text came: the share played of the clips known then. */
  cut: { share: number; known: number } | null;
}

/**
 * Hearing and speaking on top of the turn-taking core (turn-taking.ts): the voice-activity
 * detector hears each answer, the audio player speaks each turn's clips.
 */
export function createSpeechPipelineTransport(
  token: SpeechPipelineToken,
  ctx: TransportContext,
  options: SpeechPipelineOptions = {},
): VoiceTransport {
  const startDetector = options.startDetector ?? startMicrophoneVad;
  const player = options.player ?? createAudioPlayer();
  const now = options.now ?? (() => performance.now());
  const schedule = options.schedule ?? browserSchedule;
  let detector: AnswerDetector | null = null;
  /** The interviewer's last line: what the answer in progress answers. */
  let question = '';

  // A failure also stops the interviewer's voice. A spoken answer in flight is lost: the
  // continuation says the interviewer's last line again, and the candidate answers it again; the
  // core keeps only the typed answers that got no reply.
  const core = createTurnTaking(token, {
    now,
    connectivity: options.connectivity,
    silence: () => {
      stopListening();
      stopVoice();
    },
  });

  /** The reply whose voice plays before its text came, if any. */
  let early: EarlyVoice | null = null;

  /** Stops the interviewer's voice, a reply's that began early too (it does not start again). */
  function stopVoice(): void {
    if (early) early.stopped = true;
    keepHeld();
    player.stop();
  }

  /** A held voice's release, waiting for the candidate to go on after a sound that was not speech (TURN_PAUSE_HELD_MS). */
  let releaseLater: Cancel | null = null;
  function keepHeld(): void {
    releaseLater?.();
    releaseLater = null;
  }

  /** The voice of a streamed reply, played from its first clip as soon as that is told. */
  const earlyVoice = (): EarlyVoice => ({ clips: clipList(), playing: null, speaking: false, stopped: false, cut: null });

  function hear(voice: EarlyVoice, path: string): void {
    voice.clips.add(apiUrl(path));
    if (voice.playing || voice.stopped || core.closed()) return;
    early = voice;
    voice.playing = player.play(voice.clips, {
      started: () => {
        voice.speaking = true;
        core.emit({ type: 'speaking', speaking: true });
      },
      clipFailed: () => core.notice(NO_VOICE_NOTICE),
    });
  }

  /**
   * Through the shared API client: a typed answer, the opening, a resume's first turn or a spoken
   * answer's words. With `voice` the turn comes in lines and its clips play as they are told.
   */
  const send = (request: Request, voice: EarlyVoice | null = null): Promise<SpeechTurnResponse> =>
    core.call((signal) => {
      const body = {
        sessionToken: core.sessionToken(),
        ...(request.utterance === undefined ? {} : { utterance: request.utterance }),
        ...(request.kind === 'text' && request.resume ? { resume: true } : {}),
        ...(request.kind === 'spoken' ? { spoken: true } : {}),
        // Stored with the answer, so it is still shown as typed after a reload.
        ...(request.kind === 'text' && request.typed && request.utterance !== undefined ? { input: 'typed' as const } : {}),
      };
      return postSpeechTurn(ctx.userEmail, body, {
        signal,
        fetch: options.fetch,
        ...(voice ? { onAudio: (path: string) => hear(voice, path) } : {}),
      });
    }, isSpeechTurn);

  /** One piece of the answer written down; a call that fails ends this connection as a turn's would. */
  async function transcribe(wav: ArrayBuffer): Promise<string | null> {
    try {
      const piece = await core.call(
        (signal) => postSpeechTranscript(ctx.userEmail, core.sessionToken(), wav, { signal, fetch: options.fetch }),
        isTranscript,
      );
      return piece.heard;
    } catch (error) {
      core.fail(error instanceof Error ? error.message : TURN_FAILED_MESSAGE, isReconnectable(error));
      return null;
    }
  }

  const answer = createSpokenAnswer({
    pauses: ctx.turnPauses,
    question: () => question,
    transcribe,
    done: (words, lost) => {
      if (!core.open()) return;
      // Nothing heard (a cough taken for speech): no turn. Nothing written down: the apology.
      if (!words && !lost) return core.emit({ type: 'interim', text: '' });
      core.emit({ type: 'interim', text: TRANSCRIBING_TEXT });
      enqueue(words ? { kind: 'spoken', utterance: words } : { kind: 'spoken' }, core.at());
    },
    schedule,
    now,
  });

  /** Plays the turn's clips, or, when they began before the turn was whole, lets them play to the end. */
  async function speak(turn: SpeechTurnResponse, voice: EarlyVoice | null = null): Promise<void> {
    if (voice?.playing) {
      // Every clip was told before the reply; a path not told (none, as the server answers) is added.
      for (const url of turn.audio.map((path) => apiUrl(path))) if (!voice.clips.urls.includes(url)) voice.clips.add(url);
      voice.clips.end();
      if (voice.stopped || core.closed()) {
        if (early === voice) early = null;
        return;
      }
      playingLine = turn.say;
      await voice.playing;
      if (early === voice) early = null;
      if (playingLine === turn.say) playingLine = null;
      if (voice.speaking) core.emit({ type: 'speaking', speaking: false });
      return;
    }
    if (core.closed() || turn.audio.length === 0) return;
    let speaking = false;
    playingLine = turn.say;
    await player.play(
      clipList(
        turn.audio.map((path) => apiUrl(path)),
        true,
      ),
      {
        started: () => {
          speaking = true;
          core.emit({ type: 'speaking', speaking: true });
        },
        clipFailed: () => core.notice(NO_VOICE_NOTICE),
      },
    );
    if (playingLine === turn.say) playingLine = null;
    if (speaking) core.emit({ type: 'speaking', speaking: false });
  }

  /** The interviewer's line whose voice plays now (the transcript marks where the candidate cut it off). */
  let playingLine: string | null = null;
  /** The last line the candidate cut off. */
  let cutLine: string | null = null;

  /**
   * `heard`: after a resume, the line the candidate last heard to its end (not said again).
   * `voice`: the reply's voice when it began before the reply was whole.
   */
  async function handle(
    turn: SpeechTurnResponse,
    answeredAt: number | null,
    heard?: string,
    voice: EarlyVoice | null = null,
  ): Promise<void> {
    if (core.closed()) return;
    if (turn.retry) {
      // Nothing heard (noise) says nothing; an upstream failure apologises and listens again.
      if (turn.say) {
        core.apologise(turn.say);
        await speak(turn, voice);
      }
      return;
    }
    core.apologise('');
    if (turn.heard && answeredAt !== null) core.emit({ type: 'candidate', text: turn.heard, at: answeredAt });
    core.emit({ type: 'interviewer', text: turn.say, at: core.at() });
    question = turn.say;
    if (voice?.cut) {
      // Cut off before its text came: the share played of the clips known then, of the whole line now.
      const share = (voice.cut.share * voice.cut.known) / Math.max(1, turn.audio.length);
      cutLine = turn.say;
      if (share < 1) core.emit({ type: 'cut-off', text: turn.say, cutAt: Math.round(share * turn.say.length) });
    }
    if (turn.closeSession) {
      core.ending();
      stopListening();
      // The controller ends the session about 4 s from now, or once the remark has been heard.
      core.emit({ type: 'close-requested', reason: turn.closeSession.reason });
      await speak(turn, voice);
      core.emit({ type: 'closing-remark-done' });
      return;
    }
    // A repeat of a line heard already: only its first clip, "Welcome back." (the server makes it a
    // part of its own: speechParts), or nothing.
    const again = heard === undefined ? null : spokenAfterResume(turn.say, heard);
    await speak(again?.repeat ? { ...turn, audio: again.text ? turn.audio.slice(0, 1) : [] } : turn, voice);
    // A line the candidate cut off was not heard to its end: a resume says it again.
    if (!core.closed() && cutLine !== turn.say) core.emit({ type: 'heard', text: turn.say });
  }

  /** Answers go to the server one after another, so each reply belongs to its answer. */
  function enqueue(request: Request, answeredAt: number | null): void {
    const voice = earlyVoice();
    core.answer(
      request.utterance || undefined,
      () => send(request, voice),
      (turn) => {
        core.emit({ type: 'interim', text: '' });
        return handle(turn, answeredAt, undefined, voice);
      },
      request.kind === 'text' && request.typed === true,
    );
  }

  function stopListening(): void {
    answer.reset();
    detector?.destroy();
    detector = null;
  }

  async function startListening(): Promise<void> {
    try {
      const opened = await startDetector(
        {
          soundStart: () => {
            if (!core.open()) return;
            // Maybe the candidate talking over the interviewer: hold its voice until the detector knows.
            keepHeld();
            player.hold();
            answer.speechStart();
          },
          speechStart: () => {
            if (!core.open()) return;
            keepHeld();
            // Barge-in: the candidate talks over the interviewer, who stops; the transcript marks
            // about where (the share of the line's audio played), for a line whose text has not
            // come yet once it comes.
            const played = player.played?.() ?? null;
            if (playingLine !== null && played !== null && played < 1) {
              cutLine = playingLine;
              core.emit({ type: 'cut-off', text: playingLine, cutAt: Math.round(played * playingLine.length) });
            } else if (playingLine === null && early?.playing && !early.stopped && played !== null && played < 1) {
              early.cut = { share: played, known: early.clips.urls.length };
            }
            stopVoice();
            core.emit({ type: 'interim', text: LISTENING_TEXT });
          },
          speechEnd: (wav) => {
            if (!core.open()) return;
            answer.speechEnd(wav);
          },
          misfire: () => {
            // Not speech (a cough, or a filler the detector let go): the voice stays held a while
            // for the candidate to go on, as a person pauses when the other makes a sound.
            keepHeld();
            releaseLater = schedule(() => {
              releaseLater = null;
              player.release();
            }, ctx.turnPauses.heldMs);
            answer.misfire();
            if (!answer.active()) core.emit({ type: 'interim', text: '' });
          },
        },
        { pauseMs: ctx.turnPauses.pieceMs },
      );
      if (core.open()) detector = opened;
      else opened.destroy();
    } catch {
      core.notice(NO_MICROPHONE_NOTICE);
    }
  }

  return {
    acceptsTypedAnswers: true,

    async start(
      startToken: TokenResponse,
      onEvent: TransportListener,
      startedAtMs: number,
      startOptions: StartOptions = {},
    ): Promise<void> {
      // A resumed session's first turn picks up from the server's transcript, sending again the
      // typed answer that got no reply before the drop.
      const resumed = startOptions.resumed;
      // A resume's first turn may say again a line heard already (only "Welcome back." of it is
      // played), which is known only from the whole reply: its voice waits for it.
      const voice = resumed ? null : earlyVoice();
      const opening = await core.start(startToken, onEvent, startedAtMs, () =>
        send(
          resumed
            ? { kind: 'text', utterance: resumed.pendingAnswer, resume: true, typed: resumed.pendingTyped === true }
            : { kind: 'text' },
          voice,
        ),
      );
      if (!opening) return;
      // The microphone opens while the greeting plays; the session is active once start() resolves.
      void startListening();
      core.then(() => handle(opening, null, resumed?.heard, voice));
    },

    sendText(text: string): void {
      const typed = text.trim();
      if (!typed || !core.open()) return;
      stopVoice();
      core.emit({ type: 'candidate', text: typed, at: core.at() });
      enqueue({ kind: 'text', utterance: typed, typed: true }, null);
    },

    endAnswer(): void {
      if (!core.open() || !answer.active()) return;
      answer.endNow();
      detector?.flush();
    },

    close(): void {
      if (!core.close()) return;
      stopListening();
      stopVoice();
    },
  };
}

function isTranscript(body: unknown): body is SpeechTranscriptResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { heard } = body as Record<string, unknown>;
  return heard === null || typeof heard === 'string';
}

function isSpeechTurn(body: unknown): body is SpeechTurnResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { say, closeSession, audio, retry, heard } = body as Record<string, unknown>;
  return (
    typeof say === 'string' &&
    (closeSession === null || typeof closeSession === 'object') &&
    Array.isArray(audio) &&
    audio.every((a) => typeof a === 'string') &&
    typeof retry === 'boolean' &&
    (heard === null || typeof heard === 'string')
  );
}
