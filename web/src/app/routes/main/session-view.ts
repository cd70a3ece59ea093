import type { ReactNode } from 'react';
import type { SessionPhase } from '../../../features/interview/session-controller';

/**
 * What the main screen shows of the interview session. The session's code (controller, transports,
 * results overlay) is a lazy chunk (session-host.tsx); until it has loaded the screen shows `idleView`,
 * whose start button only asks for a start that the session runs as soon as it is there.
 */
export interface SessionView {
  phase: SessionPhase;
  startError: string | null;
  start: () => void;
  /** While connected: the status in its colours (features/interview/live-status.tsx); null shows 'Not Connected'. */
  status: ReactNode;
  /**
   * Once a session runs: 'disconnect', 'Loading Results ...' or the reconnect choice (docs/product-rules.md,
   * Session lifecycle; features/interview/running-controls.tsx); null shows the start button.
   */
  running: ReactNode;
  /** The interviewer's last messages (null: the empty state). */
  messages: ReactNode;
  /** Notice, interim text and typed answer of an active session. */
  footer: ReactNode;
  /** The results overlay. */
  overlay: ReactNode;
}

export function idleView(startRequested: boolean, requestStart: () => void): SessionView {
  return {
    phase: startRequested ? 'starting' : 'idle',
    startError: null,
    start: requestStart,
    status: null,
    running: null,
    messages: null,
    footer: null,
    overlay: null,
  };
}
