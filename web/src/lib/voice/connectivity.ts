/**
 * Whether the page is online and shown, behind a small seam so the browser-speech transport's
 * reaction to going offline or coming back to the page can be unit-tested with a scripted stand-in.
 */
export type ConnectivityChange = 'offline' | 'online' | 'hidden' | 'visible';

export interface Connectivity {
  /** navigator.onLine: false means surely offline (true only means "maybe online"). */
  online(): boolean;
  /** Calls back on each change; returns a function that stops watching. */
  watch(onChange: (change: ConnectivityChange) => void): () => void;
}

export function browserConnectivity(): Connectivity {
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    return { online: () => true, watch: () => () => undefined };
  }
  return {
    online: () => navigator.onLine !== false,
    watch(onChange) {
      const offline = (): void => onChange('offline');
      const online = (): void => onChange('online');
      const visibility = (): void => onChange(document.visibilityState === 'hidden' ? 'hidden' : 'visible');
      window.addEventListener('offline', offline);
      window.addEventListener('online', online);
      document.addEventListener('visibilitychange', visibility);
      return () => {
        window.removeEventListener('offline', offline);
        window.removeEventListener('online', online);
        document.removeEventListener('visibilitychange', visibility);
      };
    },
  };
}
