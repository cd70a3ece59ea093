/** Streamed turns in tests: the call as the browser sends it, and its answer (one JSON object a line) read as the browser reads it. */
import { SPEECH_TURN_STREAM_TYPE } from '../contract/limits';

/** The answer's lines, one at a time; null once the answer has ended. */
export function lineReader<Line>(body: ReadableStream<Uint8Array>): () => Promise<Line | null> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return async () => {
    for (;;) {
      const end = buffered.indexOf('\n');
      if (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        return JSON.parse(line) as Line;
      }
      const next = await reader.read();
      if (next.done) return null;
      buffered += decoder.decode(next.value, { stream: true });
    }
  };
}

/** Every line of the answer. */
export async function allLines<Line>(body: ReadableStream<Uint8Array>): Promise<Line[]> {
  const next = lineReader<Line>(body);
  const lines: Line[] = [];
  for (let line = await next(); line; line = await next()) lines.push(line);
  return lines;
}

/** A promise the test resolves when it chooses (a fake server holding its last piece). */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A turn call over HTTP as the browser sends it; `streamed` asks for the answer in lines. */
export function postTurnCall(baseUrl: string | undefined, path: string, email: string, body: Record<string, unknown>, streamed = true) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user-email': email, ...(streamed ? { accept: SPEECH_TURN_STREAM_TYPE } : {}) },
    body: JSON.stringify(body),
  });
}
