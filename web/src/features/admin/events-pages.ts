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
 * The first `pages` pages of any keyset-paged list, one request after another (each cursor comes
 * from the last item of the page before); stops early at a short page. A failed request fails the
 * whole list. Recent Events, User Feedback and Manage Emails page this way.
 */
export async function loadPages<T>(
  fetchPage: (last: T | undefined) => Promise<ApiResult<T[]>>,
  pages: number,
  pageSize: number,
): Promise<ApiResult<{ items: T[]; hasMore: boolean }>> {
  const items: T[] = [];
  for (let page = 0; page < pages; page++) {
    const result = await fetchPage(items.at(-1));
    if (!result.ok) return result;
    items.push(...result.data);
    // A short page means the end of the list has been reached.
    if (result.data.length < pageSize) return { ok: true, data: { items, hasMore: false } };
  }
  return { ok: true, data: { items, hasMore: true } };
}

/** The events' pages (cursor: the last id shown). */
export async function loadEventPages<T extends { id: number }>(
  fetchPage: (before: number | undefined) => Promise<ApiResult<T[]>>,
  pages: number,
): Promise<ApiResult<EventPages<T>>> {
  const result = await loadPages<T>((last) => fetchPage(last?.id), pages, EVENTS_PAGE_SIZE);
  return result.ok ? { ok: true, data: { events: result.data.items, hasMore: result.data.hasMore } } : result;
}
