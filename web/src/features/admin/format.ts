/** Date and time as the operator's browser writes them; the raw text when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** docs/product-rules.md, Admin area: `{prefix}: {server error or status text}`, or the sentence for a call that did not work. */
export function failureText(
  result: { kind: 'http'; message: string } | { kind: 'network' | 'invalid' },
  prefix: string,
  otherwise: string,
): string {
  return result.kind === 'http' ? `${prefix}: ${result.message}` : otherwise;
}
