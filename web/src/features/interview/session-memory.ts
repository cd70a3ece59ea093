/**
 * What the page remembers of an interview beyond what the server stores (docs/product-rules.md,
 * Session lifecycle, Leaving and coming back): the answer being typed and not sent yet, and the
 * interviewer's line the candidate last heard to its end. Kept in the tab's session storage under
 * the session's id, so a reload brings both back for Continue and nothing outlives the tab; the
 * controller forgets them when the interview ends. Storage can be unavailable (privacy modes):
 * then nothing is kept.
 */
export interface RememberedSession {
  /** The typed answer box's text that was not sent. */
  draft?: string;
  /** The interviewer's last line that was spoken to its end (or shown, where no voice plays). */
  heard?: string;
}

export interface SessionMemory {
  read(sessionId: string): RememberedSession;
  write(sessionId: string, patch: RememberedSession): void;
  forget(sessionId: string): void;
}

const keyOf = (sessionId: string): string => `interview:${sessionId}`;

export function createSessionMemory(storage: () => Storage | null = pageStorage): SessionMemory {
  const read = (sessionId: string): RememberedSession => {
    try {
      const raw = storage()?.getItem(keyOf(sessionId));
      const value: unknown = raw ? JSON.parse(raw) : null;
      if (typeof value !== 'object' || value === null) return {};
      const { draft, heard } = value as Record<string, unknown>;
      return { ...(typeof draft === 'string' ? { draft } : {}), ...(typeof heard === 'string' ? { heard } : {}) };
    } catch {
      return {};
    }
  };
  return {
    read,
    write(sessionId, patch) {
      try {
        storage()?.setItem(keyOf(sessionId), JSON.stringify({ ...read(sessionId), ...patch }));
      } catch {
        // Full or unavailable: the interview goes on without it.
      }
    },
    forget(sessionId) {
      try {
        storage()?.removeItem(keyOf(sessionId));
      } catch {
        // nothing stored, nothing to remove
      }
    },
  };
}

function pageStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
