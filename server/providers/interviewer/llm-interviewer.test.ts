import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../../test-support/fake-llm-server';
import { loadConfig } from '../../config';
import { buildInterviewerInstructions } from './interviewer-instructions';
import { createLlmClient, DEFAULT_OPENAI_TEXT_MODEL, LlmError, resolveLlmSettings } from '../upstream/llm-client';
import { createLlmInterviewer, FALLBACK_CLOSING_REMARK, JOINED_MESSAGE } from './llm-interviewer';
import type { QuestionSetRecord } from '../../db/schema';

const set: QuestionSetRecord = {
  id: 1,
  name: 'JavaScript',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  questions: ['What is a closure?', 'How does the event loop work?'],
  instructions: 'Focus on practical examples.',
  modelAnswers: 'A closure keeps access to its lexical scope.',
};

let llm: FakeLlmServer;
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.setFallback({ status: 500, message: 'nothing scripted' });
});

const client = (timeoutMs = 5000, apiKey: string | null = 'sk-test-123') =>
  createLlmClient({ baseUrl: llm.baseUrl, apiKey, model: 'llama3.1:8b' }, { timeoutMs });

describe('resolveLlmSettings', () => {
  it('prefers LLM_BASE_URL + LLM_MODEL, falls back to OpenAI with the default text model, else none', () => {
    expect(resolveLlmSettings(loadConfig({}))).toBeNull();
    expect(resolveLlmSettings(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'llama3.1:8b' }))).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: null,
      model: 'llama3.1:8b',
    });
    expect(resolveLlmSettings(loadConfig({ OPENAI_API_KEY: 'sk-x' }))).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: DEFAULT_OPENAI_TEXT_MODEL,
    });
    expect(() => resolveLlmSettings(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }))).toThrow(
      'LLM_MODEL: must be set when LLM_BASE_URL is set',
    );
  });
});

describe('llm client', () => {
  it('sends the model, messages and bearer key to /chat/completions', async () => {
    llm.enqueue({ content: 'Hello there.' });
    const result = await client().chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    // The usage the server reported (FAKE_LLM_USAGE), for the session's cost.
    expect(result).toEqual({
      content: 'Hello there.',
      toolCalls: [],
      usage: { model: 'llama3.1:8b', inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 80 },
    });
    expect(llm.requests[0]?.path).toBe('/v1/chat/completions');
    expect(llm.requests[0]?.headers.authorization).toBe('Bearer sk-test-123');
    expect(llm.requests[0]?.body).toEqual({ model: 'llama3.1:8b', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('reads no usage from a server that reports none, or reports it in another shape', async () => {
    llm.enqueue({ raw: JSON.stringify({ choices: [{ message: { content: 'a' } }] }) });
    llm.enqueue({ raw: JSON.stringify({ choices: [{ message: { content: 'b' } }], usage: { tokens: 'many' } }) });
    expect(await client().chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
      content: 'a',
      toolCalls: [],
      usage: null,
    });
    expect(await client().chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
      content: 'b',
      toolCalls: [],
      usage: null,
    });
  });

  it('sends no authorization header without a key (local Ollama)', async () => {
    llm.enqueue({ content: 'ok' });
    await client(5000, null).chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    expect(llm.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('drops temperature for models that refuse it (reasoning models), and remembers', async () => {
    llm.setFallback({
      decide: (r) =>
        'temperature' in r.body
          ? { status: 400, message: "Unsupported parameter: 'temperature' is not supported with this model." }
          : { content: 'ok' },
    });
    const c = client();
    expect(await c.chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }], temperature: 0.6 })).toMatchObject({
      content: 'ok',
      toolCalls: [],
    });
    expect(await c.chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Again' }], temperature: 0.6 })).toMatchObject({
      content: 'ok',
      toolCalls: [],
    });
    expect(llm.requests.map((r) => 'temperature' in r.body)).toEqual([true, false, false]);
  });

  it('tells the budget of every request with its size before sending it, its own second try too, and sends none it refuses', async () => {
    llm.setFallback({
      decide: (r) =>
        'temperature' in r.body ? { status: 400, message: "Unsupported parameter: 'temperature' is not supported." } : { content: 'ok' },
    });
    const told: number[] = [];
    const reserve = async (chars: number) => {
      told.push(chars);
      return told.length <= 2;
    };
    const c = client();
    await c.chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }], temperature: 0.6 }, { reserve, refusal: 'Spent.' });
    // Two requests (refused for its temperature, then without it), each told with its JSON body's length.
    expect(llm.requests).toHaveLength(2);
    expect(told).toEqual(llm.requests.map((r) => JSON.stringify(r.body).length));
    await expect(
      c.chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Again' }] }, { reserve, refusal: 'Spent.' }),
    ).rejects.toThrow('Spent.');
    expect(llm.requests).toHaveLength(2);
  });

  it('turns failures into clear errors without the key', async () => {
    const origin = new URL(llm.baseUrl).origin;
    const cases: Array<[Parameters<FakeLlmServer['enqueue']>[0], string, number, boolean]> = [
      [
        { status: 401, message: 'Incorrect API key provided: sk-test-123' },
        `The language model endpoint (${origin}) rejected the API key (HTTP 401): Incorrect API key provided: ***`,
        502,
        false,
      ],
      [
        { status: 429, message: 'Slow down' },
        `The language model endpoint (${origin}) is rate limiting requests (HTTP 429): Slow down`,
        503,
        true,
      ],
      [{ status: 503, message: 'overloaded' }, `The language model endpoint (${origin}) answered HTTP 503: overloaded`, 502, true],
      [
        { raw: '<html>oops</html>' },
        `The language model endpoint (${origin}) answered something that is not a chat completion.`,
        502,
        true,
      ],
      [
        { delayMs: 2000, then: { content: 'late' } },
        `The language model endpoint (${origin}) did not answer within 0.3 seconds.`,
        504,
        true,
      ],
    ];
    for (const [reply, message, status, retryable] of cases) {
      llm.enqueue(reply);
      const error = await client(300)
        .chat({ max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect({
        message: (error as LlmError).message,
        status: (error as LlmError).status,
        retryable: (error as LlmError).retryable,
      }).toEqual({
        message,
        status,
        retryable,
      });
    }
    const unreachable = createLlmClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-secret', model: 'm' });
    await expect(unreachable.chat({ max_tokens: 50, messages: [] })).rejects.toThrow(
      'The language model endpoint (http://127.0.0.1:1) could not be reached. Check LLM_BASE_URL and that the server is running.',
    );
  });
});

