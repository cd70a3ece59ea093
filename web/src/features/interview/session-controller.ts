/**
 * The ONE owner of an interview session (docs/product-rules.md, Session lifecycle): idle → starting → active → disconnected, plus
 * rating while the transcript is being rated, and interrupted while a dropped connection is being
 * reconnected or the candidate chooses between reconnecting and ending. The phase is in the
 * snapshot the screen reads; what else one session needs is its `SessionRun`, whose interviewer's
 * ending is a state machine of its own (closing.ts). Pure: no DOM, no fetch; everything outside comes
 * in through `SessionDeps`, so unit tests drive it with a scripted transport.
 */
import type { LiveSession, RateRequest, SessionReport, TokenResponse, TranscriptEntry } from '../../../../contract';
import { MAX_DURATION_SECONDS, MAX_REPORT_DETAIL } from '../../../../contract/limits';
import { wholeSecondsBetween } from '../../../../domain/format';
import { CLOSE_DELAY_MS } from '../../../../domain/interviewer-protocol';
import { isReconnectable } from '../../lib/voice/turn-failure';
import type { StartOptions, TransportEvent, VoiceTransport } from '../../lib/voice/types';
import type { Schedule } from '../../lib/schedule';
import { connectionFailedText, OUT_OF_SESSIONS_TEXT, StartFailedError, TOKEN_FAILED_TEXT } from './start-failure';
import type { RatingView } from '../../components/results-overlay';
import { InterviewerClosing } from './closing';
import type { SessionMemory } from './session-memory';
// The texts live in their own module so the reconnect choice, which the first screen's controls
// import, does not bring the controller into the first chunk (docs/first-screen.md).
import { CONNECTION_LOST_CHOICE, CONTINUING_NOTICE, RECONNECT_FAILED_CHOICE, RECONNECTING_NOTICE } from './reconnect-texts';

export type { RatingView };

/** docs/product-rules.md, Session lifecycle: the last three interviewer messages are shown. */
export const VISIBLE_INTERVIEWER_MESSAGES = 3;

type EndReason = NonNullable<RateRequest['endReason']>;

export type SessionPhase = 'idle' | 'starting' | 'active' | 'interrupted' | 'disconnected' | 'rating';

/** docs/product-rules.md, Session lifecycle: what the reconnect choice shows while interrupted. */
export interface ReconnectView {
  /** A resume is under way (the automatic one, or Reconnect was pressed). */
  trying: boolean;
  /** The sentence the candidate reads (the server's own when it refused the resume). */
  message: string;
  /** False once the server refused the resume (e.g. the session's resumes are used up): only ending is left. */
  canRetry: boolean;
}

export interface SessionSnapshot {
  phase: SessionPhase;
  transcript: TranscriptEntry[];
  /** Oldest first, at most three. */
  interviewerMessages: string[];
  speaking: boolean;
  interim: string;
  notice: string | null;
  acceptsTypedAnswers: boolean;
  rating: RatingView | null;
  /** Why the last start failed, in one sentence (shown near the start button); null otherwise. */
  startError: string | null;
  /** Set while interrupted. */
  reconnect: ReconnectView | null;
}

/** The token call answered 402: the candidate has no credits left. */
export class OutOfTokensError extends Error {
  constructor() {
    super('You have run out of tokens.');
    this.name = 'OutOfTokensError';
  }
}

/** What a rating call produced; `message` is already the text the overlay shows. */
/** `levelNotice`: why the interview did not complete its level (domain/level-completion.ts), null when it did. */
export type RateOutcome = { ok: true; markdown: string; score: number; levelNotice?: string | null } | { ok: false; message: string };

