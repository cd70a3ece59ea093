/**
 * Turns the realtime data-channel messages into transport events. Kept apart from the WebRTC plumbing
 * so unit tests can drive it with a fake channel: it only needs a way to send and a way to emit.
 */
import { closingRemarkInstructions, CLOSE_SESSION_TOOL_NAME } from '../../../../domain/interviewer-protocol';
import type { TransportEvent } from './types';

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

interface ResponseOutputItem {
  type?: unknown;
  name?: unknown;
  call_id?: unknown;
  arguments?: unknown;
}

/** Reads `{"reason": "..."}`; a model that sends junk still gets its session closed, with a plain reason. */
function parseReason(args: unknown): string {
  if (typeof args === 'string') {
    try {
      const parsed: unknown = JSON.parse(args);
      if (parsed && typeof parsed === 'object' && 'reason' in parsed && typeof parsed.reason === 'string' && parsed.reason.trim()) {
        return parsed.reason.trim();
      }
    } catch {
      // fall through to the default
    }
  }
  return 'the interviewer ended the interview';
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
  private closeHonoured = false;
  /**
   * When each answer's speech stopped, by item id. Transcription runs on a separate model and may
   * arrive after the interviewer's reply (brief §5.3); the answer keeps the time it was given.
   */
  private readonly speechEnds = new Map<string, number>();
  /** After close_session: the id of the closing remark's response, once the service names it. */
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
  fail(message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.setSpeaking(false);
    this.deps.emit({ type: 'failed', message });
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
      // GA name first; the beta name is still accepted so an older peer or proxy keeps working.
      case 'response.output_audio_transcript.done':
      case 'response.audio_transcript.done': {
        const text = typeof event.transcript === 'string' ? event.transcript.trim() : '';
        if (text) this.deps.emit({ type: 'interviewer', text, at: this.at() });
        return;
      }
      case 'response.created': {
        // The first response created after close_session is the closing remark we asked for.
        const id = responseIdOf(event.response);
        if (this.closeHonoured && this.goodbyeId === null && id !== null) this.goodbyeId = id;
        return;
      }
      case 'output_audio_buffer.started':
        this.setSpeaking(true);
        return;
      case 'output_audio_buffer.stopped':
      case 'output_audio_buffer.cleared':
        this.setSpeaking(false);
        // Its audio fully played out: the safe moment to hang up (brief §5.4, §7).
        if (this.goodbyeId !== null && event.response_id === this.goodbyeId) this.deps.emit({ type: 'closing-remark-done' });
        return;
      case 'response.done':
        this.handleResponseDone(event);
        return;
      case 'error':
        // A second response.create while one runs is our sequencing slip, not a broken session.
        if (errorCode(event) === 'conversation_already_has_active_response') return;
        this.fail(errorMessage(event.error));
        return;
      default:
        return;
    }
  }

  private handleResponseDone(event: Record<string, unknown>): void {
    const response = event.response;
    // A failed response (e.g. the quota ran out mid-interview) leaves the interviewer silent for
    // good; end the session like an error so what was said is still rated. `cancelled` is normal
    // (the candidate spoke over the interviewer) and `incomplete` still spoke.
    if (response && typeof response === 'object' && 'status' in response && response.status === 'failed') {
      const details = 'status_details' in response ? response.status_details : undefined;
      this.fail(errorMessage(details && typeof details === 'object' && 'error' in details ? details.error : undefined));
      return;
    }
    if (!response || typeof response !== 'object' || !('output' in response) || !Array.isArray(response.output)) return;
    const call = (response.output as ResponseOutputItem[]).find(
      (item) => item && item.type === 'function_call' && item.name === CLOSE_SESSION_TOOL_NAME,
    );
    if (!call || this.closeHonoured) return;
    this.closeHonoured = true;
    const reason = parseReason(call.arguments);
    const callId = typeof call.call_id === 'string' ? call.call_id : undefined;
    // The model waits for the function result before it may speak again; then one closing remark.
    if (callId) {
      this.deps.send({
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: callId, output: JSON.stringify({ ok: true }) },
      });
    }
    this.deps.send({
      type: 'response.create',
      response: { instructions: closingRemarkInstructions(reason), tool_choice: 'none' },
    });
    this.deps.stopMicrophone();
    this.deps.emit({ type: 'close-requested', reason });
  }
}

function responseIdOf(response: unknown): string | null {
  if (!response || typeof response !== 'object' || !('id' in response)) return null;
  return typeof response.id === 'string' ? response.id : null;
}
