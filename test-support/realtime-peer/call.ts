/**
 * One WebRTC call of the local realtime peer: a werift peer that answers the browser's offer and plays
 * a scripted interviewer over `oai-events` plus an Opus tone on the audio track. A server may attach
 * a sideband WebSocket by call id: it hears every server event and may send client events.
 * Like the service, only one response runs at a time: a `response.create` meeting an active response
 * is refused with `conversation_already_has_active_response`.
 */
import { randomUUID } from 'node:crypto';
import { type RTCDataChannel, RTCPeerConnection, RtpHeader, RtpPacket, type RTCRtpTransceiver, useOPUS } from 'werift';
import type { WebSocket } from 'ws';
import { closePeerConnection } from './close';
import { DEFAULT_VAD, encodeToneFrame, FRAME_MS, FRAME_SAMPLES, OpusEnergyVad } from './audio';
import type { PeerOptions } from './options';
import { continueFrom, questionsFromInstructions, sessionUpdateSchema, type RealtimeSessionRequest } from './session-schema';

/** Ids shaped like OpenAI's (`resp_…`, `item_…`, `call_…`). */
const newId = (prefix: string): string => `${prefix}_${randomUUID().slice(0, 8)}`;

export type JsonEvent = { type: string } & Record<string, unknown>;

export interface CallRecord {
  id: string;
  /** Every client event received over oai-events (the browser), in order. */
  clientEvents: JsonEvent[];
  /** Every client event received over the sideband (the server), in order. */
  sidebandEvents: JsonEvent[];
  /** Every server event sent, in order. */
  serverEvents: JsonEvent[];
  /** The session as it stands (created from the call's session part, changed by session.update). */
  session: RealtimeSessionRequest;
  utterances: number;
  sidebandAttached: boolean;
  /** Sideband connections opened for this call (another server reopening it by call id adds one). */
  sidebandAttachments: number;
  hungUp: boolean;
  ended: boolean;
}

interface ActiveResponse {
  id: string;
  cancelled: boolean;
}

const TONE = encodeToneFrame();
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const usage = {
  total_tokens: 420,
  input_tokens: 300,
  output_tokens: 120,
  input_token_details: { audio_tokens: 200, text_tokens: 100 },
  output_token_details: { audio_tokens: 100, text_tokens: 20 },
};

const transcriptionUsage = {
  type: 'tokens',
  total_tokens: 65,
  input_tokens: 50,
  output_tokens: 15,
  input_token_details: { audio_tokens: 50, text_tokens: 0 },
};

export class RealtimeCall {
  readonly record: CallRecord;
  private readonly pc: RTCPeerConnection;
  private channel: RTCDataChannel | null = null;
  private sideband: WebSocket | null = null;
  private transceiver: RTCRtpTransceiver | null = null;
  private vad: OpusEnergyVad | null = null;
  private active: ActiveResponse | null = null;
  /** A VAD turn that arrived while a response was running (bursts collapse into one). */
  private pendingVadTurn = false;
  private readonly questions: string[];
  /** Index of the next question to ask. */
  private nextQuestion = 0;
  private resumed: boolean;
  private closeCalled = false;
  private turns = 0;
  private seq = Math.floor(Math.random() * 60_000);
  private timestamp = Math.floor(Math.random() * 1_000_000);

