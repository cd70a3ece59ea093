import { describe, expect, it } from 'vitest';
import { isShowablePage, pageWindow } from './pagination';

describe('page window (docs/product-rules.md, Pagination: at most 5 numbers)', () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 5, [1, 2, 3, 4, 5]],
    [1, 9, [1, 2, 3, 4, 5]],
    [2, 9, [1, 2, 3, 4, 5]],
    [3, 9, [1, 2, 3, 4, 5]],
    [4, 9, [2, 3, 4, 5, 6]],
    [5, 9, [3, 4, 5, 6, 7]],
    [8, 9, [5, 6, 7, 8, 9]],
    [9, 9, [5, 6, 7, 8, 9]],
    [12, 9, [5, 6, 7, 8, 9]],
    [0, 4, [1, 2, 3, 4]],
  ])('page %i of %i -> %j', (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });

  it('offers nothing when there are no pages', () => {
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('never exceeds five numbers, always contains the current page and stays in range', () => {
    for (let total = 1; total <= 30; total++)
      for (let current = 1; current <= total; current++) {
        const pages = pageWindow(current, total);
        expect(pages.length).toBe(Math.min(5, total));
        expect(pages).toContain(current);
        expect(pages[0]).toBeGreaterThanOrEqual(1);
        expect(pages[pages.length - 1]).toBeLessThanOrEqual(total);
      }
  });
});

describe('showable pages (docs/product-rules.md, Pagination)', () => {
  it('accepts only 1..totalPages', () => {
    expect(isShowablePage(1, 3)).toBe(true);
    expect(isShowablePage(3, 3)).toBe(true);
    expect(isShowablePage(0, 3)).toBe(false);
    expect(isShowablePage(4, 3)).toBe(false);
    expect(isShowablePage(1, 0)).toBe(false);
    expect(isShowablePage(1.5, 3)).toBe(false);
  });
});
