/**
 * The one attempt loop of the JSON-schema chat calls (the LLM rater and the editor's phrasing
 * drafts): the request goes with its strict schema first; an endpoint that refuses the schema
 * itself is asked the same request without it, and is remembered as such (endpoints that refuse
 * schemas refuse them every time), which is not counted as a retry; a retryable LlmError is tried
 * again up to `retries` times; anything else ends the loop at once. The last error is thrown.
 */
import { LlmError } from './llm-client';

/** Whether this process's endpoint takes `response_format: json_schema`; learned once, kept by the caller. */
export interface SchemaSupport {
  supported: boolean;
}

export function refusedSchema(error: unknown): boolean {
  return error instanceof LlmError && (error.rejectedRequest || /response_format|json_schema/i.test(error.message));
}

export async function withSchemaAttempts<T>(
  support: SchemaSupport,
  retries: number,
  run: (withSchema: boolean) => Promise<T>,
  /** Before a retry (attempt 1, 2 …); not before the first try or its schema-less repeat. */
  pause: (attempt: number) => Promise<void> = async () => {},
): Promise<T> {
  let lastError: Error = new Error('no attempt made');
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await pause(attempt);
    try {
      return await run(support.supported);
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
      if (refusedSchema(error) && support.supported) {
        support.supported = false;
        attempt--; // The same endpoint asked without the schema is not a retry of the same request.
        continue;
      }
      if (!(error instanceof LlmError) || !error.retryable) break;
    }
  }
  throw lastError;
}
