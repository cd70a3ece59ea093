/** A count with its noun in the right number: count(1, 'rating') is "1 rating", count(2, 'rating') "2 ratings". */
export function count(n: number, singular: string, plural = `${singular}s`, format: (n: number) => string = String): string {
  return `${format(n)} ${n === 1 ? singular : plural}`;
}
