/**
 * docs/product-rules.md, Session lifecycle: keep the screen awake while a session is active, release it after, and ask again when
 * the page becomes visible (browsers drop the lock when a tab is hidden). Failures are only logged.
 */
export interface ScreenWakeLock {
  acquire(): void;
  release(): void;
}

export function createScreenWakeLock(log: Pick<Console, 'info' | 'warn'> = console): ScreenWakeLock {
  let wanted = false;
  let sentinel: WakeLockSentinel | null = null;

  const request = (): void => {
    if (!('wakeLock' in navigator) || !navigator.wakeLock) {
      log.info('Screen wake lock is not supported in this browser.');
      return;
    }
    navigator.wakeLock
      .request('screen')
      .then((lock) => {
        if (!wanted) void lock.release();
        else sentinel = lock;
      })
      .catch((error: unknown) => log.warn('Could not keep the screen awake:', error));
  };

  const onVisibility = (): void => {
    if (wanted && document.visibilityState === 'visible' && (!sentinel || sentinel.released)) request();
  };

  return {
    acquire() {
      if (wanted) return;
      wanted = true;
      document.addEventListener('visibilitychange', onVisibility);
      request();
    },
    release() {
      if (!wanted) return;
      wanted = false;
      document.removeEventListener('visibilitychange', onVisibility);
      const lock = sentinel;
      sentinel = null;
      lock?.release().catch((error: unknown) => log.warn('Could not release the screen wake lock:', error));
    },
  };
}
