/**
 * The learned part of the rater: how likely an answer states a key point, from the point's
 * features (server/rater/point-features.ts) weighed by a logistic regression whose few weights
 * live in server/rater/weights/point-decision.json. bench/rater/fit-point-decision.ts fits them on
 * the tuning half of the Beetle answers (real students' answers, human labels) and chooses the
 * probability from which a point the word matcher missed is credited; docs/decisions/020-learned-partial-credit.md says why.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_NAMES } from './point-features';
import { fileURLToPath } from 'node:url';

export interface PointDecisionFile {
  /** Feature names, in the order of `weights` (must equal FEATURE_NAMES). */
  features: string[];
  bias: number;
  weights: number[];
  /** A point the matcher missed is credited from this probability. */
  creditFrom: number;
  /** How the weights were fitted, and what they measured on the data they were fitted on. */
  fitted: Record<string, unknown>;
}

export const WEIGHTS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'weights', 'point-decision.json');

let decision: PointDecisionFile | undefined;

export function pointDecision(): PointDecisionFile {
  if (decision) return decision;
  const read = JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8')) as PointDecisionFile;
  if (read.features.join(',') !== FEATURE_NAMES.join(',') || read.weights.length !== FEATURE_NAMES.length)
    throw new Error(`${WEIGHTS_FILE}: its features (${read.features.join(', ')}) are not the rater's (${FEATURE_NAMES.join(', ')})`);
  decision = read;
  return decision;
}

/** Probability (0-1) that the answer states the point, from its features. */
export function pointProbability(values: readonly number[], d: Pick<PointDecisionFile, 'bias' | 'weights'> = pointDecision()): number {
  let z = d.bias;
  for (let i = 0; i < d.weights.length; i++) z += d.weights[i]! * values[i]!;
  return 1 / (1 + Math.exp(-z));
}
