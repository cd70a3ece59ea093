/** The dashboard charts' ranges in days; the chosen one is the address's `?days=` (so back and forward work). */
export const CHART_RANGES = [7, 30, 90] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export const DEFAULT_CHART_RANGE: ChartRange = 30;

/** The range in the address, or the default one for anything else. */
export function chartRangeOf(url: URL): ChartRange {
  const days = Number(url.searchParams.get('days'));
  return CHART_RANGES.find((range) => range === days) ?? DEFAULT_CHART_RANGE;
}
