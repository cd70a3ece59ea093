/**
 * The local realtime peer is the only stand-in for OpenAI in the tests, so it is tested too: it must
 * refuse what the real service refuses, or the provider and transport tests would prove nothing.
 * (It lives in test-support/realtime-peer/; this test sits beside the provider whose sessions it checks.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_VAD, encodeToneFrame, OpusEnergyVad } from '../../../test-support/realtime-peer/audio';
import { defaultPeerOptions } from '../../../test-support/realtime-peer/options';
import { startRealtimePeer, type RealtimePeer } from '../../../test-support/realtime-peer/server';
import { questionsFromInstructions, realtimeSessionSchema } from '../../../test-support/realtime-peer/session-schema';
import { buildInterviewerInstructions } from '../interviewer/interviewer-instructions';
import { buildRealtimeSession } from './realtime-session-config';
import type { QuestionSetRecord } from '../../db/schema';

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
const session = buildRealtimeSession(set, { model: 'gpt-realtime-2.1' });

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

async function post(parts: Record<string, string>, auth = 'Bearer test-key') {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) form.set(name, value);
  const res = await fetch(`${peer.baseUrl}/realtime/calls`, { method: 'POST', headers: { Authorization: auth }, body: form });
  return { status: res.status, body: (await res.json()) as { error?: { message: string; code: string | null } } };
}

const issue = (value: unknown) => {
  const parsed = realtimeSessionSchema.safeParse(value);
  return parsed.success ? null : parsed.error.issues[0]?.path.join('.');
};

describe('the local realtime peer', () => {
  it('accepts the session the server binds, and refuses what the service would', () => {
    expect(issue(session)).toBeNull();
    expect(issue({ ...session, extra: true })).toBe('');
    expect(issue({ ...session, model: 'gpt-realtime-3' })).toBe('model');
    expect(issue({ ...session, model: 'gpt-4o-realtime-preview' })).toBe('model');
    expect(issue({ ...session, output_modalities: ['audio', 'text'] })).toBe('output_modalities');
    expect(issue({ ...session, audio: { ...session.audio, output: { voice: 'robot' } } })).toBe('audio.output.voice');
    const input = session.audio!.input!;
    expect(issue({ ...session, audio: { ...session.audio, input: { ...input, transcription: { model: 'whisper-2' } } } })).toBe(
      'audio.input.transcription.model',
    );
    expect(issue({ ...session, audio: { ...session.audio, input: { ...input, noise_reduction: { type: 'studio' } } } })).toBe(
      'audio.input.noise_reduction.type',
    );
    expect(issue({ ...session, tools: [] })).toBe('tools');
    // The beta shape (flat fields) is gone.
    expect(issue({ type: 'realtime', model: 'gpt-realtime-2.1', voice: 'alloy', modalities: ['audio', 'text'] })).not.toBeNull();
  });

  it('answers calls only with the API key, multipart sdp + session, and a valid session', async () => {
    expect((await post({ sdp: 'v=0\r\n', session: JSON.stringify(session) }, 'Bearer ek_not_ours')).status).toBe(401);
    const noSession = await post({ sdp: 'v=0\r\n' });
    expect(noSession.status).toBe(400);
    const bad = await post({ sdp: 'v=0\r\n', session: JSON.stringify({ ...session, tools: [] }) });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_value' } } });
    const notSdp = await post({ sdp: 'hello', session: JSON.stringify(session) });
    expect(notSdp).toMatchObject({ status: 400, body: { error: { code: 'invalid_offer' } } });
    const raw = await fetch(`${peer.baseUrl}/realtime/calls`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test-key', 'Content-Type': 'application/sdp' },
      body: 'v=0\r\n',
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { code: string } }).error.code).toBe('invalid_content_type');
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
