/** docs/product-rules.md, Pagination: the history page shows at most this many page numbers at once. */
export const PAGE_WINDOW_SIZE = 5;

/**
 * The page numbers to offer around the current page: at most `size` numbers, always within
 * 1..totalPages, with the current page as central as the edges allow.
 */
export function pageWindow(current: number, totalPages: number, size: number = PAGE_WINDOW_SIZE): number[] {
  if (totalPages < 1 || size < 1) return [];
  const page = Math.min(Math.max(1, Math.trunc(current)), totalPages);
  let start = Math.max(1, page - Math.floor(size / 2));
  const end = Math.min(totalPages, start + size - 1);
  start = Math.max(1, end - size + 1);
  const pages: number[] = [];
  for (let n = start; n <= end; n++) pages.push(n);
  return pages;
}

/** docs/product-rules.md, Pagination: a page is shown only if it lies between 1 and totalPages. */
export function isShowablePage(page: number, totalPages: number): boolean {
  return Number.isInteger(page) && page >= 1 && page <= totalPages;
}
