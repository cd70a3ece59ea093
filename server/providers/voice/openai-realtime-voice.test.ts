/**
 * The server's half of an OpenAI realtime call against the local realtime peer (the real wire
 * protocol, only the cloud replaced): our own session token, the multipart call with the bound
 * session, each upstream failure's sentence, the sideband and the hang-up.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeOffer } from '../../../test-support/realtime-peer/offer';
import { defaultPeerOptions, type CallFailure } from '../../../test-support/realtime-peer/options';
import { questionsFromInstructions } from '../../../test-support/realtime-peer/session-schema';
import { startRealtimePeer, type RealtimePeer } from '../../../test-support/realtime-peer/server';
import {
  buildInterviewerInstructions,
  closeSessionToolParameters,
  CLOSE_SESSION_DESCRIPTION,
} from '../interviewer/interviewer-instructions';
import { createOpenAiRealtimeVoice } from './openai-realtime-voice';
import { createRealtimeCallsClient, PROVIDER_TEXTS, sidebandUrl } from '../upstream/realtime-calls-client';
import { buildRealtimeSession } from './realtime-session-config';
import { ProviderError } from '../types';
import type { QuestionSetRecord } from '../../db/schema';

const set: QuestionSetRecord = {
  id: 7,
  name: 'JavaScript Basics',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  questions: ['What is a closure?', 'Explain the event loop.'],
  instructions: 'Focus on practical examples.',
  modelAnswers: 'A closure is a function bundled with its lexical scope. SECRET-MODEL-ANSWER',
};
const session = buildRealtimeSession(set, { model: 'gpt-realtime-2.1', transcriptionModel: 'gpt-transcribe', noiseReduction: 'far_field' });

let peer: RealtimePeer;
const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
const log = { warn: (details: Record<string, unknown>, message: string) => warnings.push({ details, message }) };
const calls = (overrides: { key?: string; baseUrl?: string; timeoutMs?: number } = {}) =>
  createRealtimeCallsClient({ openaiApiKey: overrides.key ?? 'test-key', openaiBaseUrl: overrides.baseUrl ?? peer.baseUrl }, log, {
    timeoutMs: overrides.timeoutMs ?? 2000,
  });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

beforeAll(async () => {
  peer = await startRealtimePeer();
});
afterAll(async () => {
  await peer.close();
});
beforeEach(() => {
  peer.options = defaultPeerOptions();
  peer.callRequests.length = 0;
  warnings.length = 0;
});

describe('buildInterviewerInstructions (as bound to the realtime session)', () => {
  it('lists the questions in order, asks for close_session, and never leaks model answers', () => {
    const text = buildInterviewerInstructions(set);
    expect(questionsFromInstructions(text)).toEqual(['What is a closure?', 'Explain the event loop.']);
    expect(text).toContain('exactly one at a time');
    expect(text).toContain('call the close_session function with a short reason');
    expect(text).toContain('Never read out or hint at the model answers.');
    expect(text).toContain('Guidance for this question set:\nFocus on practical examples.');
    expect(text).not.toContain('SECRET-MODEL-ANSWER');
  });
});

describe('createOpenAiRealtimeVoice', () => {
  it('answers our own short-lived session token and our SDP address, never an OpenAI key', async () => {
    const token = await createOpenAiRealtimeVoice({ openaiApiKey: 'test-key', realtimeModel: 'gpt-realtime-2.1' }).createSession({
      sessionId: 'sess-abc',
      set,
      userEmail: 'c@example.com',
    });
    expect(token).toMatchObject({
      transport: 'openai-realtime',
      sessionId: 'sess-abc',
      sdpUrl: '/interview/sessions/sess-abc/sdp',
      model: 'gpt-realtime-2.1',
    });
    if (token.transport !== 'openai-realtime') throw new Error('expected an OpenAI token');
    expect(token.client_secret.value).toMatch(/^rt_[\w-]{32}$/);
    expect(token.client_secret.value).not.toContain('test-key');
    expect(token.client_secret.expires_at).toBeGreaterThan(Date.now() / 1000 + 60);
    expect(peer.callRequests).toHaveLength(0);
  });

  it('without a key answers 503', async () => {
    const voice = createOpenAiRealtimeVoice({ openaiApiKey: null, realtimeModel: 'gpt-realtime-2.1' });
    const error = await failure(voice.createSession({ sessionId: 's', set, userEmail: 'c@example.com' }));
    expect(error).toMatchObject({ status: 503, message: PROVIDER_TEXTS.noKey });
  });
});

describe('createRealtimeCallsClient', () => {
  it('posts multipart sdp + the exact session with the server key, keeps the call id, opens the sideband and hangs up', async () => {
    const offer = await makeOffer();
    try {
      const opened = await calls().create(offer.sdp, session, { sessionId: 's1' });
      const request = peer.callRequests.at(-1)!;
      expect(request.authorization).toBe('Bearer test-key');
      expect(request.contentType).toMatch(/^multipart\/form-data; boundary=/);
      expect(request.sdp).toBe(offer.sdp);
      expect(request.session).toEqual({
        type: 'realtime',
        model: 'gpt-realtime-2.1',
        instructions: buildInterviewerInstructions(set),
        output_modalities: ['audio'],
        audio: {
          input: {
            transcription: { model: 'gpt-transcribe', language: 'en' },
            turn_detection: { type: 'semantic_vad', eagerness: 'low', create_response: true, interrupt_response: true },
            noise_reduction: { type: 'far_field' },
          },
          output: { voice: 'marin' },
        },
        tools: [
          {
            type: 'function',
            name: 'close_session',
            description: CLOSE_SESSION_DESCRIPTION,
            parameters: JSON.parse(JSON.stringify(closeSessionToolParameters)),
          },
        ],
        tool_choice: 'auto',
      });
      expect(opened.callId).toBe(peer.calls.at(-1)!.id);
      expect(opened.answer).toMatch(/^v=0/);

      const sideband = await calls().openSideband(opened.callId);
      expect(peer.calls.at(-1)!.sidebandAttached).toBe(true);
      const closed = new Promise<void>((resolve) => sideband.onClose(resolve));
      await calls().hangup(opened.callId);
      expect(peer.hangups).toContain(opened.callId);
      await closed;
      expect(peer.calls.at(-1)!.hungUp).toBe(true);
      expect(warnings).toEqual([]);
    } finally {
      await offer.close();
    }
  });

  const cases: Array<[CallFailure, number, string, number | undefined]> = [
    ['reject-key', 502, PROVIDER_TEXTS.rejectedKey, 401],
    ['forbidden', 502, PROVIDER_TEXTS.forbidden, 403],
    ['rate-limit', 503, PROVIDER_TEXTS.rateLimited, 429],
    ['quota', 503, PROVIDER_TEXTS.rateLimited, 429],
    ['server-error', 503, PROVIDER_TEXTS.unavailable, 500],
    ['unavailable', 503, PROVIDER_TEXTS.unavailable, 503],
    ['slow', 504, PROVIDER_TEXTS.timeout, undefined],
  ];
  it.each(cases)(
    'maps the upstream failure %s to %i with its sentence, the upstream status logged',
    async (kind, status, message, upstreamStatus) => {
      peer.options.callFailure = kind;
      peer.options.slowMs = 5000;
      const error = await failure(calls({ timeoutMs: 300 }).create('v=0\r\n', session, { sessionId: 's2' }));
      expect(error).toMatchObject({ status, message, upstreamStatus });
      expect(warnings.at(-1)).toMatchObject({ message: 'OpenAI refused the realtime call', details: { sessionId: 's2', upstreamStatus } });
    },
  );

  it('answers "malformed" for a call without a Location, "refused" for a session the service rejects, "network" when unreachable', async () => {
    const offer = await makeOffer();
    try {
      peer.options.callFailure = 'no-location';
      expect(await failure(calls().create(offer.sdp, session, {}))).toMatchObject({ status: 502, message: PROVIDER_TEXTS.malformed });
    } finally {
      await offer.close();
    }
    peer.options.callFailure = null;
    const both = { ...session, output_modalities: ['audio', 'text'] as Array<'audio' | 'text'> };
    expect(await failure(calls().create('v=0\r\n', both, {}))).toMatchObject({
      status: 502,
      message: PROVIDER_TEXTS.refused,
      upstreamStatus: 400,
    });
    expect(warnings.at(-1)?.details.detail).toContain('output_modalities takes exactly one of audio or text');

    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await failure(calls({ baseUrl: `http://127.0.0.1:${port}/v1` }).create('v=0\r\n', session, {}))).toMatchObject({
      status: 502,
      message: PROVIDER_TEXTS.network,
    });
  });

  it('the sideband address keeps the scheme family (wss for https) and names the call', () => {
    expect(sidebandUrl('https://api.openai.com/v1', 'rtc_1')).toBe('wss://api.openai.com/v1/realtime?call_id=rtc_1');
    expect(sidebandUrl('http://127.0.0.1:9/v1', 'rtc_2')).toBe('ws://127.0.0.1:9/v1/realtime?call_id=rtc_2');
  });

  it('a sideband with the wrong key or an unknown call is refused', async () => {
    expect(await failure(calls().openSideband('rtc_unknown'))).toMatchObject({ status: 502, upstreamStatus: 404 });
    expect(await failure(calls({ key: 'wrong' }).openSideband('rtc_unknown'))).toMatchObject({ status: 502, upstreamStatus: 401 });
  });
});
