import { describe, expect, it } from 'vitest';
import { CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS } from '../../../../domain/interviewer-protocol';
import { InterviewerClosing } from './closing';
import { harness, settle } from './fixtures/session-harness';

/** A closing whose timers the test fires by hand. */
function closing() {
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  let ended = 0;
  const machine = new InterviewerClosing(
    (fn, ms) => {
      const timer = { fn, ms, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    () => ended++,
  );
  return { machine, timers, ended: () => ended };
}

describe("the interviewer's closing (docs/product-rules.md, Closing)", () => {
  it('goes open → remark-playing → remark-heard and ends when the delay passes', () => {
    const c = closing();
    expect(c.machine.state).toBe('open');
    expect(c.machine.request()).toBe(true);
    expect(c.machine.request()).toBe(false);
    expect(c.machine.state).toBe('remark-playing');
    c.machine.remarkHeard();
    expect(c.machine.state).toBe('remark-heard');
    expect(c.ended()).toBe(0);
    c.timers[0]!.fn();
    expect(c.ended()).toBe(1);
    expect(c.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS]);
  });

  it('gives a remark still playing at the delay at most CLOSING_REMARK_WAIT_MS more (overtime)', () => {
    const c = closing();
    c.machine.request();
    c.timers[0]!.fn();
    expect(c.machine.state).toBe('overtime');
    expect(c.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS]);
    c.timers[1]!.fn();
    expect(c.ended()).toBe(1);
  });

  it('ignores a remark heard before close_session, and cancel() stops the waiting timer and opens it again', () => {
    const c = closing();
    c.machine.remarkHeard();
    expect(c.machine.state).toBe('open');
    c.machine.request();
    c.machine.cancel();
    expect(c.timers[0]!.cancelled).toBe(true);
    expect(c.machine.state).toBe('open');
    expect(c.ended()).toBe(0);
  });
});

describe('session controller: the closing in a session', () => {
  it('ends CLOSE_DELAY_MS after close_session, honouring it once', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'close-requested', reason: 'All questions answered' });
    h.transport.emit({ type: 'close-requested', reason: 'again' });
    expect(h.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS]);
    expect(CLOSE_DELAY_MS).toBe(4000);
    expect(h.logs.some((l) => l.level === 'info' && l.text.includes('4 seconds') && l.text.includes('All questions answered'))).toBe(true);
    expect(h.controller.getSnapshot().phase).toBe('active');
    h.transport.emit({ type: 'closing-remark-done' }); // a short goodbye, heard before the delay ends
    expect(h.controller.getSnapshot().phase).toBe('active');
    h.timers[0]?.fn();
    expect(h.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(h.controller.getSnapshot().phase).toBe('disconnected');
    expect(h.rated).toHaveLength(1);
  });

  it('lets a closing remark still playing at the delay finish, but waits no longer than the cap', async () => {
    const heard = harness();
    await heard.controller.start({ id: 3 });
    heard.transport.emit({ type: 'closing-remark-done' }); // before close_session: ignored
    heard.transport.emit({ type: 'close-requested', reason: 'done' });
    heard.timers[0]?.fn();
    expect(heard.controller.getSnapshot().phase).toBe('active');
    expect(heard.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS]);
    heard.transport.emit({ type: 'closing-remark-done' });
    expect(heard.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(heard.timers[1]?.cancelled).toBe(true);
    expect(heard.rated).toHaveLength(1);

    const silent = harness();
    await silent.controller.start({ id: 3 });
    silent.transport.emit({ type: 'close-requested', reason: 'done' });
    silent.timers[0]?.fn();
    expect(silent.controller.getSnapshot().phase).toBe('active');
    silent.timers[1]?.fn(); // the remark never reported its end
    expect(silent.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(silent.rated).toHaveLength(1);
  });

  it('cancels the close timer when the candidate disconnects first', async () => {
    const h = harness();
    await h.controller.start({ id: 3 });
    h.transport.emit({ type: 'close-requested', reason: 'done' });
    await h.controller.stop();
    expect(h.timers[0]?.cancelled).toBe(true);
    h.timers[0]?.fn(); // a timer that fires anyway changes nothing
    expect(h.rated).toHaveLength(1);
  });

  it('a connection that goes away after the closing remark began ends the session normally, with no error logged', async () => {
    const h = harness();
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'candidate', text: 'Something.', at: 5 });
    h.transport.emit({ type: 'close-requested', reason: 'done' });
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    expect(h.controller.getSnapshot().phase).toBe('active');
    h.timers[0]!.fn();
    await settle();
    expect(h.rated).toHaveLength(1);
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
    expect(h.logs.some((l) => l.text === 'The voice connection ended after the closing remark.')).toBe(true);
  });

  it('a connection that goes away while the closing remark runs past the delay ends the session at once', async () => {
    const h = harness();
    await h.controller.start({ id: 7 });
    h.transport.emit({ type: 'close-requested', reason: 'done' });
    h.timers[0]!.fn(); // the delay passed; the remark still plays
    expect(h.timers.map((t) => t.ms)).toEqual([CLOSE_DELAY_MS, CLOSING_REMARK_WAIT_MS]);
    h.transport.emit({ type: 'failed', message: 'lost', reconnectable: true });
    expect(h.controller.getSnapshot().phase).toBe('rating');
    await settle();
    expect(h.timers[1]?.cancelled).toBe(true);
    expect(h.rated.map((r) => r.endReason)).toEqual(['closed-by-interviewer']);
  });
});
