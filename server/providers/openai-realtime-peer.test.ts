/**
 * The local realtime peer is the only stand-in for OpenAI in the tests, so it is tested too: it must
 * refuse what the real service refuses, or the provider and transport tests would prove nothing.
 * (It lives in e2e/realtime-peer; Vitest only collects tests under server/, web/, ...)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_VAD, encodeToneFrame, OpusEnergyVad } from '../../e2e/realtime-peer/audio';
import { defaultPeerOptions } from '../../e2e/realtime-peer/options';
import { startRealtimePeer, type RealtimePeer } from '../../e2e/realtime-peer/server';
import { questionsFromInstructions } from '../../e2e/realtime-peer/session-schema';
import { buildInterviewerInstructions } from './interviewer-instructions';
import { buildClientSecretRequest } from './openai-realtime';
import type { QuestionSetRecord } from '../db/schema';

const set: QuestionSetRecord = {
  id: 1,
  name: 'SQL',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  questions: ['What is an index?', 'When would you denormalise?'],
  instructions: '',
  modelAnswers: '',
};

let peer: RealtimePeer;
beforeAll(async () => {
  peer = await startRealtimePeer();
});
afterAll(async () => {
  await peer.close();
});
beforeEach(() => {
  peer.options = defaultPeerOptions();
});

async function mint(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${peer.baseUrl}/realtime/client_secrets`, {
    method: 'POST',
    headers: { Authorization: 'Bearer test-key', 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { value?: string; error?: { message: string; code: string | null } } };
}

describe('the local realtime peer', () => {
  it('issues ek_ secrets for a valid GA session body', async () => {
    const answer = await mint(buildClientSecretRequest(set, 'gpt-realtime-2.1'));
    expect(answer.status).toBe(200);
    expect(answer.body.value).toMatch(/^ek_/);
  });

  it('refuses a session without the close_session tool, and the beta header', async () => {
    const body = buildClientSecretRequest(set, 'gpt-realtime-2.1');
    const noTool = await mint({ ...body, session: { ...body.session, tools: [] } });
    expect(noTool.status).toBe(400);
    expect(noTool.body.error?.message).toBe('Invalid session: session.tools: tools must contain close_session with a required string reason');
    const beta = await mint(body, { 'OpenAI-Beta': 'realtime=v1' });
    expect(beta).toMatchObject({ status: 400, body: { error: { code: 'beta_api_shape_disabled' } } });
    const flat = await mint({ model: 'gpt-4o-realtime-preview', voice: 'alloy' });
    expect(flat.status).toBe(400);
  });

  it('refuses calls without an issued ek_ secret or with the wrong content type, and answers CORS preflight', async () => {
    const secret = (await mint(buildClientSecretRequest(set, 'gpt-realtime-2.1'))).body.value!;
    const post = (auth: string, type: string) =>
      fetch(`${peer.baseUrl}/realtime/calls`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': type }, body: 'v=0\r\n' });
    const unknown = await post('Bearer ek_not_issued', 'application/sdp');
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: { message: 'Invalid or expired ephemeral key.' } });
    expect((await post('Bearer test-key', 'application/sdp')).status).toBe(401);
    const json = await post(`Bearer ${secret}`, 'application/json');
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: { message: 'Content-Type must be application/sdp.' } });

    const preflight = await fetch(`${peer.baseUrl}/realtime/calls`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization, content-type');
    expect(preflight.headers.get('access-control-expose-headers')).toBe('Location');
  });

  it('reads the questions back from the interviewer instructions', () => {
    expect(questionsFromInstructions(buildInterviewerInstructions(set))).toEqual(['What is an index?', 'When would you denormalise?']);
    expect(questionsFromInstructions('no list here')).toEqual([]);
  });
});

describe('the peer voice detector', () => {
  it('counts one utterance per burst of speech followed by the silence gap, ignoring short clicks', () => {
    const heard: number[] = [];
    const vad = new OpusEnergyVad(DEFAULT_VAD, (ms) => heard.push(ms));
    const frames = (energy: number, n: number) => {
      for (let i = 0; i < n; i++) vad.frame(energy);
    };
    frames(0, 10);
    frames(2000, 50); // 1 s of speech
    frames(0, 10); // a 200 ms pause inside the answer
    frames(2000, 25);
    frames(0, 35); // 700 ms: the answer is over
    frames(3000, 5); // a 100 ms click
    frames(0, 40);
    expect(heard).toEqual([1700]);
    vad.dispose();
  });

  it('hears the Opus tone it sends (decoding works end to end)', () => {
    const heard: number[] = [];
    const vad = new OpusEnergyVad(DEFAULT_VAD, (ms) => heard.push(ms));
    const tone = encodeToneFrame();
    for (let i = 0; i < 30; i++) vad.push(tone);
    for (let i = 0; i < 40; i++) vad.frame(0);
    expect(heard).toEqual([600]);
    vad.dispose();
  });
});
