/**
 * Speech pipeline turns (docs/speech-pipeline-mode.md): the answer's audio is transcribed
 * (STT_BASE_URL), the interviewer's next line comes from the same turn service as browser speech
 * (so sessions, limits and close_session are the same), and the line is synthesised
 * (TTS_BASE_URL) sentence by sentence, the first sentence at once, while the browser plays the
 * audio as it arrives. An upstream failure never ends the session: the candidate hears (or reads)
 * an apology and answers again.
 */
import { count } from '../../../domain/plural';
import { MAX_UTTERANCE_LENGTH, type SpeechTranscriptResponse, type SpeechTurnResponse, type TurnResponse } from '../../../contract';
import type { AppContext, SpeechPipeline } from '../../app-context';
import { HttpError } from '../http-error';
import { SpeechError } from '../../providers/upstream/speech-clients';
import { requireAccount } from '../accounts';
import { findSession, OPEN_STATUSES, type InterviewSession } from '../sessions';
import { continuationTurn, SESSION_FINISHED, sessionOf, takeTurn, type AnswerInput, type TurnAnswer } from '../turns';
import { addError, addUsage, quietly } from '../session-telemetry';
import { pcmWavSeconds } from './wav-seconds';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { interviewSessions } from '../../db/schema';
import { resolveSpeechSettings } from '../../config';
import { ClipFailedError } from './clips';
import { MAX_LINE_PARTS, settledPartsReader, speechParts } from '../../../domain/line-parts';

export const NOT_A_PIPELINE_SERVER = 'This server does not run spoken interviews through speech servers. Please start a new session.';
export const NOT_A_PIPELINE_SESSION = 'This interview session does not use the speech pipeline. Please start a new session.';
export const NO_AUDIO = "Please send the answer's audio as the request body (audio/wav).";
export const NOT_PCM_WAV = 'The answer must be a PCM WAV recording (audio/wav, 8 to 48 kHz, mono or stereo). Please record it again.';
export const answerTooLong = (seconds: number): string =>
  `This answer is longer than ${count(seconds, 'second')}, the longest one answer may be. Please give a shorter answer.`;
export const speechBudgetUsed = (answers: number, seconds: number): string =>
  `This interview has used its budget of spoken answers (${count(answers, 'answer')} or ${count(Math.round(seconds / 60), 'minute')} of audio). Please disconnect to get your feedback.`;
export const NOT_HEARD_APOLOGY = 'Sorry, I could not hear that answer. Could you say it again, please?';
export const INTERVIEWER_APOLOGY = 'Sorry, I lost my train of thought for a moment. Could you give me that answer again, please?';
export const CLIP_GONE = 'This audio is not available any more.';
export const CLIP_FAILED = "The interviewer's voice could not be made for this line.";

/** The interviewer failed upstream (502 refused, 503 rate limited, 504 too slow): worth a retry. */
const UPSTREAM_STATUSES = new Set([502, 503, 504]);

function requirePipeline(ctx: AppContext): SpeechPipeline {
  if (!ctx.providers.speech) throw new HttpError(409, NOT_A_PIPELINE_SERVER);
  return ctx.providers.speech;
}

/** Checks the session before any upstream call is paid for. */
async function requirePipelineSession(ctx: AppContext, email: string, sessionToken: string): Promise<InterviewSession> {
  const account = await requireAccount(ctx.db, email);
  const session = await sessionOf(ctx, account.id, sessionToken);
  if (session.transport !== 'speech-pipeline') throw new HttpError(409, NOT_A_PIPELINE_SESSION);
  return session;
}

export { MAX_LINE_PARTS, speechParts };

/** The models the pipeline's usage is priced by (docs/product-rules.md, Session telemetry). */
function speechModels(ctx: AppContext): { stt?: string; tts?: string } {
  const settings = resolveSpeechSettings(ctx.config);
  return 'missing' in settings ? {} : { stt: settings.stt.model, tts: settings.tts.model };
}

/** Told each clip path of the reply as soon as its clip exists, in order (a streamed turn answer). */
export type Announce = (path: string) => void;

