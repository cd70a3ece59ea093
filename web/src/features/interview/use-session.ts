import { useEffect, useState, useSyncExternalStore } from 'react';
import { incompleteLevelText } from '../../../../domain/level-completion';
import type { LiveSession, QuestionSet } from '../../../../contract';
import type { TurnPauses } from '../../../../domain/answer-ending';
import { abandonSession, fetchLiveSession, fetchToken, rateTranscript, reportSession, resumeSession } from '../../lib/session-api';
import { failureForLog } from '../../lib/http';
import { checkMicrophone } from '../../lib/microphone-check';
import { createTransport } from '../../lib/voice/create-transport';
import { schedule } from '../../lib/schedule';
import { canRecogniseSpeech } from '../../lib/speech-support';
import { useLatest } from '../../lib/use-latest';
import { createScreenWakeLock } from '../../lib/wake-lock';
import { OutOfTokensError, RATING_NETWORK_ERROR, ResumeRefusedError, SessionController, type RateOutcome } from './session-controller';
import { StartFailedError, TOKEN_FAILED_TEXT } from './start-failure';
import { createSessionMemory } from './session-memory';

export const TOKEN_ERROR = 'Failed to get session token';

export interface UseSessionOptions {
  email: string | null;
  onNeedTopic: () => void;
  onOutOfTokens: () => void;
  /** The server's voice mode: the candidate speaks into a microphone in these. */
  voiceMode: 'openai-realtime' | 'browser-speech' | 'speech-pipeline';
  /** The pauses that end a spoken answer (the server's TURN_PAUSE_* settings). */
  turnPauses: TurnPauses;
  /** An interview from an earlier page was found open (its choice is about to show). */
  onLiveSession?: (live: LiveSession) => void;
}

/** Wraps the one session controller for React; components only render what it exposes. */
export function useSession(options: UseSessionOptions) {
  const latest = useLatest(options);
  const [controller] = useState(() => createSessionController(() => latest.current));

  useEffect(() => () => controller.dispose(), [controller]);
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const live = useLiveSession(options.email, snapshot.phase === 'idle', (found) => latest.current.onLiveSession?.(found));
  useLeavePrompt(snapshot.phase === 'starting' || snapshot.phase === 'active' || snapshot.phase === 'interrupted');

  return {
    snapshot,
    start: (set: QuestionSet | null) => void controller.start(set),
    stop: () => void controller.stop(),
    reconnect: () => controller.reconnect(),
    sendText: (text: string) => controller.sendText(text),
    /** The typed answer's unsent text, kept across a reload (session-memory.ts). */
    draft: () => controller.draft(),
    saveDraft: (text: string) => controller.saveDraft(text),
    endAnswer: () => controller.endAnswer(),
    /** An interview left open by an earlier page (docs/product-rules.md, Session lifecycle), until the candidate chose. */
    live: live.session,
    continueLive: () => live.take((found) => void controller.continueLive(found)),
    endLive: () => live.take((found) => void controller.endLive(found)),
  };
}

/** The controller and its dependencies; `options()` gives the hook's newest options when a call needs them. */
function createSessionController(options: () => UseSessionOptions): SessionController {
  return new SessionController({
    async fetchToken(questionSetId) {
      const email = options().email;
      if (!email) throw new Error(TOKEN_ERROR);
      const result = await fetchToken(email, questionSetId);
      if (result.ok) return result.data;
      if (result.kind === 'http' && result.status === 402) throw new OutOfTokensError();
      console.error('The session token request failed:', failureForLog(result));
      throw new StartFailedError(TOKEN_ERROR, result.kind === 'http' && result.serverError ? result.serverError : TOKEN_FAILED_TEXT);
    },
    // Browser speech can fall back to typed answers; the voice modes cannot work without a microphone.
    checkMicrophone: () => (options().voiceMode === 'browser-speech' ? Promise.resolve(null) : checkMicrophone()),
    async abandon(sessionId) {
      const email = options().email;
      if (!email) return false;
      const result = await abandonSession(email, sessionId);
      if (!result.ok) console.error('The session credit could not be returned:', failureForLog(result));
      return result.ok && result.data.creditReturned;
    },
    async report(sessionId, report) {
      const email = options().email;
      if (!email) return;
      // Browser speech without speech recognition is typed (docs/product-rules.md, Session telemetry).
      const body =
        report.event === 'connected' && options().voiceMode === 'browser-speech'
          ? { ...report, input: canRecogniseSpeech() ? ('voice' as const) : ('typed' as const) }
          : report;
      const result = await reportSession(email, sessionId, body);
      if (!result.ok) console.warn('The session report was not taken:', failureForLog(result));
    },
    async resumeSession(sessionId) {
      const email = options().email;
      if (!email) throw new Error(TOKEN_ERROR);
      const result = await resumeSession(email, sessionId);
      if (result.ok) return result.data;
      // A refusal (e.g. the session's resumes are used up) is final: its sentence is shown as given.
      if (result.kind === 'http' && result.status < 500 && result.serverError) throw new ResumeRefusedError(result.serverError);
      throw new Error(result.kind === 'http' ? `${result.status} ${result.message}` : 'The session could not be resumed.');
    },
    createTransport: (token) => createTransport(token, { userEmail: options().email ?? '', turnPauses: options().turnPauses }),
    async rate(request): Promise<RateOutcome> {
      const email = options().email;
      if (!email) return { ok: false, message: RATING_NETWORK_ERROR };
      const result = await rateTranscript(email, request);
      if (result.ok) {
        const { markdown, score, level, breakdown } = result.data;
        return { ok: true, markdown, score, levelNotice: incompleteLevelText(level, score, breakdown.length) };
      }
      if (result.kind === 'http') return { ok: false, message: result.serverError ? `Error: ${result.serverError}` : 'Unknown error' };
      if (result.kind === 'invalid') return { ok: false, message: 'Unknown error' };
      console.error('Error submitting transcript for rating:', result.error);
      return { ok: false, message: RATING_NETWORK_ERROR };
    },
    now: () => performance.now(),
    schedule,
    wakeLock: createScreenWakeLock(),
    memory: createSessionMemory(),
    log: console,
    onNeedTopic: () => options().onNeedTopic(),
    onOutOfTokens: () => options().onOutOfTokens(),
  });
}

/**
 * docs/product-rules.md, Session lifecycle (Leaving and coming back): once someone is logged in and
 * no session runs on this page, asks the server for an interview still open from an earlier page.
 */
function useLiveSession(email: string | null, idle: boolean, onFound: (live: LiveSession) => void) {
  const [session, setSession] = useState<LiveSession | null>(null);
  const found = useLatest(onFound);
  useEffect(() => {
    if (!email || !idle) return;
    let gone = false;
    void fetchLiveSession(email).then((result) => {
      if (gone) return;
      if (!result.ok) {
        console.warn('Could not look for an open interview:', failureForLog(result));
        return;
      }
      if (result.data.session) {
        found.current(result.data.session);
        setSession(result.data.session);
      }
    });
    return () => {
      gone = true;
    };
  }, [email, idle, found]);
  return {
    session,
    take(run: (live: LiveSession) => void) {
      if (!session) return;
      setSession(null);
      run(session);
    },
  };
}

/** The browser's own leave prompt while an interview runs (a reload or a closed tab asks first). */
function useLeavePrompt(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
}
