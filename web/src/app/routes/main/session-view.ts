import type { ReactNode } from 'react';
import type { SessionPhase } from '../../../features/interview/session-controller';

/**
 * What the main screen shows of the interview session. The session's code (controller, transports,
 * results overlay) is a lazy chunk (session-host.tsx); until it has loaded the screen shows `idleView`,
 * whose start button only asks for a start that the session runs as soon as it is there.
 */
export interface SessionView {
  phase: SessionPhase;
  speaking: boolean;
  startError: string | null;
  start: () => void;
  stop: () => void;
  /** While interrupted: the reconnect choice (docs/product-rules.md, Session lifecycle), rendered by the session's chunk. */
  reconnect: ReactNode;
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
    speaking: false,
    startError: null,
    start: requestStart,
    stop: () => {},
    reconnect: null,
    messages: null,
    footer: null,
    overlay: null,
  };
}
