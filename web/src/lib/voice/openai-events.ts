/**
 * Turns the realtime data-channel messages into transport events. Kept apart from the WebRTC plumbing
 * so unit tests can drive it with a fake channel: it only needs a way to send and a way to emit.
 * The server owns the call (its sideband keeps the transcript, answers close_session and asks for
 * the one closing remark); the browser shows what it hears and ends when the goodbye is done.
 */
import { CLOSING_METADATA, FATAL_REALTIME_ERROR_CODES, INAUDIBLE } from '../../../../domain/interviewer-protocol';
import type { TransportEvent } from './types';

export { INAUDIBLE };
export const INAUDIBLE_NOTICE = 'Your last answer could not be heard clearly. If it mattered, please say it again.';

export interface OpenAiEventDeps {
  /** Sends one client event over `oai-events`. */
  send(event: Record<string, unknown>): void;
  emit(event: TransportEvent): void;
  /** Stops the microphone tracks (the interviewer is closing; the candidate is no longer heard). */
  stopMicrophone(): void;
  /** performance.now() in the browser; injectable so tests get exact `at` values. */
  now(): number;
  startedAt: number;
}

/** `err`: the `error` object of an `error` event, or of a failed response's `status_details`. */
function errorMessage(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string' && err.message) {
    return `The voice service reported an error: ${err.message}`;
  }
  return 'The voice service reported an error.';
}

function errorCode(event: Record<string, unknown>): string | undefined {
  const err = event.error;
  return err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

export class OpenAiEventHandler {
  private closeSeen = false;
  /**
   * When each answer's speech stopped, by item id. Transcription runs on a separate model and may
   * arrive after the interviewer's reply (docs/openai-realtime-mode.md); the answer keeps the time it was given.
   */
  private readonly speechEnds = new Map<string, number>();
  /** The id of the closing remark's response, once the service names it. */
  private goodbyeId: string | null = null;
  private speaking = false;
  private failed = false;

  constructor(private readonly deps: OpenAiEventDeps) {}

  private at(): number {
    return Math.max(0, Math.round(this.deps.now() - this.deps.startedAt));
  }

  private setSpeaking(speaking: boolean): void {
    if (this.speaking === speaking) return;
    this.speaking = speaking;
    this.deps.emit({ type: 'speaking', speaking });
  }

  /** Emits `failed` at most once, whatever combination of error event and dropped connection happens. */
  fail(message: string, reconnectable = false): void {
    if (this.failed) return;
    this.failed = true;
    this.setSpeaking(false);
    // After the goodbye began, the connection going away is the server hanging up as planned
    // (docs/openai-realtime-mode.md): the end of the remark, not a failure.
    if (reconnectable && this.closeSeen) {
      this.deps.emit({ type: 'closing-remark-done' });
      return;
    }
    // A dropped connection before the goodbye may go on in a continuation call.
    this.deps.emit(reconnectable ? { type: 'failed', message, reconnectable: true } : { type: 'failed', message });
  }

  /** The connection is going away on purpose: no more events, and the indicator is cleared. */
  stop(): void {
    this.failed = true;
    this.setSpeaking(false);
  }

  /** One raw data-channel message. Unknown or malformed messages are ignored (the protocol has many more). */
  handleMessage(data: unknown): void {
    if (this.failed || typeof data !== 'string') return;
    let event: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(data);
      if (!parsed || typeof parsed !== 'object') return;
      event = parsed as Record<string, unknown>;
    } catch {
      return;
    }
    this.handleEvent(event);
  }

  handleEvent(event: Record<string, unknown>): void {
    switch (event.type) {
      case 'session.created':
        this.deps.send({ type: 'response.create' });
        return;
      case 'input_audio_buffer.speech_stopped':
        if (typeof event.item_id === 'string') this.speechEnds.set(event.item_id, this.at());
        return;
      case 'conversation.item.input_audio_transcription.completed': {
        const text = typeof event.transcript === 'string' ? event.transcript.trim() : '';
        const itemId = typeof event.item_id === 'string' ? event.item_id : '';
        const spokenAt = this.speechEnds.get(itemId);
        this.speechEnds.delete(itemId);
        if (text) this.deps.emit({ type: 'candidate', text, at: spokenAt ?? this.at() });
        return;
      }
      case 'conversation.item.input_audio_transcription.failed': {
        // The answer keeps its place; the candidate is told plainly.
        const itemId = typeof event.item_id === 'string' ? event.item_id : '';
        const spokenAt = this.speechEnds.get(itemId);
        this.speechEnds.delete(itemId);
        this.deps.emit({ type: 'candidate', text: INAUDIBLE, at: spokenAt ?? this.at() });
        this.deps.emit({ type: 'notice', text: INAUDIBLE_NOTICE });
        return;
      }
      // GA name first; the beta name is still accepted so an older peer or proxy keeps working.
      case 'response.output_audio_transcript.done':
      case 'response.audio_transcript.done': {
        const text = typeof event.transcript === 'string' ? event.transcript.trim() : '';
        if (text) this.deps.emit({ type: 'interviewer', text, at: this.at() });
        return;
      }
      case 'response.created': {
        // The server's closing remark: the interview is ending (close_session or the time limit).
        const id = responseIdOf(event.response);
        if (id !== null && this.goodbyeId === null && isClosing(event.response)) {
          this.goodbyeId = id;
          this.closeSeen = true;
          this.deps.stopMicrophone();
          this.deps.emit({ type: 'close-requested', reason: 'the interviewer is closing the interview' });
        }
        return;
      }
      case 'output_audio_buffer.started':
        this.setSpeaking(true);
        return;
      case 'output_audio_buffer.stopped':
      case 'output_audio_buffer.cleared':
        this.setSpeaking(false);
        // Its audio fully played out: the safe moment to hang up (docs/openai-realtime-mode.md).
        if (this.goodbyeId !== null && event.response_id === this.goodbyeId) this.deps.emit({ type: 'closing-remark-done' });
        return;
      case 'response.done':
        this.handleResponseDone(event);
        return;
      case 'error': {
        // Most errors are recoverable (the server logs them); only the fatal ones end the interview.
        const code = errorCode(event);
        if (code && FATAL_REALTIME_ERROR_CODES.has(code)) this.fail(errorMessage(event.error));
        return;
      }
      default:
        return;
    }
  }

  private handleResponseDone(event: Record<string, unknown>): void {
    const response = event.response;
    // A failed response (e.g. the quota ran out mid-interview) leaves the interviewer silent for
    // good; the server hangs up, and the candidate is told now. `cancelled` is normal (the
    // candidate spoke over the interviewer) and `incomplete` still spoke.
    if (response && typeof response === 'object' && 'status' in response && response.status === 'failed') {
      const details = 'status_details' in response ? response.status_details : undefined;
      this.fail(errorMessage(details && typeof details === 'object' && 'error' in details ? details.error : undefined));
    }
  }

  /** True once the closing remark began. */
  get closing(): boolean {
    return this.closeSeen;
  }
}

function responseIdOf(response: unknown): string | null {
  if (!response || typeof response !== 'object' || !('id' in response)) return null;
  return typeof response.id === 'string' ? response.id : null;
}

function isClosing(response: unknown): boolean {
  if (!response || typeof response !== 'object' || !('metadata' in response)) return false;
  const metadata = response.metadata;
  return Boolean(metadata && typeof metadata === 'object' && 'purpose' in metadata && metadata.purpose === CLOSING_METADATA.purpose);
}
