/**
 * GET /interview/token in the real app configured with OPENAI_API_KEY, the local realtime peer in
 * place of api.openai.com: the token shape, the session bound to the set, clear failures, and the
 * credit given back when no session could be created.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultPeerOptions } from '../../e2e/realtime-peer/options';
import { questionsFromInstructions } from '../../e2e/realtime-peer/session-schema';
import { startRealtimePeer, type RealtimePeer } from '../../e2e/realtime-peer/server';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, type TestApp } from '../../test-support/test-app';
import { PROVIDER_TEXTS } from './openai-realtime';

describe('an app configured with OPENAI_API_KEY', () => {
  let peer: RealtimePeer;
  let t: TestApp;
  let setId = -1;

  beforeAll(async () => {
    peer = await startRealtimePeer();
    t = await createTestApp({
      database: 'pglite',
      questionSets: FIXTURE_SETS,
      config: { openaiApiKey: 'test-key', openaiBaseUrl: peer.baseUrl, realtimeModel: 'gpt-realtime-2.1-mini', freeSessionLimit: 1 },
    });
    setId = (await setIds(t.app)).get(1) ?? -1;
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });
  beforeEach(() => {
    peer.options = defaultPeerOptions();
    peer.secretRequests.length = 0;
  });

  it('answers an OpenAI realtime token bound to the chosen set, and refunds the credit on failure', async () => {
    const email = 'voice@example.com';
    await login(t.app, email);

    // 1. The provider rejects the key: a clear error, and the only credit is given back.
    peer.options.secretFailure = 'reject-key';
    const refused = await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(refused).toMatchObject({ status: 502, body: { error: PROVIDER_TEXTS.rejectedKey } });

    // 2. Rate limit → 503, credit given back again.
    peer.options.secretFailure = 'rate-limit';
    const limited = await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(limited).toMatchObject({ status: 503, body: { error: PROVIDER_TEXTS.rateLimited } });

    // 3. Working provider: the one credit is still there.
    peer.options.secretFailure = null;
    const ok = await call<{
      transport: string;
      client_secret: { value: string; expires_at: number };
      sessionId: string;
      sdpUrl: string;
      model: string;
    }>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(ok.status).toBe(200);
    expect(ok.body.transport).toBe('openai-realtime');
    expect(ok.body.client_secret.value).toMatch(/^ek_/);
    expect(ok.body.sdpUrl).toBe(`${peer.baseUrl}/realtime/calls`);
    expect(ok.body.model).toBe('gpt-realtime-2.1-mini');
    expect(ok.body.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const sent = peer.secretRequests.at(-1)?.body as { session: { model: string; instructions: string } };
    expect(sent.session.model).toBe('gpt-realtime-2.1-mini');
    expect(questionsFromInstructions(sent.session.instructions)).toEqual(FIXTURE_SETS[0]!.questions);

    // 4. Now the credit is spent.
    const out = await call<{ error: string }>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(out.status).toBe(402);
  });

  it('answers 504 when the provider does not answer in time', async () => {
    // The provider's bounded wait is 10 s by default; the peer holds the answer longer.
    peer.options.secretFailure = 'slow';
    peer.options.slowMs = 20_000;
    const email = 'slow@example.com';
    await login(t.app, email);
    const res = await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(res).toMatchObject({ status: 504, body: { error: PROVIDER_TEXTS.timeout } });
  });
});
