import type { FailureTexts } from '../../lib/load-data';

/** Date and time as the operator's browser writes them; the raw text when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/**
 * docs/product-rules.md, Admin area: "`{failed}`: {server error or status text}" when the server
 * answered, `otherwise` when the call did not get through (lib/load-data.ts says which).
 */
export function adminTexts(failed: string, otherwise: string): FailureTexts {
  return { http: (message) => `${failed}: ${message}`, network: otherwise };
}
