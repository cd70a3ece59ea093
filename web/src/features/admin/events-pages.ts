/**
 * Recent Events' paging (docs/product-rules.md, Admin area): the newest events a page at a time,
 * older pages fetched with the `before` cursor (the last id shown). The address says how many
 * pages are on show (`?pages=`), so reload, back and forward show the same list.
 */
import type { ApiResult } from '../../lib/http';

/** Events per request. */
export const EVENTS_PAGE_SIZE = 50;
/** The most pages one address may ask for (1,000 events): a typed address cannot ask for everything. */
export const MAX_EVENT_PAGES = 20;

/** The number of pages the address asks for: a whole number from 1 to MAX_EVENT_PAGES, 1 otherwise. */
export function eventPagesOf(url: URL): number {
  const pages = Number(url.searchParams.get('pages'));
  return Number.isInteger(pages) && pages >= 1 ? Math.min(pages, MAX_EVENT_PAGES) : 1;
}

export interface EventPages<T> {
  events: T[];
  /** A full last page: there may be older events. */
  hasMore: boolean;
}

/**
 * The first `pages` pages, one request after another (each cursor is the last id of the page
 * before); stops early at a short page. A failed request fails the whole list.
 */
export async function loadEventPages<T extends { id: number }>(
  fetchPage: (before: number | undefined) => Promise<ApiResult<T[]>>,
  pages: number,
): Promise<ApiResult<EventPages<T>>> {
  const events: T[] = [];
  for (let page = 0; page < pages; page++) {
    const result = await fetchPage(events.at(-1)?.id);
    if (!result.ok) return result;
    events.push(...result.data);
    // A short page means the oldest event has been reached.
    if (result.data.length < EVENTS_PAGE_SIZE) return { ok: true, data: { events, hasMore: false } };
  }
  return { ok: true, data: { events, hasMore: true } };
}