describe('llm client, streamed', () => {
  const ask = { max_tokens: 50, messages: [{ role: 'user' as const, content: 'Hi' }] };

  it('asks for the reply streamed with its usage, tells the content as it grows and answers the whole reply', async () => {
    llm.enqueue({ content: 'Hello there. How are you?' });
    const seen: string[] = [];
    const result = await client().chat(ask, undefined, (sofar) => seen.push(sofar));
    expect(result).toEqual({
      content: 'Hello there. How are you?',
      toolCalls: [],
      usage: { model: 'llama3.1:8b', inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 80 },
    });
    expect(seen).toEqual(['Hello ', 'Hello there. ', 'Hello there. How ', 'Hello there. How are ', 'Hello there. How are you?']);
    expect(llm.requests[0]?.body).toEqual({ model: 'llama3.1:8b', ...ask, stream: true, stream_options: { include_usage: true } });
  });

  it('reads a reply written at a set pace as it comes (the fake server of the speech bench)', async () => {
    llm.enqueue({ content: 'Hello there. How are you?', wordGapMs: 40 });
    const at: number[] = [];
    await client().chat(ask, undefined, () => at.push(performance.now()));
    expect(at).toHaveLength(5);
    // Four gaps of at least 40 ms between the five words (a timer may fire a millisecond early).
    expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual(4 * 40 - 4);
  });

  it('puts a tool call together from its pieces', async () => {
    llm.enqueue({ tool: { name: 'close_session', arguments: '{"reason":"the candidate asked to stop"}' }, content: 'Goodbye.' });
    const result = await client().chat(ask, undefined, () => undefined);
    expect(result.content).toBe('Goodbye.');
    expect(result.toolCalls).toEqual([{ name: 'close_session', arguments: '{"reason":"the candidate asked to stop"}' }]);
  });

  it('reads an endpoint that ignores stream and answers one body, telling the whole content once', async () => {
    llm.enqueue({ raw: JSON.stringify({ choices: [{ message: { content: 'All at once.' } }] }) });
    const seen: string[] = [];
    expect(await client().chat(ask, undefined, (sofar) => seen.push(sofar))).toEqual({
      content: 'All at once.',
      toolCalls: [],
      usage: null,
    });
    expect(seen).toEqual(['All at once.']);
  });

  it('asks for whole replies once an endpoint refuses streaming, and remembers (the refusal is not taken for one of tools)', async () => {
    const refuseStream = {
      decide: (request: { body: Record<string, unknown> }) =>
        request.body.stream
          ? { status: 400, message: 'Unrecognized request argument supplied: stream_options' }
          : { content: 'Whole. Reply.' },
    };
    llm.enqueue(refuseStream, refuseStream, refuseStream);
    const streamed = client();
    const seen: string[] = [];
    expect((await streamed.chat(ask, undefined, (sofar) => seen.push(sofar))).content).toBe('Whole. Reply.');
    expect((await streamed.chat(ask, undefined, (sofar) => seen.push(sofar))).content).toBe('Whole. Reply.');
    expect(seen).toEqual(['Whole. Reply.', 'Whole. Reply.']);
    expect(llm.requests.map((r) => r.body.stream ?? false)).toEqual([true, false, false]);
    // Through the interviewer: the tools protocol stays.
    llm.enqueue(refuseStream, refuseStream);
    const turn = await createLlmInterviewer(client()).nextTurn({ set, history: [], onDraft: () => false });
    expect(turn.say).toBe('Whole. Reply.');
    expect(llm.requests.at(-1)?.body.tools).toBeDefined();
  });

  it('a stream that stops mid-reply is a retryable failure', async () => {
    llm.enqueue({ pieces: ['Half ', 'a line'], cut: true });
    const failure = await client()
      .chat(ask, undefined, () => undefined)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LlmError);
    expect(failure).toMatchObject({ status: 502, retryable: true });
    expect((failure as LlmError).message).toMatch(
      /^The language model endpoint \(http:\/\/127\.0\.0\.1:\d+\) stopped answering in the middle of the reply\.$/,
    );
  });
});

