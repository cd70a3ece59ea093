/** docs/product-rules.md, Results and history: green at 80 or above, yellow at 60 or above, red below. */
export type ScoreColour = 'green' | 'yellow' | 'red';

export function scoreColour(score: number): ScoreColour {
  if (score >= 80) return 'green';
  if (score >= 60) return 'yellow';
  return 'red';
}
