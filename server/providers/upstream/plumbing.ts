/**
 * Plumbing every call to an outside service (OpenAI, an LLM endpoint) shares, written once:
 * telling a timeout or abort from other failures, and reading the explanation in an error body.
 * Each provider keeps its own texts for the candidate; these helpers only classify and extract.
 */

/** A bounded wait ran out (AbortSignal.timeout) or the call was aborted. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/**
 * The upstream's own explanation from an error body: OpenAI and compatible servers answer
 * `{error: {message}}`, some `{error: "..."}`. Null when the body says nothing usable.
 */
export function upstreamErrorMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object' || !('error' in body)) return null;
  const { error } = body as { error: unknown };
  if (typeof error === 'string') return error || null;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message || null;
  return null;
}

/** Reads an error answer's body for the log: its error message, else the start of its text. */
export async function upstreamDetail(res: Response): Promise<string | undefined> {
  let text: string;
  try {
    text = await res.text();
  } catch {
    return undefined;
  }
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text itself is the detail
  }
  return upstreamErrorMessage(body)?.slice(0, 500) ?? (text.slice(0, 200) || undefined);
}
