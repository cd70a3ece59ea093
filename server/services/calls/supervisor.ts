/**
 * One OpenAI realtime call as the server supervises it over the sideband: the authoritative
 * transcript (candidate transcriptions in the order they were spoken, failed ones as a marker,
 * interviewer transcripts), the usage of every response, errors (only fatal ones end the call),
 * close_session (tool result, one closing remark through the response sequencer, hang-up about
 * 4 s later), the time limit, a browser that vanished, and the interviewer's instructions, which a
 * `session.update` from the browser cannot change (the server restores its own config).
 * No database or Fastify here: everything outside comes in through `CallDeps`.
 */
import type { RealtimeServerEvent, RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime';
import type { SessionEndReason, SessionUsage, TranscriptEntry } from '../../../contract';
import {
  CLOSE_DELAY_MS,
  CLOSE_SESSION_TOOL_NAME,
  CLOSING_METADATA,
  CLOSING_REMARK_WAIT_MS,
  FATAL_REALTIME_ERROR_CODES,
  INAUDIBLE,
} from '../../../domain/interviewer-protocol';
import type { Sideband } from '../../providers/upstream/realtime-calls-client';
import { closingResponse } from '../../providers/voice/realtime-session-config';

export { INAUDIBLE };
import { ResponseSequencer } from '../../providers/voice/response-sequencer';

/** No speech, response or transcript for this long: the browser is gone, the call is hung up. */
export const IDLE_HANGUP_MS = 3 * 60_000;
export const TIME_LIMIT_REASON = 'the time limit for this interview was reached';
/** Why `end` was called, for the ends the telemetry tells apart (sessionEndOf). */
export const END_CLOSED = 'closed';
export const END_SUBMITTED = 'the interview was submitted for rating';
export const END_RECONNECTED = 'the browser reconnected';
export const END_RESPONSE_FAILED = 'a response failed';
export const END_SIDEBAND_CLOSED = 'the voice service closed the call';
export const END_IDLE = 'no activity: the browser is gone';
export const END_SESSION_GONE = 'the interview session ended or was reconnected elsewhere';
export const END_ABANDONED = 'the interview session was abandoned';
/** This process stopped supervising a call it did not hang up: another server takes it over (calls/leases.ts). */
export const END_HANDED_OVER = 'the call was handed over to another server';
const END_FATAL_PREFIX = 'the voice service ended the session';

/** What a call tells the session's telemetry (docs/product-rules.md, Session telemetry). */
export interface CallTelemetry {
  usage?: SessionUsage;
  error?: { source: 'realtime' | 'transcription'; code: string | null; message: string };
  end?: { reason: SessionEndReason; detail: string };
}

/**
 * The session's end reason for a call that ended (null: the interview goes on, as after a
 * reconnect). An interviewer's close wins even when the rating arrived before the call was hung up.
 */
export function sessionEndOf(endReason: string, closeReason: string | null): CallTelemetry['end'] | null {
  // A reconnect goes on in another call; a session that ended elsewhere recorded its own end.
  if (endReason === END_RECONNECTED || endReason === END_SESSION_GONE || endReason === END_ABANDONED) return null;
  if (endReason === END_CLOSED || (endReason === END_SUBMITTED && closeReason !== null)) {
    if (closeReason === TIME_LIMIT_REASON) return { reason: 'time-limit', detail: TIME_LIMIT_REASON };
    return { reason: 'closed-by-interviewer', detail: closeReason ?? '' };
  }
  if (endReason === END_SUBMITTED) return { reason: 'stopped-by-candidate', detail: endReason };
  if (endReason === END_RESPONSE_FAILED || endReason.startsWith(END_FATAL_PREFIX)) return { reason: 'service-error', detail: endReason };
  // The sideband closed, the browser went quiet, the server shut down.
  return { reason: 'connection-lost', detail: endReason };
}

export interface CallUsage {
  responses: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface CallLog {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface CallDeps {
  sideband: Sideband;
  /** The provider's id of the call (its lease names it). */
  callId?: string;
  /** POST /realtime/calls/{id}/hangup; never throws. */
  hangup(): Promise<void>;
  /** Stores the whole transcript so far; calls are serialised here, one at a time. */
  saveTranscript(entries: TranscriptEntry[]): Promise<void>;
  log: CallLog;
  schedule(fn: () => void, ms: number): () => void;
  /** Milliseconds since the interview session started: the `at` of every line. */
  elapsed(): number;
  /** The session the server bound to the call; restored when someone else changes it. */
  session: RealtimeSessionCreateRequest;
  /** Lines of earlier calls of the same interview (a resumed one). */
  transcript?: TranscriptEntry[];
  /** This call is asked to close after this long. */
  maxDurationMs: number;
  idleMs?: number;
  onEnded(reason: string): void;
  /** Usage, errors and the end for the session's telemetry; serialised with the transcript writes, never throws. */
  saveTelemetry?(update: CallTelemetry): Promise<void>;
}

type EventOf<T extends RealtimeServerEvent['type']> = Extract<RealtimeServerEvent, { type: T }>;

export class CallSupervisor {
  readonly transcript: TranscriptEntry[];
  readonly usage: CallUsage = { responses: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  readonly errors: Array<{ code: string | null; message: string }> = [];
  /** Why the call ended; null while it runs. */
  endReason: string | null = null;
  closeReason: string | null = null;
  restoredSessions = 0;
  private readonly sequencer: ResponseSequencer;
  private readonly speechEnds = new Map<string, number>();
  private goodbyeId: string | null = null;
  private goodbyeHeard = false;
  private closeDelayPassed = false;
  private readonly cancels: Array<() => void> = [];
  private cancelIdle: (() => void) | null = null;
  private saving: Promise<void> = Promise.resolve();
  private hangingUp: Promise<void> | null = null;

  constructor(private readonly deps: CallDeps) {
    this.transcript = [...(deps.transcript ?? [])];
    this.sequencer = new ResponseSequencer((event) => deps.sideband.send(event));
    deps.sideband.onEvent((event) => this.handle(event));
    deps.sideband.onClose(() => this.finish(END_SIDEBAND_CLOSED));
    this.cancels.push(deps.schedule(() => this.close(TIME_LIMIT_REASON), deps.maxDurationMs));
    this.touch();
  }

  get callId(): string {
    return this.deps.callId ?? '';
  }

  get ended(): boolean {
    return this.endReason !== null;
  }

  /** Asks for a response (e.g. the opening turn of a resumed call) through the sequencer. */
  requestResponse(): void {
    this.sequencer.request({});
  }

  handle(event: RealtimeServerEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case 'input_audio_buffer.speech_started':
        return this.touch();
      case 'input_audio_buffer.speech_stopped':
        this.touch();
        this.speechEnds.set(event.item_id, this.deps.elapsed());
        return;
      case 'conversation.item.input_audio_transcription.completed':
        this.touch();
        this.transcriptionUsage(event);
        return this.addAnswer(event.item_id, event.transcript.trim());
      case 'conversation.item.input_audio_transcription.failed':
        this.deps.log.warn({ itemId: event.item_id, error: event.error }, 'realtime transcription failed; the answer is kept as inaudible');
        this.keepError({
          source: 'transcription',
          code: event.error.code ?? event.error.type ?? null,
          message: event.error.message ?? 'The answer could not be transcribed.',
        });
        return this.addAnswer(event.item_id, INAUDIBLE);
      case 'response.output_audio_transcript.done':
        this.touch();
        if (event.transcript.trim()) this.add({ role: 'interviewer', transcript: event.transcript.trim(), at: this.deps.elapsed() });
        return;
      case 'response.created':
        return this.responseCreated(event);
      case 'response.done':
        return this.responseDone(event);
      case 'output_audio_buffer.stopped':
        if (this.goodbyeId !== null && event.response_id === this.goodbyeId) this.goodbyeEnded();
        return;
      case 'session.updated':
        return this.guardSession(event);
      case 'error':
        return this.serviceError(event);
      default:
        return;
    }
  }

  /** The interview ends (close_session or the time limit): one closing remark, then the hang-up. */
  close(reason: string, toolCallId?: string): void {
    if (this.ended || this.closeReason !== null) return;
    this.closeReason = reason;
    this.deps.log.info({ reason }, 'realtime call closing');
    if (toolCallId) {
      this.deps.sideband.send({
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: toolCallId, output: JSON.stringify({ ok: true }) },
      });
    }
    this.sequencer.request(closingResponse(reason));
    this.cancels.push(
      this.deps.schedule(() => {
        this.closeDelayPassed = true;
        if (this.goodbyeHeard) void this.end(END_CLOSED);
      }, CLOSE_DELAY_MS),
      this.deps.schedule(() => void this.end(END_CLOSED), CLOSE_DELAY_MS + CLOSING_REMARK_WAIT_MS),
    );
  }

  /**
   * Hangs up (once) and stops listening; resolves when the transcript is stored. The hang-up
   * itself is not waited for (a rating should not wait on the provider); `hungUp` is.
   */
  async end(reason: string): Promise<void> {
    if (!this.ended) {
      this.hangingUp = this.deps.hangup();
      this.deps.sideband.close();
      this.finish(reason);
    }
    await this.saving;
  }

  /**
   * Stops supervising without hanging up (a shutdown hands the call over, or another server holds
   * its lease now): timers stop, the sideband closes, no end is recorded; resolves when what was
   * heard is stored. Another server reopens the sideband by call id and goes on.
   */
  async detach(): Promise<void> {
    if (!this.ended) {
      this.endReason = END_HANDED_OVER;
      for (const cancel of this.cancels) cancel();
      this.cancelIdle?.();
      this.deps.sideband.close();
      this.deps.log.info({ usage: this.usage }, 'realtime call handed over');
      this.deps.onEnded(END_HANDED_OVER);
    }
    await this.saving;
  }

  /** Resolves when the hang-up call (if one was made) has been answered. */
  get hungUp(): Promise<void> {
    return this.hangingUp ?? Promise.resolve();
  }

  /** Waits for every transcript write so far. */
  settled(): Promise<void> {
    return this.saving;
  }

  private finish(reason: string): void {
    if (this.ended) return;
    this.endReason = reason;
    for (const cancel of this.cancels) cancel();
    this.cancelIdle?.();
    this.deps.log.info({ reason, usage: this.usage, errors: this.errors.length }, 'realtime call ended');
    const end = sessionEndOf(reason, this.closeReason);
    if (end) this.telemetry({ end });
    this.deps.onEnded(reason);
  }

  /** Any sign of life from the call resets the vanished-browser timer. */
  private touch(): void {
    this.cancelIdle?.();
    this.cancelIdle = this.deps.schedule(() => void this.end(END_IDLE), this.deps.idleMs ?? IDLE_HANGUP_MS);
  }

  private addAnswer(itemId: string, text: string): void {
    const at = this.speechEnds.get(itemId) ?? this.deps.elapsed();
    this.speechEnds.delete(itemId);
    if (text) this.add({ role: 'interviewee', transcript: text, at });
  }

  /** Telemetry goes in the same queue as the transcript, so `settled()` waits for it too. */
  private telemetry(update: CallTelemetry): void {
    const save = this.deps.saveTelemetry;
    if (!save) return;
    this.saving = this.saving.then(() => save(update));
  }

  private keepError(error: NonNullable<CallTelemetry['error']>): void {
    this.errors.push({ code: error.code, message: error.message });
    this.telemetry({ error });
  }

  /** In time order: a transcription may arrive after the interviewer's reply to it. */
  private add(entry: TranscriptEntry): void {
    let index = this.transcript.length;
    while (index > 0 && (this.transcript[index - 1]?.at ?? 0) > (entry.at ?? 0)) index--;
    this.transcript.splice(index, 0, entry);
    const snapshot = [...this.transcript];
    this.saving = this.saving
      .then(() => this.deps.saveTranscript(snapshot))
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not store the realtime transcript');
      });
  }

  /** The input transcription is billed on its own: tokens, or seconds of audio. */
  private transcriptionUsage(event: EventOf<'conversation.item.input_audio_transcription.completed'>): void {
    const usage = event.usage as EventOf<'conversation.item.input_audio_transcription.completed'>['usage'] | undefined;
    if (!usage) return;
    if (usage.type === 'duration') this.telemetry({ usage: { transcribedSeconds: usage.seconds } });
    else {
      const audio = usage.input_token_details?.audio_tokens ?? usage.input_tokens;
      this.telemetry({ usage: { transcriptionAudioTokens: audio, transcriptionTextTokens: usage.output_tokens } });
    }
  }

  private responseCreated(event: EventOf<'response.created'>): void {
    this.touch();
    const id = event.response.id ?? 'unknown';
    this.sequencer.created(id, event.response.metadata);
    const closing = event.response.metadata?.purpose === CLOSING_METADATA.purpose;
    if (closing && this.goodbyeId === null) this.goodbyeId = id;
    else if (this.closeReason !== null) {
      // After the close only the goodbye may speak: a voice-activity response is cut off.
      this.deps.sideband.send({ type: 'response.cancel', response_id: id });
    }
  }

  private responseDone(event: EventOf<'response.done'>): void {
    this.touch();
    const response = event.response;
    this.sequencer.done();
    const usage = response.usage;
    if (usage) {
      this.usage.responses += 1;
      this.usage.inputTokens += usage.input_tokens ?? 0;
      this.usage.outputTokens += usage.output_tokens ?? 0;
      this.usage.totalTokens += usage.total_tokens ?? 0;
      this.deps.log.info({ responseId: response.id, status: response.status, usage }, 'realtime response usage');
      this.telemetry({ usage: responseUsage(usage) });
    }
    if (response.status === 'failed') {
      const error = response.status_details?.error;
      this.keepError({
        source: 'realtime',
        code: error?.code ?? error?.type ?? null,
        message: 'A response failed, which ends the session.',
      });
      this.deps.log.warn({ responseId: response.id, error }, 'realtime response failed; ending the call');
      void this.end(END_RESPONSE_FAILED);
      return;
    }
    if (this.goodbyeId !== null && response.id === this.goodbyeId) {
      // WebRTC reports the audio played out (output_audio_buffer.stopped); without it, done is the end.
      this.cancels.push(this.deps.schedule(() => this.goodbyeEnded(), 2000));
      return;
    }
    // A close_session in a cancelled response was interrupted by the candidate: not honoured.
    if (response.status !== 'completed') return;
    const call = response.output?.find((item) => item.type === 'function_call' && item.name === CLOSE_SESSION_TOOL_NAME);
    if (call && call.type === 'function_call') this.close(parseReason(call.arguments), call.call_id);
  }

  private goodbyeEnded(): void {
    if (this.goodbyeHeard) return;
    this.goodbyeHeard = true;
    if (this.closeDelayPassed) void this.end(END_CLOSED);
  }

  /** A session.update from anyone else (the browser holds the data channel): put ours back. */
  private guardSession(event: EventOf<'session.updated'>): void {
    const now = event.session as { instructions?: unknown; tools?: unknown; tool_choice?: unknown };
    const ours = this.deps.session;
    const same =
      now.instructions === ours.instructions &&
      JSON.stringify(now.tools ?? null) === JSON.stringify(ours.tools ?? null) &&
      JSON.stringify(now.tool_choice ?? null) === JSON.stringify(ours.tool_choice ?? null);
    if (same) return;
    this.restoredSessions += 1;
    this.deps.log.warn({ restored: this.restoredSessions }, 'the session was changed from outside; restoring the interviewer config');
    // The model cannot change once the call exists; everything else is put back as bound.
    const { model: _model, ...config } = ours;
    this.deps.sideband.send({ type: 'session.update', session: config });
  }

  private serviceError(event: EventOf<'error'>): void {
    const { code, message, event_id: clientEventId } = event.error;
    if (this.sequencer.refused(code, clientEventId)) return;
    this.keepError({ source: 'realtime', code: code ?? null, message });
    if (code && FATAL_REALTIME_ERROR_CODES.has(code)) {
      this.deps.log.warn({ code, message }, 'realtime call hit a fatal error');
      void this.end(`${END_FATAL_PREFIX} (${code})`);
      return;
    }
    this.deps.log.warn({ code, message, type: event.error.type }, 'realtime error (the call goes on)');
  }
}

