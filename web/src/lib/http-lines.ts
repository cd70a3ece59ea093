/**
 * Calls whose answer comes in lines (one JSON object a line: a streamed speech turn), apart from
 * http.ts so that the first screen's chunk does not carry them.
 */
import { answerOf, send, type ApiResult, type CallOptions } from './http';

/**
 * A call whose answer may come in lines (`accept`, one JSON object a line, e.g. a streamed speech
 * turn): `line` is given each line as it arrives and answers the call's result for its last line,
 * null for the others. An answer of another type is read as callApi reads it. A stream that ends
 * before its last line did not get through.
 */
export async function callApiInLines<T>(
  path: string,
  options: CallOptions & { accept: string },
  line: (value: unknown) => ApiResult<T> | null,
): Promise<ApiResult<T>> {
  const sent = await send(path, { ...options, headers: { ...options.headers, accept: options.accept } });
  if (!('response' in sent)) return sent;
  const { response } = sent;
  if (!response.ok || !response.body || !(response.headers.get('content-type') ?? '').startsWith(options.accept)) {
    return answerOf<T>(response);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const next = await reader.read();
      buffered += decoder.decode(next.value, { stream: !next.done });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const text of lines) {
        if (!text.trim()) continue;
        const result = line(JSON.parse(text) as unknown);
        if (result) return result;
      }
      if (next.done) return { ok: false, kind: 'network', error: new Error('The answer ended before its last line.') };
    }
  } catch (error) {
    return error instanceof SyntaxError
      ? { ok: false, kind: 'invalid', status: response.status, error }
      : { ok: false, kind: 'network', error };
  }
}
