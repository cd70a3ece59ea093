import type { Plugin } from 'vite';

/** The module Vite wraps every dynamic `import()` of the app with (`__vitePreload(load, deps)`). */
const HELPER_ID = '\0vite/preload-helper.js';

/**
 * A smaller stand-in for Vite's preload helper, which is the largest single piece of the first
 * screen's own script (~0.7 KB gzipped of 8 KB; docs/first-screen.md). It does what ours needs of
 * it: before a lazy chunk runs, its stylesheets are loaded (the chunk resolves once they are in,
 * so nothing renders unstyled) and its imports are announced with `modulepreload` links, so the
 * browser fetches them in parallel with the chunk. What Vite's version adds and this app does not
 * use: the `preload` fallback for browsers without `modulepreload` (its polyfill is off too), CSP
 * nonces (the server's policy has none), `import.meta.resolve` of relative bases, and the
 * `vite:preloadError` event. A file whose link is already in the document (index.html's chunks and
 * stylesheet, which lazy chunks list among their deps) is not linked again: a second copy of the
 * first screen's stylesheet after the app's would override the app's responsive rules (the admin
 * menu stacked above every page at desktop width).
 */
export function helperSource(base: string): string {
  return `const seen = {};
export const __vitePreload = (load, deps) =>
  Promise.all(
    (deps || []).map((dep) =>
      (seen[dep] ??= new Promise((resolve, reject) => {
        const href = ${JSON.stringify(base)} + dep;
        // Already in the document (index.html's stylesheet, which lazy chunks list too): a second
        // copy would come after the others and override their responsive rules.
        if (document.querySelector('link[href="' + href + '"]')) return resolve();
        const link = document.createElement('link');
        const css = dep.endsWith('.css');
        link.rel = css ? 'stylesheet' : 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        if (css) {
          link.onload = resolve;
          link.onerror = () => {
            delete seen[dep];
            link.remove();
            reject(new Error('Unable to preload CSS for ' + dep));
          };
        } else resolve();
        document.head.appendChild(link);
      })),
    ),
  ).then(load);
`;
}

export function smallPreloadHelper(): Plugin {
  let base = '/';
  return {
    name: 'small-preload-helper',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      base = config.base;
    },
    load: {
      filter: { id: new RegExp(`^${HELPER_ID.replace(/[.\\/]/g, '\\$&')}$`) },
      handler: () => helperSource(base),
    },
  };
}
