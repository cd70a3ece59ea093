/**
 * Gradient-boosted small trees for a yes/no target (logistic loss): each round fits a tree of
 * depth `depth` to the gradient, its leaves set by one Newton step, shrunk by `rate`. Split
 * thresholds are taken at a feature's quantiles. A tree may be held to monotone features: a
 * split on feature j whose higher side would get the lower value (against `signs[j]`) is not
 * taken. Enough for a few thousand rows and a dozen or two features; used by
 * bench/rater/compare-answer-features.ts. The fitted trees are plain data (JSON-ready).
 */

/** A small decision tree: a leaf's value, or a split on one feature (at most `threshold` goes low). */
export type TreeNode = { value: number } | { feature: number; threshold: number; low: TreeNode; high: TreeNode };

/** Boosted trees: the estimate's log-odds are the bias plus each tree's leaf value. */
export interface Tree {
  bias: number;
  trees: TreeNode[];
}

export interface TreeOptions {
  rounds: number;
  depth: number;
  rate: number;
  /** Fewest rows a leaf may hold. */
  minLeaf: number;
  /** L2 on leaf values. */
  lambda: number;
  /** Per feature: 1 only raises the estimate, -1 only lowers it, 0 free. */
  signs?: readonly number[];
}

const QUANTILES = 24;

function thresholdsOf(xs: readonly number[][], j: number): number[] {
  const values = [...new Set(xs.map((x) => x[j]!))].sort((a, b) => a - b);
  if (values.length <= QUANTILES) return values.slice(0, -1).map((v, i) => (v + values[i + 1]!) / 2);
  const out = new Set<number>();
  for (let q = 1; q < QUANTILES; q++) {
    const at = Math.floor((q * values.length) / QUANTILES);
    out.add((values[at - 1]! + values[at]!) / 2);
  }
  return [...out];
}

function leafValue(rows: readonly number[], g: readonly number[], h: readonly number[], lambda: number): number {
  let sg = 0;
  let sh = 0;
  for (const i of rows) {
    sg += g[i]!;
    sh += h[i]!;
  }
  return -sg / (sh + lambda);
}

function gain(rows: readonly number[], g: readonly number[], h: readonly number[], lambda: number): number {
  let sg = 0;
  let sh = 0;
  for (const i of rows) {
    sg += g[i]!;
    sh += h[i]!;
  }
  return (sg * sg) / (sh + lambda);
}

function grow(
  xs: readonly number[][],
  rows: number[],
  g: readonly number[],
  h: readonly number[],
  thresholds: readonly number[][],
  depth: number,
  o: TreeOptions,
): TreeNode {
  const here = leafValue(rows, g, h, o.lambda);
  if (depth === 0 || rows.length < 2 * o.minLeaf) return { value: here };
  const base = gain(rows, g, h, o.lambda);
  let best: { j: number; t: number; gain: number; low: number[]; high: number[] } | null = null;
  thresholds.forEach((ts, j) => {
    for (const t of ts) {
      const low: number[] = [];
      const high: number[] = [];
      for (const i of rows) (xs[i]![j]! <= t ? low : high).push(i);
      if (low.length < o.minLeaf || high.length < o.minLeaf) continue;
      const sign = o.signs?.[j] ?? 0;
      if (sign !== 0) {
        const lv = leafValue(low, g, h, o.lambda);
        const hv = leafValue(high, g, h, o.lambda);
        if ((hv - lv) * sign < 0) continue;
      }
      const gn = gain(low, g, h, o.lambda) + gain(high, g, h, o.lambda) - base;
      if (gn > (best?.gain ?? 1e-9)) best = { j, t, gain: gn, low, high };
    }
  });
  if (!best) return { value: here };
  const b = best as { j: number; t: number; low: number[]; high: number[] };
  const low = grow(xs, b.low, g, h, thresholds, depth - 1, o);
  const high = grow(xs, b.high, g, h, thresholds, depth - 1, o);
  // Each split is held to its feature's sign; splits deeper down can still cross one above (not guarded).
  return { feature: b.j, threshold: b.t, low, high };
}

export function treeValue(node: TreeNode, x: readonly number[]): number {
  let n = node;
  while (!('value' in n)) n = x[n.feature]! <= n.threshold ? n.low : n.high;
  return n.value;
}

function scale(node: TreeNode, by: number): TreeNode {
  if ('value' in node) return { value: Math.round(node.value * by * 10_000) / 10_000 };
  return {
    feature: node.feature,
    threshold: Math.round(node.threshold * 10_000) / 10_000,
    low: scale(node.low, by),
    high: scale(node.high, by),
  };
}

/** Fits the trees; `bias` is the log-odds of the mean target. */
export function fitTrees(xs: readonly number[][], ys: readonly number[], o: TreeOptions): Tree {
  const mean = Math.min(0.99, Math.max(0.01, ys.reduce((a, b) => a + b, 0) / ys.length));
  const bias = Math.log(mean / (1 - mean));
  const f = xs.map(() => bias);
  const thresholds = xs[0]!.map((_, j) => thresholdsOf(xs, j));
  const trees: TreeNode[] = [];
  const all = xs.map((_, i) => i);
  for (let r = 0; r < o.rounds; r++) {
    const p = f.map((z) => 1 / (1 + Math.exp(-z)));
    const g = p.map((pi, i) => pi - ys[i]!);
    const h = p.map((pi) => Math.max(1e-6, pi * (1 - pi)));
    const tree = scale(grow(xs, all, g, h, thresholds, o.depth, o), o.rate);
    trees.push(tree);
    xs.forEach((x, i) => (f[i]! += treeValue(tree, x)));
  }
  return { bias: Math.round(bias * 10_000) / 10_000, trees };
}

/** The estimate (0-1) of fitted trees for one row. */
export function treesProbability(t: Tree, x: readonly number[]): number {
  return 1 / (1 + Math.exp(-(t.bias + t.trees.reduce((s, n) => s + treeValue(n, x), 0))));
}
