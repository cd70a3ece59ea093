/**
 * One `response.create` at a time. The service allows a single active response per conversation
 * and refuses another with `conversation_already_has_active_response`; a response may also start
 * by itself (voice activity). So every response the server asks for waits here until no response
 * is active, and one the service refused anyway (a VAD response won the race) is asked again when
 * the active one is done.
 */
import type { RealtimeResponseCreateParams, ResponseCreateEvent } from 'openai/resources/realtime/realtime';

export class ResponseSequencer {
  private active: string | null = null;
  private readonly queue: Array<{ eventId: string; params: RealtimeResponseCreateParams }> = [];
  private inFlight: { eventId: string; params: RealtimeResponseCreateParams } | null = null;
  private seq = 0;

  constructor(private readonly send: (event: ResponseCreateEvent) => void) {}

  /** Asks for a response as soon as none is active. */
  request(params: RealtimeResponseCreateParams): void {
    this.seq += 1;
    this.queue.push({ eventId: `seq_${this.seq}_${Date.now().toString(36)}`, params });
    this.pump();
  }

  /** `response.created` (ours, named by the `request` metadata we sent, or the service's own). */
  created(responseId: string, metadata: Record<string, string> | null | undefined): void {
    this.active = responseId;
    if (this.inFlight && metadata?.request === this.inFlight.eventId) this.inFlight = null;
  }

  /** `response.done`, whatever its status: only one response runs at a time, so none is active now. */
  done(): void {
    this.active = null;
    this.pump();
  }

  /**
   * An `error` event: true when it was the service refusing our request because a response is
   * active; that request is asked again after the next `response.done`.
   */
  refused(code: string | null | undefined, clientEventId: string | null | undefined): boolean {
    if (code !== 'conversation_already_has_active_response' || !this.inFlight) return false;
    if (clientEventId && clientEventId !== this.inFlight.eventId) return false;
    this.queue.unshift(this.inFlight);
    this.inFlight = null;
    // We did not see it start (it began before we listened), but one is running.
    this.active ??= 'unknown';
    return true;
  }

  /** Nothing waiting or on its way. */
  get idle(): boolean {
    return this.inFlight === null && this.queue.length === 0;
  }

  private pump(): void {
    if (this.active !== null || this.inFlight !== null) return;
    const next = this.queue.shift();
    if (!next) return;
    this.inFlight = next;
    // The request id travels in the metadata, so its response.created is told from a VAD one.
    const metadata = { ...(next.params.metadata ?? {}), request: next.eventId };
    this.send({ type: 'response.create', event_id: next.eventId, response: { ...next.params, metadata } });
  }
}
