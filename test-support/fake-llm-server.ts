/**
 * A local HTTP server speaking the OpenAI chat-completions wire protocol, standing in for OpenAI,
 * Ollama or vLLM in tests. Each request takes the next scripted reply (or the fallback); the
 * server records every request so tests can check what our client sent. A request with
 * `stream: true` gets its content and tool replies as server-sent chunks, as OpenAI sends them
 * (the usage in a last chunk when `stream_options.include_usage` asks for it).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (model, messages, tools, response_format, ...). */
  body: Record<string, unknown>;
}

export type FakeReply =
  /**
   * An assistant message with text content; streamed, a word every `wordGapMs` (a model writing
   * at a set rate) or all at once.
   */
  | { content: string; wordGapMs?: number }
  /** An assistant message calling a tool (content optional, as some models add a sentence). */
  | { tool: { name: string; arguments: string }; content?: string }
  /** An HTTP error with an OpenAI-shaped error body. */
  | { status: number; message: string }
  /** A raw body with status 200 (malformed answers). */
  | { raw: string }
  /** Answer after `ms` (or never, when the client gives up first). */
  | { delayMs: number; then: FakeReply }
  /** A completion with this content whose body arrives one byte every `gapMs` (a trickling server). */
  | { trickle: string; gapMs: number }
  /**
   * Content in these pieces (one chunk each when streamed; joined in one completion otherwise).
   * The last piece waits for `hold` (a test releases it), or with `cut` the connection is dropped
   * in its place (a server that stops mid-reply).
   */
  | { pieces: string[]; hold?: Promise<unknown>; cut?: boolean }
  /** Decide from the request: e.g. refuse when `tools` or `response_format` is present. */
  | { decide: (request: RecordedRequest) => FakeReply };

export interface FakeLlmServer {
  /** Base URL including /v1, as LLM_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queue replies for the next requests, in order. */
  enqueue(...replies: FakeReply[]): void;
  /** What to answer once the queue is empty (default: a 500 saying nothing is scripted). */
  setFallback(reply: FakeReply): void;
  close(): Promise<void>;
}

/** What every completion says it used (OpenAI's shape): tests of the session's cost count on it. */
export const FAKE_LLM_USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 80,
  total_tokens: 1280,
  prompt_tokens_details: { cached_tokens: 1024 },
};

function completion(model: string, message: Record<string, unknown>, finish: string): string {
  return JSON.stringify({
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage: FAKE_LLM_USAGE,
  });
}

function chunk(model: string, choice: Record<string, unknown> | null, usage?: unknown): string {
  const body = {
    id: 'chatcmpl-stream',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: choice ? [{ index: 0, ...choice }] : [],
    ...(usage ? { usage } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** Content split where a model's tokens would be: at each word, spaces kept. */
const tokens = (text: string): string[] => text.match(/\s*\S+\s*/g) ?? [text];

export async function startFakeLlmServer(): Promise<FakeLlmServer> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  let fallback: FakeReply = { status: 500, message: 'The fake LLM server has no reply scripted.' };
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, request: RecordedRequest, reply: FakeReply): void => {
    if (res.destroyed) return;
    const model = typeof request.body.model === 'string' ? request.body.model : 'fake';
    if ('decide' in reply) return send(res, request, reply.decide(request));
    if ('delayMs' in reply) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(res, request, reply.then);
      }, reply.delayMs);
      timers.add(timer);
      return;
    }
    const streamed = request.body.stream === true && ('content' in reply || 'tool' in reply || 'pieces' in reply);
    if (streamed) return void sendStream(res, request, model, reply);
    res.setHeader('content-type', 'application/json');
    if ('pieces' in reply) {
      if (reply.cut) return void res.destroy();
      void Promise.resolve(reply.hold).then(() => send(res, request, { content: reply.pieces.join('') }));
      return;
    }
    if ('trickle' in reply) {
      const body = completion(model, { content: reply.trickle }, 'stop');
      res.writeHead(200);
      let i = 0;
      const next = () => {
        if (res.destroyed) return;
        if (i >= body.length) return void res.end();
        res.write(body[i++]);
        const timer = setTimeout(() => {
          timers.delete(timer);
          next();
        }, reply.gapMs);
        timers.add(timer);
      };
      return next();
    }
    if ('status' in reply) {
      res.statusCode = reply.status;
      res.end(JSON.stringify({ error: { message: reply.message, type: 'invalid_request_error' } }));
    } else if ('raw' in reply) {
      res.end(reply.raw);
    } else if ('tool' in reply) {
      const call = { id: 'call_1', type: 'function', function: reply.tool };
      res.end(completion(model, { content: reply.content ?? null, tool_calls: [call] }, 'tool_calls'));
    } else {
      res.end(completion(model, { content: reply.content }, 'stop'));
    }
  };

  /** The reply as server-sent chunks: content piece by piece, a tool call's name then its arguments, the usage, [DONE]. */
  async function sendStream(res: ServerResponse, request: RecordedRequest, model: string, reply: FakeReply): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = 'pieces' in reply ? reply.pieces : 'content' in reply && reply.content ? tokens(reply.content) : [];
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && 'pieces' in reply) {
        // Dropped once what was written has left (a destroy would throw it away unsent).
        if (reply.cut) return void res.write('', () => res.destroy());
        await reply.hold;
      }
      if (i > 0 && 'wordGapMs' in reply && reply.wordGapMs) await new Promise((resolve) => setTimeout(resolve, reply.wordGapMs));
      if (res.destroyed) return;
      res.write(chunk(model, { delta: i === 0 ? { role: 'assistant', content: piece } : { content: piece }, finish_reason: null }));
    }
    if ('tool' in reply) {
      const { name, arguments: args } = reply.tool;
      res.write(
        chunk(model, {
          delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }] },
          finish_reason: null,
        }),
      );
      for (const part of [args.slice(0, Math.ceil(args.length / 2)), args.slice(Math.ceil(args.length / 2))]) {
        res.write(chunk(model, { delta: { tool_calls: [{ index: 0, function: { arguments: part } }] }, finish_reason: null }));
      }
    }
    res.write(chunk(model, { delta: {}, finish_reason: 'tool' in reply ? 'tool_calls' : 'stop' }));
    const options = request.body.stream_options as { include_usage?: boolean } | undefined;
    if (options?.include_usage) res.write(chunk(model, null, FAKE_LLM_USAGE));
    res.end('data: [DONE]\n\n');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // Recorded as empty; the reply script decides what to answer.
      }
      const recorded: RecordedRequest = { path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      if (req.method !== 'POST' || !recorded.path.endsWith('/chat/completions')) {
        return send(res, recorded, { status: 404, message: `Unknown path ${recorded.path}` });
      }
      send(res, recorded, queue.shift() ?? fallback);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    setFallback: (reply) => {
      fallback = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
