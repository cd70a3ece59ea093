/** Undoes what a `Schedule` set up; safe to call after the function ran, and twice. */
export type Cancel = () => void;

/**
 * The one timer shape of the web app: run `fn` once after `ms`, get back its cancel. Everything
 * with a timer takes one (the session controller, the transports), so tests pass a manual clock.
 */
export type Schedule = (fn: () => void, ms: number) => Cancel;

export const schedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};
