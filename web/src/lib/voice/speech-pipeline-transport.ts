/**
 * Speech-pipeline transport (docs/speech-pipeline-mode.md): spoken interviews in every browser,
 * with the speech servers the operator chose. The browser finds where each answer ends with a
 * voice-activity detector and sends its audio (POST /interview/speech-answer); the server
 * transcribes it, asks the interviewer and streams the reply's voice, which plays as it arrives.
 * The candidate can talk over the interviewer (playback stops) and can always type instead.
 */
import type { SpeechPipelineToken, SpeechTurnResponse, TokenResponse } from '../../../../contract';
import { apiUrl } from '../api-base';
import { postSpeechAnswer, postSpeechTurn } from '../session-api';
import {
  createAudioPlayer,
  startMicrophoneVad,
  type AnswerDetector,
  type StartAnswerDetector,
  type VoicePlayer,
} from './speech-pipeline-io';
import type { Connectivity } from './connectivity';
import { createTurnTaking } from './turn-taking';
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
  /** Online/offline and page visibility (the page's own by default). */
  connectivity?: Connectivity;
}

type Request = { kind: 'text'; utterance?: string; resume?: boolean } | { kind: 'audio'; wav: ArrayBuffer };

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
  let detector: AnswerDetector | null = null;

  // A failure also stops the interviewer's voice. A spoken answer in flight is lost: the
  // continuation says the interviewer's last line again, and the candidate answers it again; the
  // core keeps only the typed answers that got no reply.
  const core = createTurnTaking(token, {
    now: options.now,
    connectivity: options.connectivity,
    silence: () => {
      stopListening();
      player.stop();
    },
  });

  /** Through the shared API client: a typed answer (or the opening) as JSON, a spoken one as its WAV. */
  const send = (request: Request): Promise<SpeechTurnResponse> =>
    core.call((signal) => {
      const callOptions = { signal, fetch: options.fetch };
      if (request.kind === 'audio') return postSpeechAnswer(ctx.userEmail, core.sessionToken(), request.wav, callOptions);
      const body = {
        sessionToken: core.sessionToken(),
        ...(request.utterance === undefined ? {} : { utterance: request.utterance }),
        ...(request.resume ? { resume: true } : {}),
      };
      return postSpeechTurn(ctx.userEmail, body, callOptions);
    }, isSpeechTurn);

  async function speak(turn: SpeechTurnResponse): Promise<void> {
    if (core.closed() || turn.audio.length === 0) return;
    let speaking = false;
    await player.play(
      turn.audio.map((path) => apiUrl(path)),
      {
        started: () => {
          speaking = true;
          core.emit({ type: 'speaking', speaking: true });
        },
        clipFailed: () => core.notice(NO_VOICE_NOTICE),
      },
    );
    if (speaking) core.emit({ type: 'speaking', speaking: false });
  }

  async function handle(turn: SpeechTurnResponse, answeredAt: number | null): Promise<void> {
    if (core.closed()) return;
    if (turn.retry) {
      // Nothing heard (noise) says nothing; an upstream failure apologises and listens again.
      if (turn.say) {
        core.apologise(turn.say);
        await speak(turn);
      }
      return;
    }
    core.apologise('');
    if (turn.heard && answeredAt !== null) core.emit({ type: 'candidate', text: turn.heard, at: answeredAt });
    core.emit({ type: 'interviewer', text: turn.say, at: core.at() });
    if (turn.closeSession) {
      core.ending();
      stopListening();
      // The controller ends the session about 4 s from now, or once the remark has been heard.
      core.emit({ type: 'close-requested', reason: turn.closeSession.reason });
      await speak(turn);
      core.emit({ type: 'closing-remark-done' });
      return;
    }
    await speak(turn);
  }

  /** Answers go to the server one after another, so each reply belongs to its answer. */
  function enqueue(request: Request, answeredAt: number | null): void {
    core.answer(
      request.kind === 'text' ? request.utterance : undefined,
      () => send(request),
      (turn) => {
        core.emit({ type: 'interim', text: '' });
        return handle(turn, answeredAt);
      },
    );
  }

  function stopListening(): void {
    detector?.destroy();
    detector = null;
  }

  async function startListening(): Promise<void> {
    try {
      const opened = await startDetector({
        speechStart: () => {
          if (!core.open()) return;
          // Barge-in: the candidate talks over the interviewer, who stops.
          player.stop();
          core.emit({ type: 'interim', text: LISTENING_TEXT });
        },
        speechEnd: (wav) => {
          if (!core.open()) return;
          core.emit({ type: 'interim', text: TRANSCRIBING_TEXT });
          enqueue({ kind: 'audio', wav }, core.at());
        },
        misfire: () => core.emit({ type: 'interim', text: '' }),
      });
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
      const opening = await core.start(startToken, onEvent, startedAtMs, () =>
        send(resumed ? { kind: 'text', utterance: resumed.pendingAnswer, resume: true } : { kind: 'text' }),
      );
      if (!opening) return;
      // The microphone opens while the greeting plays; the session is active once start() resolves.
      void startListening();
      core.then(() => handle(opening, null));
    },

    sendText(text: string): void {
      const answer = text.trim();
      if (!answer || !core.open()) return;
      player.stop();
      core.emit({ type: 'candidate', text: answer, at: core.at() });
      enqueue({ kind: 'text', utterance: answer }, null);
    },

    close(): void {
      if (!core.close()) return;
      stopListening();
      player.stop();
    },
  };
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
