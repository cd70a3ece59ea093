/**
 * A small client for any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp). Plain fetch, a bounded timeout per call, and errors a person can act on (they end
 * up in logs and, for the interviewer, in the candidate's screen). The API key never appears in
 * an error.
 */
import { z } from 'zod';
import { ConfigError, type AppConfig } from '../../config';
import { DEFAULT_OPENAI_TEXT_MODEL } from '../../openai-models';
import { ProviderError, type LlmUsage } from '../types';
import { isAbort, upstreamErrorMessage } from './plumbing';

export { DEFAULT_OPENAI_TEXT_MODEL };
export const DEFAULT_LLM_TIMEOUT_MS = 30_000;

export interface LlmSettings {
  /** Up to and including the version segment, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 */
  baseUrl: string;
  apiKey: string | null;
  model: string;
}

/**
 * Which LLM to use, or null for none: `LLM_BASE_URL` + `LLM_MODEL` (+ `LLM_API_KEY`) win;
 * otherwise `OPENAI_API_KEY` means OpenAI with `LLM_MODEL` or DEFAULT_OPENAI_TEXT_MODEL.
 */
export function resolveLlmSettings(config: AppConfig): LlmSettings | null {
  if (config.llmBaseUrl) {
    if (!config.llmModel) {
      throw new ConfigError(['LLM_MODEL: must be set when LLM_BASE_URL is set (the model name the endpoint serves)']);
    }
    return { baseUrl: config.llmBaseUrl, apiKey: config.llmApiKey, model: config.llmModel };
  }
  if (config.openaiApiKey) {
    return { baseUrl: config.openaiBaseUrl, apiKey: config.openaiApiKey, model: config.llmModel ?? DEFAULT_OPENAI_TEXT_MODEL };
  }
  return null;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  response_format?:
    { type: 'json_object' } | { type: 'json_schema'; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
  temperature?: number;
  /** Every request bounds its answer (issue 33 item 6): a reply cannot run on at our cost. */
  max_tokens: number;
}

/** Told before each request is sent, the client's own second try included. */
export interface ChatHooks {
  /** Takes the request's place in a budget, told its size in characters (the JSON body); false refuses it. */
  reserve: (promptChars: number) => Promise<boolean>;
  /** The refused request's error message. */
  refusal: string;
}

export interface ChatResult {
  content: string | null;
  toolCalls: Array<{ name: string; arguments: string }>;
  /** What the endpoint says the call used; null when it does not say (some local servers). */
  usage: LlmUsage | null;
}

/** An LLM call failed. `retryable`: trying again may help (timeout, 429, 5xx, malformed answer). */
export class LlmError extends ProviderError {
  constructor(
    message: string,
    status: number,
    readonly retryable: boolean,
    upstreamStatus?: number,
    /** The endpoint refused the request itself (HTTP 400/404/422): e.g. no tool or schema support. */
    readonly rejectedRequest = false,
  ) {
    super(message, status, upstreamStatus);
    this.name = 'LlmError';
  }
}

export interface LlmClient {
  readonly model: string;
  /**
   * One completion. With `onContent` the reply is asked for streamed (`stream: true`) and
   * `onContent` is told the content written so far at each piece; the result is the same whole
   * reply either way (an endpoint that answers one JSON body instead is read as before).
   */
  chat(request: ChatRequest, hooks?: ChatHooks, onContent?: (contentSoFar: string) => void): Promise<ChatResult>;
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(z.object({ function: z.object({ name: z.string(), arguments: z.string().nullish() }) })).nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().nonnegative(),
      completion_tokens: z.number().nonnegative(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().nonnegative().nullish() }).nullish(),
    })
    .nullish()
    // A server that reports usage in another shape still answers: its usage is simply unknown.
    .catch(null),
});

/** One server-sent event of a streamed completion (OpenAI's chat.completion.chunk). */
const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative().optional(),
                  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  usage: completionSchema.shape.usage,
});
type CompletionUsage = z.infer<typeof completionSchema>['usage'];

/** The upstream's own explanation, short, for our error text (OpenAI: {error: {message}}). */
function upstreamMessage(body: unknown, apiKey: string | null): string {
  let text = (upstreamErrorMessage(body) ?? '').replace(/\s+/g, ' ').trim();
  // Some servers echo the key they refused; it must not reach a log or a screen.
  if (apiKey) text = text.split(apiKey).join('***');
  return text ? `: ${text.length > 200 ? `${text.slice(0, 200)}...` : text}` : '.';
}

