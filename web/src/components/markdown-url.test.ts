import { describe, expect, it } from 'vitest';
import { safeMarkdownUrl } from './markdown-url';

describe('Markdown link schemes (docs/product-rules.md, Validation and limits)', () => {
  it.each([
    'http://a.example',
    'https://a.example/x?y#z',
    'irc://irc.example/chan',
    'ircs://irc.example',
    'mailto:a@b.co',
    'xmpp:a@b.co',
    'HTTPS://A.EXAMPLE',
  ])('keeps %s', (url) => expect(safeMarkdownUrl(url)).toBe(url));

  it.each([
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    'ftp://a.example',
  ])('blanks %s', (url) => expect(safeMarkdownUrl(url)).toBe(''));

  it('keeps relative links, including ones with a colon after the path starts', () => {
    expect(safeMarkdownUrl('/history')).toBe('/history');
    expect(safeMarkdownUrl('#model-answers')).toBe('#model-answers');
    expect(safeMarkdownUrl('notes/a:b')).toBe('notes/a:b');
  });
});