type ResponseUsage = NonNullable<EventOf<'response.done'>['response']['usage']>;

/** A response's usage as the session counts it; without a breakdown every token counts as text. */
export function responseUsage(usage: ResponseUsage): SessionUsage {
  const input = usage.input_token_details;
  const output = usage.output_token_details;
  return {
    responses: 1,
    textInTokens: input ? (input.text_tokens ?? 0) : (usage.input_tokens ?? 0),
    cachedTextInTokens: input?.cached_tokens_details?.text_tokens ?? 0,
    audioInTokens: input?.audio_tokens ?? 0,
    cachedAudioInTokens: input?.cached_tokens_details?.audio_tokens ?? 0,
    textOutTokens: output ? (output.text_tokens ?? 0) : (usage.output_tokens ?? 0),
    audioOutTokens: output?.audio_tokens ?? 0,
  };
}

/** Reads `{"reason": "..."}`; a model that sends junk still gets its interview closed. */
export function parseReason(args: string | undefined): string {
  try {
    const parsed: unknown = JSON.parse(args ?? '');
    if (parsed && typeof parsed === 'object' && 'reason' in parsed && typeof parsed.reason === 'string' && parsed.reason.trim()) {
      return parsed.reason.trim().slice(0, 200);
    }
  } catch {
    // fall through
  }
  return 'the interviewer ended the interview';
}