export function createLlmClient(settings: LlmSettings, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): LlmClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const url = `${settings.baseUrl}/chat/completions`;
  const where = `The language model endpoint (${new URL(url).origin})`;
  const waited = `${Number((timeoutMs / 1000).toFixed(1))} seconds`;

  const usageOf = (usage: CompletionUsage): LlmUsage | null =>
    usage
      ? {
          model: settings.model,
          inputTokens: usage.prompt_tokens,
          cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
          outputTokens: usage.completion_tokens,
        }
      : null;

  /**
   * A streamed completion's server-sent events (`data: {chunk}` lines, `data: [DONE]` last): the
   * content and tool calls put together from their deltas, `onContent` told the content at each
   * piece. The usage comes in the last chunk (stream_options.include_usage).
   */
  async function readStream(res: Response, onContent: (contentSoFar: string) => void): Promise<ChatResult> {
    let content = '';
    let sawContent = false;
    let usage: CompletionUsage = null;
    const calls: Array<{ name: string; arguments: string }> = [];
    const decoder = new TextDecoder();
    let buffered = '';
    const take = (line: string): boolean => {
      const data = line.startsWith('data:') ? line.slice(5).trim() : null;
      if (data === null || data === '') return false;
      if (data === '[DONE]') return true;
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        throw new LlmError(`${where} answered something that is not a chat completion.`, 502, true, res.status);
      }
      const chunk = chunkSchema.safeParse(json);
      if (!chunk.success) throw new LlmError(`${where} answered something that is not a chat completion.`, 502, true, res.status);
      usage = chunk.data.usage ?? usage;
      const delta = chunk.data.choices?.[0]?.delta;
      for (const call of delta?.tool_calls ?? []) {
        const at = call.index ?? calls.length - 1;
        const held = (calls[Math.max(0, at)] ??= { name: '', arguments: '' });
        held.name += call.function?.name ?? '';
        held.arguments += call.function?.arguments ?? '';
      }
      if (delta?.content) {
        content += delta.content;
        sawContent = true;
        onContent(content);
      }
      return false;
    };
    try {
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      for (let done = false; !done;) {
        const next = await reader.read();
        buffered += decoder.decode(next.value, { stream: !next.done });
        const lines = buffered.split(/\r?\n/);
        buffered = next.done ? '' : (lines.pop() ?? '');
        for (const line of lines) if (!done && take(line)) done = true;
        if (next.done) break;
        // After [DONE] nothing more is read: the connection is let go.
        if (done) await reader.cancel().catch(() => undefined);
      }
    } catch (error) {
      if (error instanceof LlmError) throw error;
      if (isAbort(error)) throw new LlmError(`${where} did not answer within ${waited}.`, 504, true);
      throw new LlmError(`${where} stopped answering in the middle of the reply.`, 502, true, res.status);
    }
    return {
      content: sawContent ? content : null,
      toolCalls: calls.filter((c) => c.name),
      usage: usageOf(usage),
    };
  }

  async function send(request: ChatRequest, hooks: ChatHooks | undefined, onContent?: (contentSoFar: string) => void): Promise<ChatResult> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    // Streamed replies report their usage only when asked to (in a last chunk with no choices).
    const streamed = onContent ? { stream: true, stream_options: { include_usage: true } } : {};
    const body = JSON.stringify({ model: settings.model, ...request, ...streamed });
    // Counted before it is sent: a budget holds every request, not every call of ours.
    if (hooks && !(await hooks.reserve(body.length))) throw new LlmError(hooks.refusal, 429, false);
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (isAbort(error)) {
        throw new LlmError(`${where} did not answer within ${waited}.`, 504, true);
      }
      throw new LlmError(`${where} could not be reached. Check LLM_BASE_URL and that the server is running.`, 502, true);
    }
    if (onContent && res.ok && res.body && /^text\/event-stream\b/i.test(res.headers.get('content-type') ?? '')) {
      return readStream(res, onContent);
    }
    let answer: unknown;
    try {
      answer = await res.json();
    } catch (error) {
      if (isAbort(error)) {
        throw new LlmError(`${where} did not answer within ${waited}.`, 504, true);
      }
      answer = null;
    }
    if (!res.ok) {
      const detail = upstreamMessage(answer, settings.apiKey);
      if (res.status === 401 || res.status === 403) {
        throw new LlmError(`${where} rejected the API key (HTTP ${res.status})${detail}`, 502, false, res.status);
      }
      if (res.status === 429) {
        throw new LlmError(`${where} is rate limiting requests (HTTP 429)${detail}`, 503, true, res.status);
      }
      const refused = res.status === 400 || res.status === 404 || res.status === 422;
      throw new LlmError(`${where} answered HTTP ${res.status}${detail}`, 502, res.status >= 500, res.status, refused);
    }
    const parsed = completionSchema.safeParse(answer);
    if (!parsed.success) {
      throw new LlmError(`${where} answered something that is not a chat completion.`, 502, true, res.status);
    }
    const message = parsed.data.choices[0]?.message;
    // An endpoint that ignores `stream` answers the whole reply at once: it is all written now.
    if (onContent && message?.content) onContent(message.content);
    return {
      content: message?.content ?? null,
      toolCalls: (message?.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments ?? '' })),
      usage: usageOf(parsed.data.usage),
    };
  }

  // Reasoning models (OpenAI o-series, gpt-5) refuse `temperature`; learned once per client.
  let temperatureRefused = false;
  const withoutTemperature = ({ temperature: _dropped, ...rest }: ChatRequest): ChatRequest => rest;
  // An endpoint that refuses `stream` or `stream_options` answers whole replies: learned once per
  // client too, so its refusal is not taken for a refusal of tools (the interviewer's JSON protocol).
  let streamRefused = false;

  async function sendOnce(request: ChatRequest, hooks: ChatHooks | undefined, onContent?: (contentSoFar: string) => void) {
    if (streamRefused && onContent) {
      const whole = await send(request, hooks);
      if (whole.content) onContent(whole.content);
      return whole;
    }
    try {
      return await send(request, hooks, onContent);
    } catch (error) {
      if (!onContent || !(error instanceof LlmError) || !error.rejectedRequest || !/\bstream/i.test(error.message)) throw error;
      streamRefused = true;
      return sendOnce(request, hooks, onContent);
    }
  }

  return {
    model: settings.model,
    async chat(request, hooks, onContent) {
      if (temperatureRefused) return sendOnce(withoutTemperature(request), hooks, onContent);
      try {
        return await sendOnce(request, hooks, onContent);
      } catch (error) {
        const refused = error instanceof LlmError && error.rejectedRequest && /temperature/i.test(error.message);
        if (!refused || request.temperature === undefined) throw error;
        temperatureRefused = true;
        return sendOnce(withoutTemperature(request), hooks, onContent);
      }
    },
  };
}

/** The first JSON object in a text (models wrap JSON in prose or code fences); null when none parses. */
export function extractJsonObject(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return null;
  }
}
