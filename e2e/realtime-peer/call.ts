/**
 * One WebRTC call of the local realtime peer: a werift peer that answers the browser's offer and plays
 * a scripted interviewer over `oai-events` plus an Opus tone on the audio track.
 */
import { randomUUID } from 'node:crypto';

/** Ids shaped like OpenAI's (`resp_…`, `item_…`, `call_…`). */
const newId = (prefix: string): string => `${prefix}_${randomUUID().slice(0, 8)}`;
import {
  type RTCDataChannel,
  RTCPeerConnection,
  RtpHeader,
  RtpPacket,
  type RTCRtpTransceiver,
  useOPUS,
} from 'werift';
import { DEFAULT_VAD, encodeToneFrame, FRAME_MS, FRAME_SAMPLES, OpusEnergyVad } from './audio';
import type { PeerOptions } from './options';

export type JsonEvent = { type: string } & Record<string, unknown>;

export interface CallRecord {
  id: string;
  /** Every client event received over oai-events, in order. */
  clientEvents: JsonEvent[];
  /** Every server event sent, in order. */
  serverEvents: JsonEvent[];
  utterances: number;
  ended: boolean;
}

const TONE = encodeToneFrame();
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RealtimeCall {
  readonly record: CallRecord;
  private readonly pc: RTCPeerConnection;
  private channel: RTCDataChannel | null = null;
  private transceiver: RTCRtpTransceiver | null = null;
  private vad: OpusEnergyVad | null = null;
  private busy = false;
  private pending: Array<() => Promise<void>> = [];
  /** Index of the next question to ask. */
  private nextQuestion = 0;
  private closeCalled = false;
  private turns = 0;
  private seq = Math.floor(Math.random() * 60_000);
  private timestamp = Math.floor(Math.random() * 1_000_000);

  constructor(
    private readonly options: PeerOptions,
    private readonly questions: string[],
    private readonly model: string,
    private readonly onEnd: (call: RealtimeCall) => void,
  ) {
    this.record = { id: `rtc_${randomUUID().replace(/-/g, '').slice(0, 24)}`, clientEvents: [], serverEvents: [], utterances: 0, ended: false };
    this.pc = new RTCPeerConnection({
      codecs: { audio: [useOPUS()], video: [] },
      // Loopback only (environment-notes.md): the browser and this peer share the machine.
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

  private attachChannel(channel: RTCDataChannel): void {
    if (channel.label !== 'oai-events') return;
    this.channel = channel;
    channel.onMessage.subscribe((data) => this.onClientMessage(typeof data === 'string' ? data : data.toString('utf8')));
    const greet = () =>
      this.send({
        type: 'session.created',
        session: { id: `sess_${this.record.id.slice(4)}`, object: 'realtime.session', type: 'realtime', model: this.model },
      });
    channel.stateChanged.subscribe((state) => {
      if (state === 'closed') this.end();
      if (state === 'open') greet();
    });
    // A channel opened by the browser may be announced before werift marks it open.
    if (channel.readyState === 'open') greet();
  }

  private send(event: JsonEvent): void {
    if (this.record.ended || this.channel?.readyState !== 'open') return;
    const withId = { event_id: `event_${randomUUID().slice(0, 12)}`, ...event };
    this.record.serverEvents.push(withId);
    this.channel.send(JSON.stringify(withId));
  }

  private onClientMessage(text: string): void {
    let event: JsonEvent;
    try {
      event = JSON.parse(text) as JsonEvent;
    } catch {
      this.send({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_json', message: 'Invalid JSON.' } });
      return;
    }
    this.record.clientEvents.push(event);
    if (event.type === 'session.update') this.send({ type: 'session.updated', session: { type: 'realtime', model: this.model } });
    if (event.type === 'response.create') {
      const response = event.response as { instructions?: unknown } | undefined;
      if (typeof response?.instructions === 'string') this.enqueue(() => this.speak(this.options.closingRemark));
      else this.enqueue(() => this.nextTurn());
    }
  }

  /** Like the real service with create_response: a finished answer triggers the next interviewer turn. */
  private onUtterance(): void {
    if (this.record.ended) return;
    this.record.utterances += 1;
    const n = this.record.utterances;
    const itemId = newId('item');
    this.send({ type: 'input_audio_buffer.speech_stopped', item_id: itemId });
    this.send({ type: 'input_audio_buffer.committed', item_id: itemId });
    const lines = this.options.answers;
    this.send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: itemId,
      content_index: 0,
      transcript: lines[(n - 1) % lines.length] ?? `Answer ${n}.`,
    });
    if (!this.closeCalled && this.nextQuestion > 0) this.enqueue(() => this.nextTurn());
  }

  /** One response at a time, as the real service allows. */
  private enqueue(turn: () => Promise<void>): void {
    if (this.busy) {
      // A burst of answers while the interviewer talks collapses into one follow-up turn.
      if (this.pending.length === 0) this.pending.push(turn);
      return;
    }
    this.busy = true;
    void (async () => {
      let next: (() => Promise<void>) | undefined = turn;
      while (next && !this.record.ended) {
        await next();
        next = this.pending.shift();
      }
      this.busy = false;
    })();
  }

  private async nextTurn(): Promise<void> {
    if (this.closeCalled) return;
    const limit = Math.min(this.questions.length, this.options.maxQuestions ?? Infinity);
    if (this.nextQuestion >= limit) {
      await this.callCloseSession();
      return;
    }
    const question = this.questions[this.nextQuestion] ?? 'Tell me about yourself.';
    const text = this.nextQuestion === 0 ? `${this.options.greeting} ${question}` : question;
    this.nextQuestion += 1;
    await this.options.turnGate?.('before', this.turns + 1);
    if (this.record.ended) return;
    await this.speak(text);
  }

  private async callCloseSession(): Promise<void> {
    this.closeCalled = true;
    const responseId = this.startResponse();
    this.sendResponseDone(responseId, [
      {
        id: newId('item'),
        type: 'function_call',
        name: 'close_session',
        call_id: newId('call'),
        arguments: JSON.stringify({ reason: this.options.closeReason }),
      },
    ]);
  }

  /** `response.created` for a new response; answers its id. */
  private startResponse(): string {
    const responseId = newId('resp');
    this.send({ type: 'response.created', response: { id: responseId, status: 'in_progress' } });
    return responseId;
  }

  private sendResponseDone(responseId: string, output: JsonEvent[]): void {
    this.send({ type: 'response.done', response: { id: responseId, object: 'realtime.response', status: 'completed', output } });
  }

  private async speak(text: string): Promise<void> {
    const names = this.options.eventNames === 'beta'
      ? { transcript: 'response.audio_transcript.done' }
      : { transcript: 'response.output_audio_transcript.done' };
    const responseId = this.startResponse();
    this.send({ type: 'output_audio_buffer.started', response_id: responseId });
    this.send({ type: names.transcript, response_id: responseId, item_id: newId('item'), output_index: 0, content_index: 0, transcript: text });
    // A test may hold the turn in the speaking state; the tone keeps playing until it lets go.
    let released = !this.options.turnGate;
    if (this.options.turnGate) {
      void Promise.resolve(this.options.turnGate('speaking', this.turns + 1)).finally(() => {
        released = true;
      });
    }
    await this.playTone(this.options.speechMs, () => released);
    this.sendResponseDone(responseId, [
      { type: 'message', role: 'assistant', content: [{ type: this.options.eventNames === 'beta' ? 'audio' : 'output_audio', transcript: text }] },
    ]);
    this.send({ type: 'output_audio_buffer.stopped', response_id: responseId });
    this.turns += 1;
    await this.maybeFail();
  }

  private async maybeFail(): Promise<void> {
    const failure = this.options.midSessionFailure;
    if (!failure || this.turns < failure.afterTurns) return;
    if (failure.kind === 'error') {
      this.send({ type: 'error', error: { type: 'server_error', code: 'session_expired', message: failure.message ?? 'The session ended unexpectedly.' } });
    } else {
      await this.close();
    }
  }

  private async playTone(ms: number, released: () => boolean): Promise<void> {
    const frames = Math.max(1, Math.round(ms / FRAME_MS));
    for (let i = 0; (i < frames || !released()) && !this.record.ended; i++) {
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
    this.onEnd(this);
  }

  /** Hangs up from the provider side (also the "dropped connection" failure mode). */
  async close(): Promise<void> {
    this.end();
    try {
      this.channel?.close();
    } catch {
      // already closed
    }
    await this.pc.close().catch(() => undefined);
  }
}