export interface SessionLog {
  info(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export interface SessionDeps {
  /** Resolves with the token; rejects with OutOfTokensError on 402, else Error('Failed to get session token'). */
  fetchToken(questionSetId: number): Promise<TokenResponse>;
  /**
   * After a dropped connection: a new token for the same session (no credit spent). Rejects with
   * ResumeRefusedError when the server refused with a sentence (4xx), with any other error otherwise.
   */
  resumeSession(sessionId: string): Promise<TokenResponse>;
  createTransport(token: TokenResponse): Promise<VoiceTransport>;
  /** Never meant to throw; a throw is still shown as the generic rating error. */
  rate(request: RateRequest): Promise<RateOutcome>;
  /** Milliseconds, monotonic (performance.now in the browser). */
  now(): number;
  /** Runs fn after ms; returns a cancel function. */
  schedule: Schedule;
  wakeLock: { acquire(): void; release(): void };
  log: SessionLog;
  /** Start was pressed with no selected set: open the topic list. */
  onNeedTopic(): void;
  /** The token call answered 402: open the email dialog with the out-of-tokens text. */
  onOutOfTokens(): void;
  /** Voice modes: asks for the microphone before a session is minted; a sentence when refused. */
  checkMicrophone?(): Promise<string | null>;
  /** A minted session whose start failed: the server gives the credit back; true when it did. */
  abandon?(sessionId: string): Promise<boolean>;
  /** Session telemetry (docs/product-rules.md, Session telemetry): connected, or why it ended. Never throws. */
  report?(sessionId: string, report: SessionReport): Promise<void>;
  /** What a reload must not lose: the unsent typed answer, the line last heard (session-memory.ts). */
  memory?: SessionMemory;
}

/** The server refused a resume (4xx): its sentence is shown, and pressing Reconnect again would not help. */
export class ResumeRefusedError extends Error {
  constructor(readonly sentence: string) {
    super(sentence);
    this.name = 'ResumeRefusedError';
  }
}

export const RATING_NETWORK_ERROR = 'Error submitting transcript for rating.';
export {
  CONNECTION_LOST_CHOICE,
  CONTINUING_NOTICE,
  RECONNECT_FAILED_CHOICE,
  RECONNECT_REFUSED_HINT,
  RECONNECTING_NOTICE,
} from './reconnect-texts';

/** What the screen stops showing once the voice connection is gone (ended, or interrupted). */
const ENDED = { speaking: false, interim: '', acceptsTypedAnswers: false, reconnect: null } satisfies Partial<SessionSnapshot>;

const initialSnapshot: SessionSnapshot = {
  phase: 'idle',
  transcript: [],
  interviewerMessages: [],
  speaking: false,
  interim: '',
  notice: null,
  acceptsTypedAnswers: false,
  rating: null,
  startError: null,
  reconnect: null,
};

/** What the controller keeps of one session beside its snapshot; each start or adoption begins a new one. */
interface SessionRun {
  /** deps.now() at the start: the reference of every `at` and of the duration. */
  readonly startedAt: number;
  readonly questionSetId: number;
  /** Known once the token is minted (or the live session is adopted). */
  sessionId: string | undefined;
  /** The interviewer's ending (closing.ts); cancelled when the session ends any other way. */
  readonly closing: InterviewerClosing;
  /** A dropped connection is reconnected once by itself per session; later drops go straight to the choice. */
  reconnectTried: boolean;
  /** An answer that got no reply before the connection dropped; the continuation sends it again. */
  pendingAnswer: string | undefined;
  /** That answer was typed. */
  pendingTyped: boolean;
  /** The interviewer's last line heard to its end on this page (a resume does not say it again). */
  heard: string | undefined;
}

export class SessionController {
  private snapshot: SessionSnapshot = initialSnapshot;
  private readonly listeners = new Set<() => void>();
  private transport: VoiceTransport | null = null;
  private run: SessionRun;
  /** Counts resume attempts: an attempt overtaken by another (or by ending) drops what it opened. */
  private resumeAttempt = 0;
  /** True while a typed answer is handed to the transport (sendText). */
  private typing = false;

  constructor(private readonly deps: SessionDeps) {
    this.run = this.newRun(0, 0);
  }

  /** Each start or adoption begins a new run; its closing ends the session as the interviewer's. */
  private newRun(startedAt: number, questionSetId: number, sessionId?: string): SessionRun {
    const closing = new InterviewerClosing(this.deps.schedule, () => void this.stop('closed-by-interviewer'));
    return {
      startedAt,
      questionSetId,
      sessionId,
      closing,
      reconnectTried: false,
      pendingAnswer: undefined,
      pendingTyped: false,
      heard: undefined,
    };
  }

  getSnapshot = (): SessionSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** docs/product-rules.md, Session lifecycle: needs a selected set; a second press while starting or active does nothing. */
  async start(set: { id: number } | null): Promise<void> {
    const { phase } = this.snapshot;
    if (phase === 'starting' || phase === 'active' || phase === 'rating') return;
    if (!set) {
      this.deps.onNeedTopic();
      return;
    }
    this.update({ ...initialSnapshot, phase: 'starting' });
    this.run = this.newRun(this.deps.now(), set.id);
    const refusal = this.deps.checkMicrophone ? await this.deps.checkMicrophone() : null;
    if (refusal) {
      this.deps.log.error('Failed to start session:', refusal);
      this.update({ ...initialSnapshot, phase: 'idle', startError: refusal });
      return;
    }
    const run = this.run;
    try {
      const token = await this.deps.fetchToken(set.id);
      run.sessionId = token.sessionId;
      const transport = await this.openTransport(run, token, () => true, 'The voice connection failed while starting.');
      if (!transport) return;
      this.update({ phase: 'active', acceptsTypedAnswers: transport.acceptsTypedAnswers });
      this.deps.wakeLock.acquire();
      void this.report({ event: 'connected' });
    } catch (error) {
      if (error instanceof OutOfTokensError) this.deps.onOutOfTokens();
      this.deps.log.error('Failed to start session:', error instanceof Error ? error.message : error);
      const minted = this.run.sessionId;
      this.update({ ...initialSnapshot, phase: 'idle', startError: await this.startFailure(error, minted) });
    }
  }

  /**
   * docs/product-rules.md, Session lifecycle (Leaving and coming back): the interview the server
   * still holds open from an earlier page (a reload, a closed tab, another tab) goes on in the same
   * session through the resume path (no credit), with the transcript the server stored.
   */
  async continueLive(live: LiveSession): Promise<void> {
    if (!this.adopt(live)) return;
    this.update({ phase: 'interrupted', reconnect: { trying: true, message: CONTINUING_NOTICE, canRetry: true } });
    await this.resume(CONTINUING_NOTICE);
  }

  /** The same interview ended instead: what the server stored is rated (nothing said: the credit comes back). */
  async endLive(live: LiveSession): Promise<void> {
    if (!this.adopt(live)) return;
    this.update({ phase: 'active' });
    await this.stop('stopped-by-candidate');
  }

  /** Takes the open session over (only from idle or after an ended one); false when a session is under way here. */
  private adopt(live: LiveSession): boolean {
    const { phase } = this.snapshot;
    if (phase !== 'idle' && phase !== 'disconnected') return false;
    this.run = this.newRun(this.deps.now() - live.elapsedSeconds * 1000, live.questionSetId, live.sessionId);
    // An earlier page of this tab may have heard the last line to its end (session-memory.ts).
    this.run.heard = this.deps.memory?.read(live.sessionId).heard;
    const lines = live.transcript.filter((entry) => entry.role === 'interviewer').map((entry) => entry.transcript);
    this.update({ ...initialSnapshot, transcript: live.transcript, interviewerMessages: lines.slice(-VISIBLE_INTERVIEWER_MESSAGES) });
    return true;
  }

  /** The sentence for a failed start; a minted session is abandoned first so its credit comes back. */
  private async startFailure(error: unknown, minted: string | undefined): Promise<string> {
    if (error instanceof OutOfTokensError) return OUT_OF_SESSIONS_TEXT;
    if (minted === undefined) return error instanceof StartFailedError ? error.sentence : TOKEN_FAILED_TEXT;
    const detail = (error instanceof Error ? error.message : String(error)).slice(0, MAX_REPORT_DETAIL);
    await this.report({ event: 'ended', reason: 'failed-start', detail });
    let returned = false;
    try {
      returned = (await this.deps.abandon?.(minted)) ?? false;
    } catch (abandonError) {
      this.deps.log.error('Could not give the session credit back:', abandonError instanceof Error ? abandonError.message : abandonError);
    }
    return connectionFailedText(returned);
  }

  /**
   * Manual `disconnect`, the close-session timer and transport failures all end here. `reason` is
   * what the telemetry records; ending from the reconnect choice is a lost connection.
   */
  async stop(reason: EndReason = 'stopped-by-candidate'): Promise<void> {
    if (this.snapshot.phase !== 'active' && this.snapshot.phase !== 'interrupted') return;
    const ended = this.snapshot.phase === 'interrupted' && reason === 'stopped-by-candidate' ? 'connection-lost' : reason;
    this.teardown();
    this.forgetMemory();
    const request = this.rateRequest(ended);
    this.update({ ...ENDED, phase: 'rating', rating: { status: 'loading' } });
    let outcome: RateOutcome;
    try {
      outcome = await this.deps.rate(request);
    } catch (error) {
      this.deps.log.error('Error submitting transcript for rating:', error);
      outcome = { ok: false, message: RATING_NETWORK_ERROR };
    }
    this.update({
      phase: 'disconnected',
      rating: outcome.ok
        ? { status: 'ready', markdown: outcome.markdown, score: outcome.score, levelNotice: outcome.levelNotice ?? null }
        : { status: 'error', message: outcome.message },
    });
  }

  /** A typed answer (only when the transport accepts them). */
  sendText(text: string): boolean {
    const answer = text.trim();
    if (!answer || this.snapshot.phase !== 'active' || !this.transport?.acceptsTypedAnswers) return false;
    // The transports hear a typed answer at once (synchronously): its transcript line is marked typed.
    this.typing = true;
    try {
      this.transport.sendText(answer);
    } finally {
      this.typing = false;
    }
    this.saveDraft('');
    return true;
  }

  /** The typed answer box's unsent text of this session, kept across a reload (session-memory.ts). */
  draft(): string {
    const sessionId = this.run.sessionId;
    return (sessionId && this.deps.memory?.read(sessionId).draft) || '';
  }

  saveDraft(text: string): void {
    const sessionId = this.run.sessionId;
    if (sessionId && this.snapshot.phase === 'active') this.deps.memory?.write(sessionId, { draft: text });
  }

  /** The interview ended: the page keeps nothing of it. */
  private forgetMemory(): void {
    if (this.run.sessionId) this.deps.memory?.forget(this.run.sessionId);
  }

  /** The candidate ends the spoken answer in progress at once (Done, Enter); see VoiceTransport.endAnswer. */
  endAnswer(): void {
    if (this.snapshot.phase === 'active') this.transport?.endAnswer?.();
  }

  /**
   * Leaving the main screen (e.g. for History) mid-interview: close everything and, when the
   * candidate has answered anything, still submit the transcript for rating in the background, so
   * the interview reaches the history instead of being lost. Nothing is shown: the screen is gone.
   */
  dispose(): void {
    const wasActive = this.snapshot.phase === 'active' || this.snapshot.phase === 'interrupted';
    this.teardown();
    if (!wasActive) return;
    this.forgetMemory();
    if (!this.snapshot.transcript.some((entry) => entry.role === 'interviewee')) {
      // Nothing to rate: only the telemetry hears that the candidate left.
      void this.report({ event: 'ended', reason: 'stopped-by-candidate' });
      return;
    }
    const request = this.rateRequest('stopped-by-candidate');
    this.update({ ...ENDED, phase: 'disconnected' });
    this.deps.log.info('Left the session; submitting what was said for rating in the background.');
    this.deps.rate(request).then(
      (outcome) => {
        if (!outcome.ok) this.deps.log.error('Error submitting transcript for rating:', outcome.message);
      },
      (error: unknown) => this.deps.log.error('Error submitting transcript for rating:', error),
    );
  }

  /**
   * The one "open transport" step of start() and resume(): create the transport, make it the current
   * one, start it, and check that it still is (a `failed` event while starting already dropped it)
   * and that the attempt is `still()` wanted. Resolves null when the attempt was overtaken before
   * the transport started (it is closed); throws `failure` (the transport dropped) when it did not start.
   */
  private async openTransport(
    run: SessionRun,
    token: TokenResponse,
    still: () => boolean,
    failure: string,
    options?: StartOptions,
  ): Promise<VoiceTransport | null> {
    const transport = await this.deps.createTransport(token);
    if (!still()) {
      transport.close();
      return null;
    }
    this.transport = transport;
    try {
      await transport.start(token, (event) => this.handle(transport, event), run.startedAt, options);
      if (this.transport !== transport || !still()) throw new Error(failure);
    } catch (error) {
      this.drop(transport);
      throw error;
    }
    return transport;
  }

  /** The one teardown of a session that ends: the closing timer, a resume under way, the transport, the wake lock. */
  private teardown(): void {
    this.run.closing.cancel();
    this.resumeAttempt++;
    this.drop(this.transport);
    this.deps.wakeLock.release();
  }

  /** Closes a transport; when it is the current one, there is none any more. */
  private drop(transport: VoiceTransport | null): void {
    if (this.transport === transport) this.transport = null;
    transport?.close();
  }

  /** What the rating call gets: the transcript so far and the whole seconds since start. */
  private rateRequest(endReason: EndReason): RateRequest {
    const { startedAt, questionSetId, sessionId } = this.run;
    return {
      transcripts: this.snapshot.transcript,
      durationSeconds: Math.min(MAX_DURATION_SECONDS, wholeSecondsBetween(startedAt, this.deps.now())),
      questionSetId,
      ...(sessionId ? { sessionId } : {}),
      endReason,
    };
  }

  private handle(source: VoiceTransport, event: TransportEvent): void {
    if (source !== this.transport) return; // a late event from a closed transport
    switch (event.type) {
      case 'interviewer':
        return this.addInterviewerLine(event.text, event.at);
      case 'candidate':
        return this.addAnswer(event.text, event.at);
      case 'interim':
        return this.update({ interim: event.text });
      case 'speaking':
        return this.update({ speaking: event.speaking });
      case 'notice':
        return this.update({ notice: event.text });
      case 'close-requested':
        return this.closeRequested(event.reason);
      case 'heard':
        return this.lineHeard(event.text);
      case 'cut-off':
        return this.cutOff(event.text, event.cutAt);
      case 'closing-remark-done':
        return this.run.closing.remarkHeard();
      case 'failed':
        return this.transportFailed(source, event);
    }
  }

  private addInterviewerLine(text: string, at: number): void {
    const entry: TranscriptEntry = { role: 'interviewer', transcript: text, at: atOf(at) };
    this.update({
      transcript: [...this.snapshot.transcript, entry],
      interviewerMessages: [...this.snapshot.interviewerMessages, text].slice(-VISIBLE_INTERVIEWER_MESSAGES),
    });
  }

  /** In time order: an answer's transcription can arrive after the interviewer's reply to it. */
  private addAnswer(text: string, eventAt: number): void {
    const at = atOf(eventAt);
    const transcript = [...this.snapshot.transcript];
    let index = transcript.length;
    while (index > 0 && (transcript[index - 1]?.at ?? 0) > at) index--;
    transcript.splice(index, 0, { role: 'interviewee', transcript: text, at, ...(this.typing ? { input: 'typed' as const } : {}) });
    this.update({ transcript, interim: '' });
  }

  /** docs/product-rules.md, Session lifecycle: the candidate talked over the interviewer's newest line. */
  private cutOff(text: string, cutAt: number): void {
    const transcript = [...this.snapshot.transcript];
    const index = transcript.findLastIndex((entry) => entry.role === 'interviewer');
    const line = transcript[index];
    if (!line || line.transcript !== text) return;
    transcript[index] = { ...line, cutAt: Math.max(0, Math.round(cutAt)) };
    this.update({ transcript });
  }

  private lineHeard(text: string): void {
    this.run.heard = text;
    if (this.run.sessionId) this.deps.memory?.write(this.run.sessionId, { heard: text });
  }

  /** close_session is honoured once: the delay starts while the closing remark is spoken. */
  private closeRequested(reason: string): void {
    if (!this.run.closing.request()) return;
    this.deps.log.info(`Interviewer closed the session (${reason}); ending the session in ${CLOSE_DELAY_MS / 1000} seconds.`);
  }

  private transportFailed(source: VoiceTransport, event: Extract<TransportEvent, { type: 'failed' }>): void {
    if (this.run.closing.state !== 'open' && event.reconnectable) {
      // The connection went away after the goodbye began (the provider hung up): the normal
      // end of an interview the interviewer closed, not a failure.
      this.deps.log.info('The voice connection ended after the closing remark.');
      this.run.closing.remarkHeard();
      return;
    }
    this.deps.log.error('Voice connection failed:', event.message);
    if (event.pendingAnswer) {
      this.run.pendingAnswer = event.pendingAnswer;
      this.run.pendingTyped = event.pendingTyped === true;
    }
    if (this.snapshot.phase === 'active' && event.reconnectable && this.run.sessionId) this.interrupt(source);
    else if (this.snapshot.phase === 'active') void this.stop('connection-lost');
    else this.drop(source);
  }

  /**
   * docs/product-rules.md, Session lifecycle (Reconnecting): the connection dropped mid-interview.
   * The transcript so far stays; the first drop of a session is reconnected by itself, otherwise
   * (and when that fails) the candidate chooses: Reconnect, or end and get feedback.
   */
  private interrupt(dropped: VoiceTransport): void {
    this.drop(dropped);
    const auto = !this.run.reconnectTried;
    this.run.reconnectTried = true;
    this.update({
      ...ENDED,
      phase: 'interrupted',
      reconnect: auto
        ? { trying: true, message: RECONNECTING_NOTICE, canRetry: true }
        : { trying: false, message: CONNECTION_LOST_CHOICE, canRetry: true },
    });
    if (auto) void this.resume();
  }

  /** The Reconnect button: one more resume of the same session (no credit); ignored unless the choice offers it. */
  reconnect(): void {
    const view = this.snapshot.reconnect;
    if (this.snapshot.phase !== 'interrupted' || !view || view.trying || !view.canRetry) return;
    void this.resume();
  }

  /**
   * The same interview in a new connection: a new token for the session (no credit), a new
   * transport; the transcript so far stays. A failure leaves the choice on screen.
   */
  private async resume(message = RECONNECTING_NOTICE): Promise<void> {
    const run = this.run;
    const sessionId = run.sessionId;
    if (!sessionId) return;
    const attempt = ++this.resumeAttempt;
    const current = (): boolean => attempt === this.resumeAttempt && this.snapshot.phase === 'interrupted';
    this.update({ reconnect: { trying: true, message, canRetry: true } });
    try {
      const token = await this.deps.resumeSession(sessionId);
      if (!current()) return;
      const pendingAnswer = run.pendingAnswer;
      const heard = run.heard === undefined ? {} : { heard: run.heard };
      const resumed = {
        resumed: pendingAnswer ? { pendingAnswer, ...(run.pendingTyped ? { pendingTyped: true } : {}), ...heard } : heard,
      };
      const transport = await this.openTransport(run, token, current, 'The voice connection failed while reconnecting.', resumed);
      if (!transport) return;
      if (run.pendingAnswer === pendingAnswer) run.pendingAnswer = undefined;
      this.deps.log.info('Reconnected; the interview goes on.');
      this.deps.wakeLock.acquire();
      this.update({ phase: 'active', reconnect: null, notice: null, acceptsTypedAnswers: transport.acceptsTypedAnswers });
    } catch (error) {
      this.deps.log.error('Reconnecting failed:', error instanceof Error ? error.message : error);
      if (!current()) return;
      // The server refused the resume, or the new connection's first turn (e.g. the session has ended): final.
      const refusal =
        error instanceof ResumeRefusedError ? error.sentence : !isReconnectable(error) && error instanceof Error ? error.message : null;
      this.update({
        reconnect: refusal
          ? { trying: false, message: refusal, canRetry: false }
          : { trying: false, message: RECONNECT_FAILED_CHOICE, canRetry: true },
      });
    }
  }

  /** Telemetry for the current session; a report that fails is only logged by the caller's dep. */
  private report(report: SessionReport): Promise<void> {
    const sessionId = this.run.sessionId;
    if (!sessionId || !this.deps.report) return Promise.resolve();
    return this.deps.report(sessionId, report).catch(() => undefined);
  }

  private update(patch: Partial<SessionSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }
}

function atOf(at: number): number {
  return Number.isFinite(at) ? Math.max(0, Math.round(at)) : 0;
}
