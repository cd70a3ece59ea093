/**
 * What the main screen loads after its first paint (docs/first-screen.md): the session and the
 * dialogs no first paint shows. Each is fetched on first use, or earlier by `preloadAfterFirstPaint`.
 */
import { lazy } from 'react';
import { afterFirstPaint } from '../../../lib/after-first-paint';

const loadSession = () => import('./session-host');
const loadDialogs = () => import('./later-dialogs');

export const SessionHost = lazy(loadSession);
export const WelcomeDialog = lazy(() => loadDialogs().then((m) => ({ default: m.WelcomeDialog })));
export const TopicPicker = lazy(() => loadDialogs().then((m) => ({ default: m.TopicPicker })));
export const SupportDialog = lazy(() => loadDialogs().then((m) => ({ default: m.SupportDialog })));
export const OutOfTokensNotice = lazy(() => loadDialogs().then((m) => ({ default: m.OutOfTokensNotice })));

export function preloadAfterFirstPaint(): void {
  afterFirstPaint(() => {
    void loadSession();
    void loadDialogs();
  });
}
