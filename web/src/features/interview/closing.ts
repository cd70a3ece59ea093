/**
 * Where the interviewer's ending stands (docs/product-rules.md, Closing). close_session starts the
 * delay while the closing remark is spoken; the session ends when the delay has passed and the
 * remark has been heard, and a remark still playing at the end of the delay gets at most
 * CLOSING_REMARK_WAIT_MS more. Each waiting state holds the cancel of its timer.
 *
 *   open ── close-requested ──▶ remark-playing ── remark heard ──▶ remark-heard ── delay passed ──▶ end
 *                                     └── delay passed ──▶ overtime ── remark heard, or the wait is over ──▶ end
 *
 * One per session run (session-controller.ts); `end` is how the run ends the session.
 */
import { CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS } from '../../../../domain/interviewer-protocol';
import type { Schedule } from '../../lib/schedule';

type State =
  | { state: 'open' }
  /** The delay runs while the remark is spoken. */
  | { state: 'remark-playing'; cancel: () => void }
  /** The delay runs; the remark has been heard (or the provider hung up after it began). */
  | { state: 'remark-heard'; cancel: () => void }
  /** The delay has passed; the remark is still being spoken. */
  | { state: 'overtime'; cancel: () => void };

export type ClosingState = State['state'];

const OPEN: State = { state: 'open' };

export class InterviewerClosing {
  private current: State = OPEN;

  constructor(
    private readonly schedule: Schedule,
    private readonly end: () => void,
  ) {}

  get state(): ClosingState {
    return this.current.state;
  }

  /** close_session is honoured once: true when this request started the closing. */
  request(): boolean {
    if (this.current.state !== 'open') return false;
    this.current = { state: 'remark-playing', cancel: this.schedule(() => this.delayPassed(), CLOSE_DELAY_MS) };
    return true;
  }

  /** The closing remark has been played out (or the provider hung up after it began). */
  remarkHeard(): void {
    const closing = this.current;
    if (closing.state === 'remark-playing') this.current = { state: 'remark-heard', cancel: closing.cancel };
    else if (closing.state === 'overtime') this.end();
  }

  /** The session ends some other way: the waiting timer is cancelled and the closing is open again. */
  cancel(): void {
    if (this.current.state !== 'open') this.current.cancel();
    this.current = OPEN;
  }

  private delayPassed(): void {
    const closing = this.current;
    if (closing.state === 'remark-heard') this.end();
    else if (closing.state === 'remark-playing') {
      this.current = { state: 'overtime', cancel: this.schedule(() => this.end(), CLOSING_REMARK_WAIT_MS) };
    }
  }
}
