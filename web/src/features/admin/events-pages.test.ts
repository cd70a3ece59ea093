import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../lib/http';
import { eventPagesOf, EVENTS_PAGE_SIZE, loadEventPages, MAX_EVENT_PAGES } from './events-pages';

const url = (search: string) => new URL(`http://localhost/admin/events${search}`);

describe('eventPagesOf', () => {
  it('reads ?pages= as a whole number from 1 to the maximum', () => {
    expect(eventPagesOf(url(''))).toBe(1);
    expect(eventPagesOf(url('?pages=3'))).toBe(3);
    expect(eventPagesOf(url(`?pages=${MAX_EVENT_PAGES + 5}`))).toBe(MAX_EVENT_PAGES);
  });

  it('falls back to one page for anything else', () => {
    for (const search of ['?pages=0', '?pages=-2', '?pages=1.5', '?pages=abc', '?pages=']) expect(eventPagesOf(url(search))).toBe(1);
  });
});

describe('loadEventPages', () => {
  /** A server holding `total` events, newest (highest id) first, answering like GET /api/events. */
  function server(total: number) {
    const requests: Array<number | undefined> = [];
    const fetchPage = async (before: number | undefined): Promise<ApiResult<Array<{ id: number }>>> => {
      requests.push(before);
      const ids = Array.from({ length: total }, (_, i) => total - i).filter((id) => before === undefined || id < before);
      return { ok: true, data: ids.slice(0, EVENTS_PAGE_SIZE).map((id) => ({ id })) };
    };
    return { requests, fetchPage };
  }

  it('fetches each page with the last id of the page before as the cursor', async () => {
    const { requests, fetchPage } = server(120);
    const result = await loadEventPages(fetchPage, 2);
    expect(requests).toEqual([undefined, 71]);
    expect(result).toEqual({ ok: true, data: { events: Array.from({ length: 100 }, (_, i) => ({ id: 120 - i })), hasMore: true } });
  });

  it('stops at a short page and says there is nothing older', async () => {
    const { requests, fetchPage } = server(55);
    const result = await loadEventPages(fetchPage, 5);
    expect(requests).toEqual([undefined, 6]);
    expect(result.ok && result.data.events).toHaveLength(55);
    expect(result.ok && result.data.hasMore).toBe(false);
  });

  it('fails the whole list when a page fails', async () => {
    let calls = 0;
    const failure = { ok: false as const, kind: 'network' as const, error: new Error('offline') };
    const result = await loadEventPages(
      async () => (++calls === 1 ? { ok: true, data: Array.from({ length: EVENTS_PAGE_SIZE }, (_, i) => ({ id: 100 - i })) } : failure),
      3,
    );
    expect(result).toBe(failure);
    expect(calls).toBe(2);
  });
});
