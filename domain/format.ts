/** docs/product-rules.md, Results and history: durations are stored in whole seconds and shown as minutes and seconds. */
export function formatDuration(totalSeconds: number | null | undefined): string {
  if (totalSeconds === null || totalSeconds === undefined || !Number.isFinite(totalSeconds) || totalSeconds < 0) return '—';
  const whole = Math.round(totalSeconds);
  const minutes = Math.floor(whole / 60);
  const seconds = whole % 60;
  return `${minutes}m ${seconds}s`;
}

/** Whole seconds between two millisecond readings (a session's duration, docs/product-rules.md, Results and history). */
export function wholeSecondsBetween(startMs: number, endMs: number): number {
  return Math.max(0, Math.round((endMs - startMs) / 1000));
}

/** A score as a percent, e.g. 87.4 -> "87%". */
export function formatPercent(score: number): string {
  return `${Math.round(score)}%`;
}

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd" (the admin dashboard's column heads). */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/** A calendar date for cards, e.g. "Mar 4, 2026"; the raw text when it is not a date. */
export function formatDate(iso: string, locale = 'en-US', timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric', ...(timeZone ? { timeZone } : {}) });
}

/** A date with its time, where one day can hold several interviews (the History tables), e.g. "Mar 4, 2026, 10:05 AM". */
export function formatDateTime(iso: string, locale = 'en-US', timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  });
}
