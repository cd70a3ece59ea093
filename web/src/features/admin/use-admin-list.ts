import { useCallback, useEffect, useState } from 'react';
import type { ApiResult } from './admin-api';
import { useAdminSecret } from './admin-secret';
import { failureText } from './format';

export interface AdminList<T> {
  /** The verified admin secret; null when the page was opened without one. */
  secret: string | null;
  items: T[];
  loading: boolean;
  /** A list was really loaded (counts and empty states describe it, not a failed load). */
  loaded: boolean;
  /** The failure text on show (docs/product-rules.md, Admin area), or null. */
  error: string | null;
  /** An action and its reload are running. */
  busy: boolean;
  /**
   * Runs one action with the secret, then reloads the list (docs/product-rules.md, Admin area: every action reloads); the
   * action's failure text wins over the reload's. Resolves whether the action succeeded.
   */
  act(run: (secret: string) => Promise<string | null>): Promise<boolean>;
}

/**
 * The list pages' shared loading: load with the secret when it is known, say the spec's failure
 * text (`{failed}: {server error}` or `{otherwise}`), and reload after every action.
 */
export function useAdminList<T>(
  load: (secret: string) => Promise<ApiResult<T[]>>,
  texts: { failed: string; otherwise: string },
): AdminList<T> {
  const secret = useAdminSecret();
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { failed, otherwise } = texts;

  /** Answers the failure text of the reload, or null. */
  const reload = useCallback(
    async (key: string): Promise<string | null> => {
      setLoading(true);
      const result = await load(key);
      setLoading(false);
      if (!result.ok) return failureText(result, failed, otherwise);
      setItems(result.data);
      setLoaded(true);
      return null;
    },
    [load, failed, otherwise],
  );

  useEffect(() => {
    if (secret !== null) void reload(secret).then(setError);
  }, [secret, reload]);

  const act = useCallback(
    async (run: (key: string) => Promise<string | null>): Promise<boolean> => {
      if (secret === null) return false;
      setBusy(true);
      const actionError = await run(secret);
      const reloadError = await reload(secret);
      setBusy(false);
      setError(actionError ?? reloadError);
      return actionError === null;
    },
    [secret, reload],
  );

  return { secret, items, loading, loaded, error, busy, act };
}