describe('llm interviewer', () => {
  it('tells a draft of the line as it is written, speakable, and none of a reply written as JSON', async () => {
    llm.enqueue({ content: 'Good, **closures** keep their scope. What is hoisting?' });
    const drafts: string[] = [];
    const turn = await createLlmInterviewer(client()).nextTurn({ set, history: [], onDraft: (sayFar) => (drafts.push(sayFar), false) });
    expect(turn).toEqual({ say: 'Good, closures keep their scope. What is hoisting?', closeSession: null });
    expect(drafts.at(-1)).toBe(turn.say);
    expect(drafts[0]).toBe('Good,');
    llm.enqueue({ content: '{"say": "Tell me about hoisting.", "close_session": null}' });
    drafts.length = 0;
    const json = await createLlmInterviewer(client()).nextTurn({ set, history: [], onDraft: (sayFar) => (drafts.push(sayFar), false) });
    expect(json.say).toBe('Tell me about hoisting.');
    expect(drafts).toEqual([]);
  });

  it('opens with the shared instructions, the close_session tool and a joined message', async () => {
    llm.enqueue({ content: 'Hi, welcome! **First question:** what is a closure?' });
    const turn = await createLlmInterviewer(client()).nextTurn({ set, history: [] });
    expect(turn).toEqual({ say: 'Hi, welcome! First question: what is a closure?', closeSession: null });
    const body = llm.requests[0]?.body as { messages: Array<{ role: string; content: string }>; tools: unknown[] };
    expect(body.messages[0]?.role).toBe('system');
    expect(body.messages[0]?.content.startsWith(buildInterviewerInstructions(set))).toBe(true);
    expect(body.messages.slice(1)).toEqual([{ role: 'user', content: JOINED_MESSAGE }]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({ name: 'close_session', parameters: expect.objectContaining({ required: ['reason'] }) }),
      },
    ]);
  });

  it('sends the history as chat messages and the new utterance once', async () => {
    llm.enqueue({ content: 'Thanks. How does the event loop work?' });
    const history = [
      { role: 'interviewer' as const, transcript: 'What is a closure?' },
      { role: 'interviewee' as const, transcript: 'A function with its scope.' },
    ];
    await createLlmInterviewer(client()).nextTurn({ set, history, utterance: 'A function with its scope.' });
    const body = llm.requests[0]?.body as { messages: unknown[] };
    expect(body.messages.slice(1)).toEqual([
      { role: 'user', content: JOINED_MESSAGE },
      { role: 'assistant', content: 'What is a closure?' },
      { role: 'user', content: 'A function with its scope.' },
    ]);
    llm.enqueue({ content: 'Next.' });
    await createLlmInterviewer(client()).nextTurn({ set, history: history.slice(0, 1), utterance: 'Closures keep scope.' });
    expect((llm.requests[1]?.body as { messages: unknown[] }).messages.at(-1)).toEqual({ role: 'user', content: 'Closures keep scope.' });
  });

  it('closes on a close_session tool call, with the remark from the same reply', async () => {
    llm.enqueue({
      tool: { name: 'close_session', arguments: '{"reason":"all questions covered"}' },
      content: 'Thank you, that was great.',
    });
    const turn = await createLlmInterviewer(client()).nextTurn({ set, history: [], utterance: 'I am done' });
    expect(turn).toEqual({ say: 'Thank you, that was great.', closeSession: { reason: 'all questions covered' } });
    expect(llm.requests).toHaveLength(1);
  });

  it('asks for a closing remark when the tool call came without words, and survives that failing', async () => {
    llm.enqueue(
      { tool: { name: 'close_session', arguments: '{"reason":"the candidate asked to stop"}' } },
      { content: 'Thanks for your time, goodbye!' },
    );
    const turn = await createLlmInterviewer(client()).nextTurn({ set, history: [], utterance: 'I want to stop' });
    expect(turn).toEqual({ say: 'Thanks for your time, goodbye!', closeSession: { reason: 'the candidate asked to stop' } });
    const second = llm.requests[1]?.body as { messages: Array<{ content: string }>; tools?: unknown };
    expect(second.tools).toBeUndefined();
    expect(second.messages.at(-1)?.content).toContain('The interview is ending (the candidate asked to stop)');

    llm.enqueue({ tool: { name: 'close_session', arguments: 'not json' } }, { status: 500, message: 'boom' });
    const fallback = await createLlmInterviewer(client()).nextTurn({ set, history: [], utterance: 'stop' });
    expect(fallback).toEqual({ say: FALLBACK_CLOSING_REMARK, closeSession: { reason: 'the interviewer ended the interview' } });
  });

  it('switches to the JSON field when the endpoint refuses tools, and stays there', async () => {
    const refuseTools = {
      decide: (r: { body: Record<string, unknown> }) =>
        r.body.tools
          ? { status: 400, message: 'tools are not supported by this model' }
          : { content: '{"say": "Hello! What is a closure?", "close_session": null}' },
    };
    llm.setFallback(refuseTools);
    const interviewer = createLlmInterviewer(client());
    expect(await interviewer.nextTurn({ set, history: [] })).toEqual({ say: 'Hello! What is a closure?', closeSession: null });
    expect(llm.requests.map((r) => Boolean(r.body.tools))).toEqual([true, false]);
    const system = (llm.requests[1]?.body as { messages: Array<{ content: string }> }).messages[0]?.content;
    expect(system).toContain('Reply ONLY with one JSON object');

    llm.setFallback({ content: 'Sure. ```json\n{"say": "Thanks, goodbye.", "close_session": {"reason": "all questions covered"}}\n```' });
    const history = [{ role: 'interviewer' as const, transcript: 'Hello! What is a closure?' }];
    expect(await interviewer.nextTurn({ set, history, utterance: 'done' })).toEqual({
      say: 'Thanks, goodbye.',
      closeSession: { reason: 'all questions covered' },
    });
    expect(llm.requests.map((r) => Boolean(r.body.tools))).toEqual([true, false, false]);
    // Earlier interviewer lines are shown to the model in the same JSON shape it must answer in.
    expect((llm.requests[2]?.body as { messages: unknown[] }).messages[2]).toEqual({
      role: 'assistant',
      content: '{"say":"Hello! What is a closure?","close_session":null}',
    });
  });

  it('also switches to the JSON field on a server error that names tools (llama.cpp without --jinja)', async () => {
    llm.setFallback({
      decide: (r) =>
        r.body.tools
          ? { status: 500, message: 'tools param requires --jinja flag' }
          : { content: '{"say": "Hi! What is a closure?", "close_session": null}' },
    });
    expect(await createLlmInterviewer(client()).nextTurn({ set, history: [] })).toEqual({
      say: 'Hi! What is a closure?',
      closeSession: null,
    });
    expect(llm.requests.map((r) => Boolean(r.body.tools))).toEqual([true, false]);
  });

  it('retries a glitch once, then throws a clear error; no retry after a timeout', async () => {
    llm.enqueue({ status: 502, message: 'bad gateway' }, { content: 'What is a closure?' });
    expect(await createLlmInterviewer(client()).nextTurn({ set, history: [] })).toEqual({ say: 'What is a closure?', closeSession: null });

    llm.enqueue({ content: '   ' }, { content: '**' });
    await expect(createLlmInterviewer(client()).nextTurn({ set, history: [] })).rejects.toThrow(
      'The language model answered with an empty line instead of the next question.',
    );

    llm.requests.length = 0;
    llm.enqueue({ delayMs: 2000, then: { content: 'late' } }, { content: 'unused' });
    await expect(createLlmInterviewer(client(300)).nextTurn({ set, history: [] })).rejects.toThrow('did not answer within');
    expect(llm.requests).toHaveLength(1);
  });
});
