/**
 * Work the server does on its own while it runs: failed ratings are retried with backoff, sessions
 * left open with no activity are ended and rated (left-sessions.ts), and open sessions past the
 * rating window are marked expired. One pass at a time; `stop` waits for
 * the running pass, so closing the app never cuts a rating in half.
 */
import type { AppContext } from '../app-context';
import { retryFailedRatings } from './ratings';
import { endLeftSessions } from './left-sessions';
import { expireStaleSessions } from './sessions';

export interface BackgroundJobs {
  /** Runs one pass now (tests; also the first pass at start). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** Often enough for the first retry delay, and never more than twice a second. */
export function tickMs(retryDelaySeconds: number): number {
  return Math.min(30_000, Math.max(500, (retryDelaySeconds * 1000) / 2));
}

export function startBackgroundJobs(ctx: AppContext, after: Promise<unknown>): BackgroundJobs {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = async () => {
    // A server that drains starts nothing new; the servers that go on running do this work.
    if (ctx.lifecycle.state !== 'running') return;
    try {
      await expireStaleSessions(ctx.db);
      await endLeftSessions(ctx);
      await retryFailedRatings(ctx);
    } catch (error) {
      ctx.log.error({ err: error }, 'background jobs failed');
    }
  };
  const runOnce = () => {
    running = running.then(pass);
    return running;
  };
  let timer: NodeJS.Timeout | undefined;
  // After the start-up pass over pending ratings, so one rating is not tried twice at once.
  void after.then(() => {
    if (stopped) return;
    void runOnce();
    timer = setInterval(() => {
      if (!stopped) void runOnce();
    }, tickMs(ctx.config.ratingRetryDelaySeconds));
    timer.unref();
  });
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
