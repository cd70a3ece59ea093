/**
 * What the main screen loads after its first paint (docs/first-screen.md): the session and the
 * dialogs no first paint shows. Each is fetched on first use, or earlier by `preloadAfterFirstPaint`.
 */
import { lazy } from 'react';
import { afterFirstPaint } from '../../../lib/after-first-paint';

const loadSession = () => import('./session-host');
const loadDialogs = () => import('./later-dialogs');

export const SessionHost = lazy(loadSession);
export const LaterDialog = lazy(() => loadDialogs().then((m) => ({ default: m.LaterDialog })));
export const OutOfTokensNotice = lazy(() => loadDialogs().then((m) => ({ default: m.OutOfTokensNotice })));
export const TopicLevelLine = lazy(() => loadDialogs().then((m) => ({ default: m.TopicLevelLine })));

export function preloadAfterFirstPaint(): void {
  afterFirstPaint(() => {
    void loadSession();
    void loadDialogs();
  });
}
