/** docs/product-rules.md, Validation and limits: Markdown links are allowed only for these schemes. */
export const ALLOWED_URL_SCHEMES = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'] as const;

/**
 * react-markdown's urlTransform: keeps links with an allowed scheme and relative links (no scheme),
 * and blanks everything else (javascript:, data:, vbscript:, ...).
 */
export function safeMarkdownUrl(url: string): string {
  const trimmed = url.trim();
  const colon = trimmed.indexOf(':');
  const boundary = Math.min(...['/', '?', '#'].map((c) => (trimmed.includes(c) ? trimmed.indexOf(c) : Infinity)));
  // No colon, or the colon comes after a path/query/fragment start: a relative URL.
  if (colon === -1 || colon > boundary) return trimmed;
  const scheme = trimmed.slice(0, colon).toLowerCase();
  return (ALLOWED_URL_SCHEMES as readonly string[]).includes(scheme) ? trimmed : '';
}