  constructor(
    private readonly options: PeerOptions,
    session: RealtimeSessionRequest,
    private readonly onEnd: (call: RealtimeCall) => void,
  ) {
    this.record = {
      id: `rtc_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      clientEvents: [],
      sidebandEvents: [],
      serverEvents: [],
      session,
      utterances: 0,
      sidebandAttached: false,
      sidebandAttachments: 0,
      hungUp: false,
      ended: false,
    };
    this.questions = questionsFromInstructions(session.instructions);
    // A continuation call starts at the question its instructions name.
    const from = continueFrom(session.instructions);
    this.resumed = from !== null;
    if (from) this.nextQuestion = Math.max(0, this.questions.indexOf(from));
    this.pc = new RTCPeerConnection({
      codecs: { audio: [useOPUS()], video: [] },
      // Loopback only: the browser and this peer share the machine.
      iceInterfaceAddresses: { udp4: '127.0.0.1' },
      iceUseIpv6: false,
      iceAdditionalHostAddresses: ['127.0.0.1'],
    });
  }

  /** Applies the offer and returns the answer SDP, with candidates, once gathering is done. */
  async answer(offerSdp: string): Promise<string> {
    this.pc.onDataChannel.subscribe((channel) => this.attachChannel(channel));
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'closed' || state === 'failed' || state === 'disconnected') this.end();
    });
    // Subscribed before the offer is applied: werift announces the remote track during setRemoteDescription.
    this.pc.onTrack.subscribe((track) => {
      if (track.kind !== 'audio' || this.vad) return;
      this.vad = new OpusEnergyVad(
        { ...DEFAULT_VAD, ...this.options.vad },
        () => this.onUtterance(),
        () => this.send({ type: 'input_audio_buffer.speech_started', item_id: newId('item') }),
      );
      track.onReceiveRtp.subscribe((rtp) => this.vad?.push(rtp.payload));
    });
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    const transceiver = this.pc.getTransceivers().find((t) => t.kind === 'audio');
    if (transceiver) {
      // werift answers recvonly by default; the browser would then never get the interviewer's track.
      transceiver.setDirection('sendrecv');
      this.transceiver = transceiver;
    }
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    if (this.pc.iceGatheringState !== 'complete') {
      await new Promise<void>((resolve) => {
        const { unSubscribe } = this.pc.iceGatheringStateChange.subscribe((s) => {
          if (s === 'complete') {
            unSubscribe();
            resolve();
          }
        });
      });
    }
    return this.pc.localDescription?.sdp ?? '';
  }

  /** The server's sideband WebSocket (`/v1/realtime?call_id=`). */
  attachSideband(ws: WebSocket): void {
    this.sideband = ws;
    this.record.sidebandAttached = true;
    this.record.sidebandAttachments += 1;
    ws.on('message', (data: Buffer) => this.onClientMessage(data.toString('utf8'), 'sideband'));
    ws.on('close', () => {
      if (this.sideband === ws) this.sideband = null;
    });
  }

  private attachChannel(channel: RTCDataChannel): void {
    if (channel.label !== 'oai-events') return;
    this.channel = channel;
    channel.onMessage.subscribe((data) => this.onClientMessage(typeof data === 'string' ? data : data.toString('utf8'), 'browser'));
    const greet = () =>
      this.send({
        type: 'session.created',
        session: { id: `sess_${this.record.id.slice(4)}`, object: 'realtime.session', ...this.record.session },
      });
    channel.stateChanged.subscribe((state) => {
      if (state === 'closed') this.end();
      if (state === 'open') greet();
    });
    // A channel opened by the browser may be announced before werift marks it open.
    if (channel.readyState === 'open') greet();
  }

  /** Every server event goes to the browser's data channel and to the sideband. */
  private send(event: JsonEvent): void {
    if (this.record.ended) return;
    const withId = { event_id: `event_${randomUUID().slice(0, 12)}`, ...event };
    this.record.serverEvents.push(withId);
    const text = JSON.stringify(withId);
    if (this.channel?.readyState === 'open') this.channel.send(text);
    if (this.sideband?.readyState === 1) this.sideband.send(text);
  }

  private refuse(clientEventId: unknown, code: string, message: string): void {
    this.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code,
        message,
        param: null,
        event_id: typeof clientEventId === 'string' ? clientEventId : null,
      },
    });
  }

  private onClientMessage(text: string, source: 'browser' | 'sideband'): void {
    let event: JsonEvent;
    try {
      event = JSON.parse(text) as JsonEvent;
    } catch {
      this.refuse(null, 'invalid_json', 'Invalid JSON.');
      return;
    }
    (source === 'browser' ? this.record.clientEvents : this.record.sidebandEvents).push(event);
    switch (event.type) {
      case 'session.update':
        return this.updateSession(event);
      case 'response.create':
        return this.createResponse(event);
      case 'response.cancel':
        if (this.active && (event.response_id === undefined || event.response_id === this.active.id)) this.active.cancelled = true;
        return;
      case 'conversation.item.create': {
        const item = event.item as { type?: unknown } | undefined;
        if (item?.type === 'function_call_output' && this.options.overlapOnClose) {
          // The candidate says something just as the interviewer closes: the service's VAD starts a response.
          void this.runResponse(() => this.speak(this.options.overlapLine, undefined, false));
        }
        return;
      }
      default:
        return;
    }
  }

  private updateSession(event: JsonEvent): void {
    const parsed = sessionUpdateSchema.safeParse(event.session);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      return this.refuse(event.event_id, 'invalid_value', `Invalid session.update: ${first?.path.join('.')}: ${first?.message}`);
    }
    const { type: _type, ...changes } = parsed.data;
    this.record.session = { ...this.record.session, ...changes };
    this.send({ type: 'session.updated', session: { object: 'realtime.session', ...this.record.session } });
  }

  private createResponse(event: JsonEvent): void {
    if (this.active) {
      return this.refuse(
        event.event_id,
        'conversation_already_has_active_response',
        'Conversation already has an active response in progress.',
      );
    }
    const response = (event.response ?? {}) as { metadata?: Record<string, string> | null };
    const metadata = response.metadata ?? undefined;
    if (metadata?.purpose === 'closing') void this.runResponse(() => this.speak(this.options.closingRemark, metadata));
    else void this.runResponse(() => this.nextTurn(metadata));
  }

  /** Like the real service with create_response: a finished answer triggers the next interviewer turn. */
  private onUtterance(): void {
    if (this.record.ended) return;
    const failure = this.options.midSessionFailure;
    // The answer is lost with the connection that is about to drop.
    if (failure?.kind === 'drop-before-answer') return;
    // Only an answer to the afterTurns-th line counts; speech over the lines before it is not heard.
    if (failure?.kind === 'drop-after-answer' && this.turns < failure.afterTurns) return;
    this.record.utterances += 1;
    const n = this.record.utterances;
    const itemId = newId('item');
    this.send({ type: 'input_audio_buffer.speech_stopped', item_id: itemId });
    this.send({ type: 'input_audio_buffer.committed', item_id: itemId });
    if (this.options.failTranscriptions.includes(n)) {
      this.send({
        type: 'conversation.item.input_audio_transcription.failed',
        item_id: itemId,
        content_index: 0,
        error: { type: 'transcription_error', code: 'audio_unintelligible', message: 'Audio could not be transcribed.' },
      });
    } else {
      const lines = this.options.answers;
      const transcript = lines[(n - 1) % lines.length] ?? `Answer ${n}.`;
      this.send({
        type: 'conversation.item.input_audio_transcription.delta',
        item_id: itemId,
        content_index: 0,
        delta: transcript.slice(0, 12),
      });
      // Like the service, the transcription's own usage comes with it (billed at the transcription model's price).
      this.send({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: itemId,
        content_index: 0,
        transcript,
        usage: transcriptionUsage,
      });
    }
    if (this.closeCalled || this.nextQuestion === 0) return;
    if (failure?.kind === 'drop-after-answer' && this.turns === failure.afterTurns) {
      this.options.midSessionFailure = null;
      void this.close();
      return;
    }
    if (this.active) this.pendingVadTurn = true;
    else void this.runResponse(() => this.nextTurn());
  }

  /** Runs one response, then a VAD turn that queued meanwhile. */
  private async runResponse(turn: () => Promise<void>): Promise<void> {
    await turn();
    if (this.pendingVadTurn && !this.active && !this.record.ended && !this.closeCalled) {
      this.pendingVadTurn = false;
      await this.runResponse(() => this.nextTurn());
    }
  }

  private async nextTurn(metadata?: Record<string, string>): Promise<void> {
    if (this.closeCalled) return;
    const limit = Math.min(this.questions.length, this.options.maxQuestions ?? Infinity);
    if (this.nextQuestion >= limit) {
      await this.callCloseSession();
      return;
    }
    const question = this.questions[this.nextQuestion] ?? 'Tell me about yourself.';
    const opening = this.turns === 0 ? (this.resumed ? 'Welcome back.' : this.options.greeting) : null;
    const text = opening ? `${opening} ${question}` : question;
    this.nextQuestion += 1;
    await this.options.turnGate?.('before', this.turns + 1);
    if (this.record.ended) return;
    await this.speak(text, metadata);
  }

  private async callCloseSession(): Promise<void> {
    this.closeCalled = true;
    const active = this.startResponse();
    const args = JSON.stringify({ reason: this.options.closeReason });
    const callId = newId('call');
    this.send({ type: 'response.function_call_arguments.done', response_id: active.id, call_id: callId, arguments: args });
    this.finishResponse(active, [{ id: newId('item'), type: 'function_call', name: 'close_session', call_id: callId, arguments: args }]);
  }

  /** `response.created` for a new response; it is the active one until finishResponse. */
  private startResponse(metadata?: Record<string, string>): ActiveResponse {
    const active = { id: newId('resp'), cancelled: false };
    this.active = active;
    this.send({
      type: 'response.created',
      response: { id: active.id, object: 'realtime.response', status: 'in_progress', metadata: metadata ?? null },
    });
    return active;
  }

  private finishResponse(active: ActiveResponse, output: JsonEvent[]): void {
    const status = active.cancelled ? 'cancelled' : 'completed';
    this.send({
      type: 'response.done',
      response: {
        id: active.id,
        object: 'realtime.response',
        status,
        status_details: active.cancelled ? { type: 'cancelled', reason: 'client_cancelled' } : null,
        output: active.cancelled ? [] : output,
        usage,
      },
    });
    if (this.active === active) this.active = null;
  }

  /** `transcriptFirst`: the line's transcript before its audio (as the service's fast text does). */
  private async speak(text: string, metadata?: Record<string, string>, transcriptFirst = true): Promise<void> {
    const active = this.startResponse(metadata);
    await delay(this.options.responseLatencyMs);
    if (!active.cancelled && !this.record.ended) {
      this.send({ type: 'output_audio_buffer.started', response_id: active.id });
      const itemId = newId('item');
      const transcript = () =>
        this.send({
          type: 'response.output_audio_transcript.done',
          response_id: active.id,
          item_id: itemId,
          output_index: 0,
          content_index: 0,
          transcript: text,
        });
      this.send({
        type: 'response.output_audio_transcript.delta',
        response_id: active.id,
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        delta: text.slice(0, 10),
      });
      if (transcriptFirst) transcript();
      // A test may hold the turn in the speaking state; the tone keeps playing until it lets go.
      let released = !this.options.turnGate;
      if (this.options.turnGate) {
        void Promise.resolve(this.options.turnGate('speaking', this.turns + 1)).finally(() => {
          released = true;
        });
      }
      await this.playTone(this.options.speechMs, () => released || active.cancelled);
      if (!transcriptFirst && !active.cancelled) transcript();
    }
    this.finishResponse(active, [{ type: 'message', role: 'assistant', content: [{ type: 'output_audio', transcript: text }] }]);
    this.send({ type: active.cancelled ? 'output_audio_buffer.cleared' : 'output_audio_buffer.stopped', response_id: active.id });
    this.turns += 1;
    await this.maybeFail();
  }

  private async maybeFail(): Promise<void> {
    const failure = this.options.midSessionFailure;
    if (!failure || failure.kind === 'drop-after-answer' || this.turns !== failure.afterTurns) return;
    const message = failure.message ?? 'The session ended unexpectedly.';
    if (failure.kind === 'fatal-error') {
      this.send({ type: 'error', error: { type: 'invalid_request_error', code: 'session_expired', message, param: null, event_id: null } });
      await this.close();
    } else if (failure.kind === 'recoverable-error') {
      this.send({
        type: 'error',
        error: { type: 'invalid_request_error', code: 'invalid_value', message, param: 'item.content', event_id: null },
      });
    } else if (failure.kind === 'failed-response') {
      const active = this.startResponse();
      this.send({
        type: 'response.done',
        response: {
          id: active.id,
          object: 'realtime.response',
          status: 'failed',
          status_details: { type: 'failed', error: { type: 'insufficient_quota', message } },
          output: [],
          usage,
        },
      });
      this.active = null;
    } else {
      // A drop happens once per script: the reconnected call goes on.
      this.options.midSessionFailure = null;
      await this.close();
    }
  }

  private async playTone(ms: number, released: () => boolean): Promise<void> {
    const frames = Math.max(1, Math.round(ms / FRAME_MS));
    for (let i = 0; (i < frames || !released()) && !this.record.ended && !this.active?.cancelled; i++) {
      this.seq = (this.seq + 1) & 0xffff;
      this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
      const header = new RtpHeader({ payloadType: 111, sequenceNumber: this.seq, timestamp: this.timestamp, marker: i === 0 });
      void this.transceiver?.sender.sendRtp(new RtpPacket(header, TONE)).catch(() => undefined);
      await delay(FRAME_MS);
    }
  }

  private end(): void {
    if (this.record.ended) return;
    this.record.ended = true;
    this.vad?.dispose();
    this.vad = null;
    this.sideband?.close(1000, 'call ended');
    this.onEnd(this);
  }

  /** POST /v1/realtime/calls/{id}/hangup. */
  async hangup(): Promise<void> {
    this.record.hungUp = true;
    await this.close();
  }

  /** Hangs up from the provider side (also the "dropped connection" failure mode). */
  async close(): Promise<void> {
    this.end();
    try {
      this.channel?.close();
    } catch {
      // already closed
    }
    await closePeerConnection(this.pc).catch(() => undefined);
  }
}
