/**
 * A small logistic regression: L2-regularised, fitted by Newton's method on standardised features,
 * returned as weights on the raw features (bias first). Enough for a dozen features and a few
 * thousand rows; used by bench/rater/fit-point-decision.ts.
 */
export interface Fitted {
  bias: number;
  weights: number[];
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const d = m[c]![c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / d;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Fits y ~ sigmoid(bias + w·x); `l2` on the standardised weights (not the bias); `weight` per row. */
export function fitLogistic(xs: readonly number[][], ys: readonly number[], l2 = 1, rowWeights?: readonly number[]): Fitted {
  const d = xs[0]!.length;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / xs.length);
  const sd = Array.from({ length: d }, (_, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / xs.length) || 1);
  const z = xs.map((x) => [1, ...x.map((v, j) => (v - mean[j]!) / sd[j]!)]);
  let w = new Array<number>(d + 1).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    z.forEach((x, i) => {
      const rw = rowWeights?.[i] ?? 1;
      const p = sigmoid(x.reduce((s, v, j) => s + v * w[j]!, 0));
      const g = (p - ys[i]!) * rw;
      const h = p * (1 - p) * rw;
      for (let j = 0; j <= d; j++) {
        grad[j]! += g * x[j]!;
        for (let k = 0; k <= d; k++) hess[j]![k]! += h * x[j]! * x[k]!;
      }
    });
    for (let j = 1; j <= d; j++) {
      grad[j]! += l2 * w[j]!;
      hess[j]![j]! += l2;
    }
    const step = solve(hess, grad);
    w = w.map((v, j) => v - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  const weights = w.slice(1).map((v, j) => v / sd[j]!);
  const bias = w[0]! - weights.reduce((s, v, j) => s + v * mean[j]!, 0);
  return { bias, weights };
}

export function predict(f: Fitted, x: readonly number[]): number {
  return sigmoid(f.bias + f.weights.reduce((s, w, j) => s + w * x[j]!, 0));
}

/**
 * Fits with sign constraints: a feature whose weight comes out with the wrong sign is left out
 * (its weight 0) and the rest fitted again, until every weight has its sign.
 */
export function fitLogisticSigned(xs: readonly number[][], ys: readonly number[], signs: readonly number[], l2 = 1): Fitted {
  const kept = signs.map(() => true);
  for (;;) {
    const cols = kept.flatMap((k, j) => (k ? [j] : []));
    const f = fitLogistic(
      xs.map((x) => cols.map((j) => x[j]!)),
      ys,
      l2,
    );
    const weights = signs.map(() => 0);
    cols.forEach((j, k) => (weights[j] = f.weights[k]!));
    const wrong = cols.filter((j) => weights[j]! * signs[j]! < 0);
    if (wrong.length === 0) return { bias: f.bias, weights };
    // Leave out the most wrong one, then fit again.
    const worst = wrong.reduce((a, b) => (Math.abs(weights[a]!) >= Math.abs(weights[b]!) ? a : b));
    kept[worst] = false;
  }
}
