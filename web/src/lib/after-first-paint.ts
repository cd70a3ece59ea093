/**
 * Runs `task` once the page has loaded and the browser is idle: for fetching the code the first
 * click will need without competing with the first paint (docs/first-screen.md).
 */
export function afterFirstPaint(task: () => void): void {
  const idle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: 2000 });
    else setTimeout(task, 200);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
