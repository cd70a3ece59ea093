/**
 * The OpenAI voice provider against the local realtime peer's HTTP server (the real wire protocol,
 * only the cloud replaced).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRealtimePeer, type RealtimePeer } from '../../e2e/realtime-peer/server';
import { defaultPeerOptions } from '../../e2e/realtime-peer/options';
import { questionsFromInstructions } from '../../e2e/realtime-peer/session-schema';
import { buildInterviewerInstructions, closeSessionToolParameters, CLOSE_SESSION_DESCRIPTION } from './interviewer-instructions';
import { createOpenAiRealtimeVoice, PROVIDER_TEXTS } from './openai-realtime';
import { ProviderError } from './types';
import type { QuestionSetRecord } from '../db/schema';

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

let peer: RealtimePeer;
const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
const log = { warn: (details: Record<string, unknown>, message: string) => warnings.push({ details, message }) };

function provider(overrides: { key?: string | null; timeoutMs?: number; baseUrl?: string } = {}) {
  return createOpenAiRealtimeVoice(
    {
      openaiApiKey: overrides.key === undefined ? 'test-key' : overrides.key,
      openaiBaseUrl: overrides.baseUrl ?? peer.baseUrl,
      realtimeModel: 'gpt-realtime-2.1',
      realtimeTranscriptionModel: 'gpt-4o-mini-transcribe',
    },
    log,
    overrides.timeoutMs === undefined ? {} : { timeoutMs: overrides.timeoutMs },
  );
}

const input = { sessionId: 'sess-abc', set, userEmail: 'candidate@example.com' };

async function expectProviderError(promise: Promise<unknown>, status: number, message: string, upstreamStatus?: number) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  const pe = error as ProviderError;
  expect(pe.message).toBe(message);
  expect(pe.status).toBe(status);
  expect(pe.upstreamStatus).toBe(upstreamStatus);
}

beforeAll(async () => {
  peer = await startRealtimePeer();
});
afterAll(async () => {
  await peer.close();
});
beforeEach(() => {
  peer.options = defaultPeerOptions();
  peer.secretRequests.length = 0;
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
  it('mints a client secret with the exact GA session body and answers the token', async () => {
    const token = await provider().createSession(input);
    expect(peer.secretRequests).toHaveLength(1);
    const request = peer.secretRequests[0]!;
    expect(request.authorization).toBe('Bearer test-key');
    expect(request.betaHeader).toBeUndefined();
    expect(request.body).toEqual({
      expires_after: { anchor: 'created_at', seconds: 120 },
      session: {
        type: 'realtime',
        model: 'gpt-realtime-2.1',
        instructions: buildInterviewerInstructions(set),
        output_modalities: ['audio'],
        audio: {
          input: {
            transcription: { model: 'gpt-4o-mini-transcribe', language: 'en' },
            turn_detection: { type: 'semantic_vad', eagerness: 'low', create_response: true, interrupt_response: true },
            noise_reduction: { type: 'near_field' },
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
      },
    });
    expect(token.transport).toBe('openai-realtime');
    expect(token.sessionId).toBe('sess-abc');
    expect(token.client_secret.value).toMatch(/^ek_[0-9a-f]{32}$/);
    expect(token.client_secret.expires_at).toBeGreaterThan(Date.now() / 1000 + 60);
    expect(token).toMatchObject({ sdpUrl: `${peer.baseUrl}/realtime/calls`, model: 'gpt-realtime-2.1' });
    expect(warnings).toEqual([]);
  });

  it('maps a rejected key to 502 and logs the upstream status', async () => {
    await expectProviderError(provider({ key: 'wrong-key' }).createSession(input), 502, PROVIDER_TEXTS.rejectedKey, 401);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.details).toMatchObject({ upstreamStatus: 401, detail: 'Incorrect API key provided.', sessionId: 'sess-abc' });
    expect(PROVIDER_TEXTS.rejectedKey).toBe(
      "The AI provider rejected the server's API key. Please ask the operator to check OPENAI_API_KEY.",
    );
  });

  it('maps a 403 (a key without access, e.g. an unsupported region) to 502 with its own text', async () => {
    peer.options.secretFailure = 'forbidden';
    await expectProviderError(provider().createSession(input), 502, PROVIDER_TEXTS.forbidden, 403);
    expect(warnings[0]!.details).toMatchObject({ upstreamStatus: 403, detail: 'Country, region, or territory not supported' });
  });

  it('binds the configured transcription model to the session', async () => {
    const custom = createOpenAiRealtimeVoice(
      { openaiApiKey: 'test-key', openaiBaseUrl: peer.baseUrl, realtimeModel: 'gpt-realtime-2.1', realtimeTranscriptionModel: 'gpt-transcribe' },
      log,
    );
    await custom.createSession(input);
    expect(JSON.stringify(peer.secretRequests.at(-1)?.body)).toContain('"transcription":{"model":"gpt-transcribe","language":"en"}');
  });

  it('maps rate limit or quota to 503', async () => {
    peer.options.secretFailure = 'rate-limit';
    await expectProviderError(provider().createSession(input), 503, PROVIDER_TEXTS.rateLimited, 429);
    expect(warnings[0]!.details).toMatchObject({ upstreamStatus: 429 });
  });

  it('gives up after the bounded wait with 504', async () => {
    peer.options.secretFailure = 'slow';
    peer.options.slowMs = 5_000;
    await expectProviderError(provider({ timeoutMs: 200 }).createSession(input), 504, PROVIDER_TEXTS.timeout);
    expect(warnings[0]!.message).toBe('OpenAI client secret request timed out');
  });

  it('maps a malformed answer to 502', async () => {
    peer.options.secretFailure = 'malformed';
    await expectProviderError(provider().createSession(input), 502, PROVIDER_TEXTS.malformed, 200);
  });

  it('maps an upstream server error to 502 with a plain text', async () => {
    peer.options.secretFailure = 'server-error';
    await expectProviderError(provider().createSession(input), 502, PROVIDER_TEXTS.refused, 500);
    expect(warnings[0]!.details).toMatchObject({ upstreamStatus: 500, detail: '<html><body>Internal Server Error</body></html>' });
  });

  it('maps an unreachable provider to 502', async () => {
    // A port that was just free: nothing listens there any more.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    await expectProviderError(provider({ baseUrl: `http://127.0.0.1:${port}/v1` }).createSession(input), 502, PROVIDER_TEXTS.network);
  });

  it('refuses without an API key before calling anyone', async () => {
    await expectProviderError(provider({ key: null }).createSession(input), 503, PROVIDER_TEXTS.noKey);
    expect(peer.secretRequests).toHaveLength(0);
  });
});