/**
 * The voice of one reply: its parts get clips (in the database, so any server can play them) and
 * are synthesised one at a time, in order, in the background (tracked: the server's close waits for
 * them). `draft` takes the line as a language model writes it and starts every part that can no
 * longer change (all but the last of speechParts: a later sentence only joins the last part or
 * follows it); `line` takes the whole line and starts the rest. The paths are told to `announce`
 * as the clips are made; `paths` answers all of them.
 */
function lineVoice(ctx: AppContext, pipeline: SpeechPipeline, sessionId: string, announce?: Announce) {
  const paths: string[] = [];
  let made: Promise<void> = Promise.resolve();
  let spoken: Promise<void> = Promise.resolve();
  const start = (parts: string[]): void => {
    if (parts.length === 0) return;
    made = made.then(async () => {
      const ids = await ctx.clips.create(sessionId, parts.length);
      // After the parts before these, whatever became of them.
      spoken = spoken.catch(() => undefined).then(() => synthesise(ctx, pipeline, sessionId, parts, ids));
      ctx.clips.track(spoken);
      for (const id of ids) {
        const path = `/interview/speech/${id}`;
        paths.push(path);
        announce?.(path);
      }
    });
    // Awaited by paths(); a failure meanwhile must not count as unhandled.
    made.catch(() => undefined);
  };
  const drafted = settledPartsReader(start);
  return {
    /** True once some of the line is being said. */
    draft: (sayFar: string): boolean => drafted.read(sayFar),
    line(say: string): void {
      const given = drafted.told();
      const parts = speechParts(say);
      if (parts.slice(0, given.length).some((part, i) => part !== given[i])) {
        ctx.log.warn({ spoken: given.length }, "the line's streamed parts differ from the whole line; the rest is spoken from the whole");
      }
      start(parts.slice(given.length));
    },
    async paths(): Promise<string[]> {
      await made;
      return [...paths];
    },
  };
}

/** Speaks a whole line (an apology): its clip paths once the clips exist. */
async function speak(ctx: AppContext, pipeline: SpeechPipeline, sessionId: string, text: string, announce?: Announce): Promise<string[]> {
  const voice = lineVoice(ctx, pipeline, sessionId, announce);
  voice.line(text);
  return voice.paths();
}

/** Synthesises the line's parts into their clips in order; a part that fails is marked failed and shown as text. */
async function synthesise(ctx: AppContext, pipeline: SpeechPipeline, sessionId: string, parts: string[], ids: string[]): Promise<void> {
  let characters = 0;
  for (const [i, part] of parts.entries()) {
    const id = ids[i] as string;
    try {
      const stream = await pipeline.clients.synthesize(part);
      characters += part.length;
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        // A full or dropped clip needs no more audio: the stream is cancelled.
        if (!(await ctx.clips.append(id, chunk))) break;
      }
      await ctx.clips.finish(id, true);
    } catch (error) {
      const detail =
        error instanceof SpeechError ? { status: error.status, upstreamStatus: error.upstreamStatus, err: error.message } : { err: error };
      ctx.log.warn(detail, 'text-to-speech failed; the line is shown as text');
      await quietly(
        ctx,
        'error',
        addError(ctx.db, sessionId, { source: 'text-to-speech', code: statusCode(error), message: errorText(error) }),
      );
      await ctx.clips.finish(id, false).catch((failure: unknown) => ctx.log.warn({ err: failure }, 'could not mark the clip failed'));
    }
  }
  if (characters > 0)
    await quietly(ctx, 'usage', addUsage(ctx, sessionId, { speechModel: speechModels(ctx).tts, synthesisedCharacters: characters }));
}

