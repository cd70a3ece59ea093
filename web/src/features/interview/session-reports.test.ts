/** The session controller's telemetry reports (docs/product-rules.md, Session telemetry). */
import { describe, expect, it } from 'vitest';
import type { SessionReport, TokenResponse } from '../../../../contract';
import { CLOSE_DELAY_MS } from '../../../../domain/interviewer-protocol';
import type { TransportListener, VoiceTransport } from '../../lib/voice/types';
import { SessionController, type SessionDeps } from './session-controller';

const token: TokenResponse = {
  transport: 'browser-speech',
  client_secret: { value: 'secret', expires_at: 2_000_000_000 },
  sessionId: 'sess-1',
};

class Transport implements VoiceTransport {
  readonly acceptsTypedAnswers = true;
  listener: TransportListener | null = null;
  constructor(private readonly fail = false) {}
  async start(_token: TokenResponse, listener: TransportListener): Promise<void> {
    this.listener = listener;
    if (this.fail) throw new Error('The microphone could not be opened.');
  }
  sendText(): void {}
  close(): void {}
}

function harness(transport = new Transport()) {
  const order: string[] = [];
  const timers: Array<() => void> = [];
  const deps: SessionDeps = {
    fetchToken: () => Promise.resolve(token),
    resumeSession: () => Promise.reject(new Error('no')),
    createTransport: () => Promise.resolve(transport),
    rate: async (request) => {
      order.push(`rate ${request.endReason ?? 'no reason'}`);
      return { ok: true, markdown: '# ok', score: 80 };
    },
    now: () => 0,
    schedule: (fn) => {
      timers.push(fn);
      return () => undefined;
    },
    wakeLock: { acquire: () => undefined, release: () => undefined },
    log: { info: () => undefined, error: () => undefined },
    onNeedTopic: () => undefined,
    onOutOfTokens: () => undefined,
    abandon: async () => {
      order.push('abandon');
      return true;
    },
    report: async (sessionId: string, report: SessionReport) => {
      order.push(`${sessionId} ${JSON.stringify(report)}`);
    },
  };
  return { controller: new SessionController(deps), order, timers, transport };
}

describe('session reports', () => {
  it('reports connected once the transport is up; the rating says the candidate stopped', async () => {
    const h = harness();
    await h.controller.start({ id: 1 });
    await h.controller.stop();
    expect(h.order).toEqual(['sess-1 {"event":"connected"}', 'rate stopped-by-candidate']);
  });

  it('leaving with nothing said reports the end, as nothing is rated', async () => {
    const h = harness();
    await h.controller.start({ id: 1 });
    h.controller.dispose();
    expect(h.order).toEqual(['sess-1 {"event":"connected"}', 'sess-1 {"event":"ended","reason":"stopped-by-candidate"}']);
  });

  it("tells the rating of the interviewer's close and of a lost connection", async () => {
    const closed = harness();
    await closed.controller.start({ id: 1 });
    closed.transport.listener?.({ type: 'close-requested', reason: 'done' });
    closed.transport.listener?.({ type: 'closing-remark-done' });
    closed.timers.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed.order.slice(1)).toEqual(['rate closed-by-interviewer']);
    expect(CLOSE_DELAY_MS).toBe(4000);

    const lost = harness();
    await lost.controller.start({ id: 1 });
    lost.transport.listener?.({ type: 'failed', message: 'gone' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(lost.order.slice(1)).toEqual(['rate connection-lost']);
  });

  it('reports a failed start with its reason before giving the credit back', async () => {
    const h = harness(new Transport(true));
    await h.controller.start({ id: 1 });
    expect(h.order).toEqual(['sess-1 {"event":"ended","reason":"failed-start","detail":"The microphone could not be opened."}', 'abandon']);
  });
});
