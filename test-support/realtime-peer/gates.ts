/**
 * Test-side control of the peer's `turnGate`: hold named points ("speaking:1", "before:2") so a spec
 * can look at a state without racing the scripted interviewer, then release them.
 */
export interface TurnGates {
  turnGate: (point: 'before' | 'speaking', turn: number) => Promise<void> | void;
  /** True once the peer waits at this point. */
  reached(key: string): boolean;
  /** Lets the peer continue (also fine before the point is reached). */
  release(key: string): void;
  releaseAll(): void;
}

export function holdAt(...keys: string[]): TurnGates {
  const held = new Set(keys);
  const waiting = new Map<string, () => void>();
  return {
    turnGate: (point, turn) => {
      const key = `${point}:${turn}`;
      if (!held.has(key)) return;
      return new Promise<void>((resolve) => waiting.set(key, resolve));
    },
    reached: (key) => waiting.has(key),
    release: (key) => {
      held.delete(key);
      waiting.get(key)?.();
    },
    releaseAll: () => {
      held.clear();
      for (const resolve of waiting.values()) resolve();
    },
  };
}