function statusCode(error: unknown): string | null {
  return error instanceof SpeechError ? error.upstreamCode : null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function reply(heard: string | null, turn: TurnResponse, audio: string[], retry: boolean): SpeechTurnResponse {
  return { heard, say: turn.say, closeSession: turn.closeSession, audio, retry };
}

async function apologise(
  ctx: AppContext,
  pipeline: SpeechPipeline,
  sessionId: string,
  heard: string | null,
  say: string,
  announce?: Announce,
): Promise<SpeechTurnResponse> {
  return reply(heard, { say, closeSession: null }, await speak(ctx, pipeline, sessionId, say, announce), true);
}

async function interviewerTurn(
  ctx: AppContext,
  pipeline: SpeechPipeline,
  session: InterviewSession,
  heard: string | null,
  answer: TurnAnswer = {},
  /** The first turn after a resume picks up from the stored transcript (continuationTurn). */
  resume = false,
  announce?: Announce,
) {
  const voice = lineVoice(ctx, pipeline, session.id, announce);
  let turn: TurnResponse;
  try {
    // Synthesis starts with the first sentence the language model has finished writing, and for the
    // rest the moment the line is known, while the turn is being stored.
    const onDraft = (sayFar: string): boolean => voice.draft(sayFar);
    const onLine = (line: TurnResponse): void => {
      if (line.say) voice.line(line.say);
    };
    turn = resume
      ? await continuationTurn(ctx, session, answer, onLine, onDraft)
      : await takeTurn(ctx, session, answer, onLine, undefined, onDraft);
  } catch (error) {
    // The opening line has nothing to answer again; a later failure keeps the session going. Words
    // of the failed reply already spoken stay spoken: the apology follows them.
    if (answer.text === undefined || !(error instanceof HttpError) || !UPSTREAM_STATUSES.has(error.statusCode)) throw error;
    await voice.paths().catch(() => undefined);
    return apologise(ctx, pipeline, session.id, heard, INTERVIEWER_APOLOGY, announce);
  }
  return reply(heard, turn, await voice.paths(), false);
}

/**
 * The opening line (no utterance), a typed answer, the first turn after a resume (`resume`), or a
 * spoken answer already written down by speechTranscript (`spoken`; without words, none could be).
 */
export async function speechTextTurn(
  ctx: AppContext,
  email: string,
  input: { sessionToken: string; utterance?: string; resume?: boolean; spoken?: boolean; input?: AnswerInput },
  /** A streamed answer's clip paths, each as soon as it exists (the reply's voice may play before the reply is whole). */
  announce?: Announce,
): Promise<SpeechTurnResponse> {
  const pipeline = requirePipeline(ctx);
  const session = await requirePipelineSession(ctx, email, input.sessionToken);
  const utterance = input.utterance?.trim() || undefined;
  if (input.spoken && !input.resume) {
    if (!utterance) return apologise(ctx, pipeline, session.id, null, NOT_HEARD_APOLOGY, announce);
    return interviewerTurn(ctx, pipeline, session, utterance, { text: utterance }, false, announce);
  }
  // Words that were not spoken and are not a resume's answer sent again were typed.
  const typed = input.input === 'typed' || (utterance !== undefined && !input.resume);
  return interviewerTurn(
    ctx,
    pipeline,
    session,
    null,
    { text: utterance, ...(typed ? { input: 'typed' } : {}) },
    input.resume === true,
    announce,
  );
}

/**
 * The session's speech budget (README, Security and limits): one answer and its seconds of audio,
 * reserved by one conditional UPDATE before speech-to-text is paid for, whatever it then hears.
 */
async function reserveSpeech(ctx: AppContext, session: InterviewSession, seconds: number): Promise<void> {
  const { sessionSpeechAnswers, sessionSpeechSeconds } = ctx.config;
  const reserved = await ctx.db
    .update(interviewSessions)
    .set({
      speechAnswers: sql`${interviewSessions.speechAnswers} + 1`,
      speechSeconds: sql`${interviewSessions.speechSeconds} + ${seconds}::float8`,
    })
    .where(
      and(
        eq(interviewSessions.id, session.id),
        inArray(interviewSessions.status, OPEN_STATUSES),
        isNull(interviewSessions.finishedAt),
        lt(interviewSessions.speechAnswers, sessionSpeechAnswers),
        sql`${interviewSessions.speechSeconds} + ${seconds}::float8 <= ${sessionSpeechSeconds}::float8`,
      ),
    )
    .returning({ id: interviewSessions.id });
  if (reserved.length === 1) return;
  const now = await findSession(ctx.db, session.id);
  if (!now || !OPEN_STATUSES.includes(now.status) || now.finishedAt) throw new HttpError(409, SESSION_FINISHED);
  throw new HttpError(429, speechBudgetUsed(sessionSpeechAnswers, sessionSpeechSeconds));
}

/** The answer's audio, checked and budgeted before it goes upstream, written down; null when speech-to-text failed (logged and kept). */
async function transcribeAnswer(
  ctx: AppContext,
  email: string,
  input: { sessionToken: string; audio: unknown },
): Promise<{ pipeline: SpeechPipeline; session: InterviewSession; heard: string | null }> {
  const pipeline = requirePipeline(ctx);
  if (!Buffer.isBuffer(input.audio) || input.audio.length === 0) throw new HttpError(400, NO_AUDIO);
  const session = await requirePipelineSession(ctx, email, input.sessionToken);
  const seconds = pcmWavSeconds(input.audio);
  if (seconds === null) throw new HttpError(415, NOT_PCM_WAV);
  if (seconds > ctx.config.maxAnswerSeconds) throw new HttpError(413, answerTooLong(ctx.config.maxAnswerSeconds));
  await reserveSpeech(ctx, session, seconds);
  try {
    const heard = await pipeline.clients.transcribe(input.audio, 'audio/wav');
    await quietly(ctx, 'usage', addUsage(ctx, session.id, { transcriptionModel: speechModels(ctx).stt, transcribedSeconds: seconds }));
    return { pipeline, session, heard };
  } catch (error) {
    if (!(error instanceof SpeechError)) throw error;
    ctx.log.warn(
      { status: error.status, upstreamStatus: error.upstreamStatus, err: error.message },
      'speech-to-text failed; the candidate is asked again',
    );
    await quietly(
      ctx,
      'error',
      addError(ctx.db, session.id, { source: 'speech-to-text', code: statusCode(error), message: error.message }),
    );
    return { pipeline, session, heard: null };
  }
}

/** A spoken answer: its audio in, the interviewer's reply out. */
export async function speechAudioTurn(
  ctx: AppContext,
  email: string,
  input: { sessionToken: string; audio: unknown; contentType: string },
): Promise<SpeechTurnResponse> {
  const { pipeline, session, heard } = await transcribeAnswer(ctx, email, input);
  if (heard === null) return apologise(ctx, pipeline, session.id, null, NOT_HEARD_APOLOGY);
  // Noise the browser took for speech: nothing to answer, nothing to apologise for.
  if (!heard) return { heard: '', say: '', closeSession: null, audio: [], retry: true };
  return interviewerTurn(ctx, pipeline, session, heard, { text: heard.slice(0, MAX_UTTERANCE_LENGTH) });
}

/**
 * One piece of a spoken answer (its audio up to a pause) written down, no turn taken: the browser
 * decides from the words so far whether the answer is over (domain/answer-ending.ts), then sends
 * them as a `spoken` turn. Budgeted like a whole answer.
 */
export async function speechTranscript(
  ctx: AppContext,
  email: string,
  input: { sessionToken: string; audio: unknown },
): Promise<SpeechTranscriptResponse> {
  const { heard } = await transcribeAnswer(ctx, email, input);
  return { heard: heard === null ? null : heard.slice(0, MAX_UTTERANCE_LENGTH) };
}

/** GET /interview/speech/:clipId: the clip's audio as it arrives (from whichever server makes it), or why not. */
export async function speechClip(ctx: AppContext, clipId: string): Promise<AsyncIterable<Buffer>> {
  requirePipeline(ctx);
  const clip = await ctx.clips.read(clipId);
  if (!clip) throw new HttpError(404, CLIP_GONE);
  // The first bytes (or the failure) decide the status; the rest streams after them.
  const bytes = clip[Symbol.asyncIterator]();
  let first: IteratorResult<Buffer>;
  try {
    first = await bytes.next();
  } catch (error) {
    if (error instanceof ClipFailedError) throw new HttpError(502, CLIP_FAILED);
    throw error;
  }
  if (first.done) throw new HttpError(404, CLIP_GONE);
  const head = first.value;
  return (async function* () {
    yield head;
    for (let next = await bytes.next(); !next.done; next = await bytes.next()) yield next.value;
  })();
}
