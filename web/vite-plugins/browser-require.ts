import type { Plugin } from 'vite';

/**
 * esbuild's `require` shim as onnxruntime-web's minified builds carry it (in the voice-activity
 * detector's lazy chunk). It refers to a global `require`, so the bundler
 * keeps a `require` helper of its own in the runtime chunk that every page loads (~0.2 KB gzipped
 * of the first screen; docs/first-screen.md). In a browser there is no `require`: the shim is then
 * the function at its end, which throws, and that is what it is replaced with.
 */
const SHIM =
  `(e=>typeof require<"u"?require:typeof Proxy<"u"?new Proxy(e,{get:(t,n)=>(typeof require<"u"?require:t)[n]}):e)` +
  `(function(e){if(typeof require<"u")return require.apply(this,arguments);throw Error('Dynamic require of "'+e+'" is not supported')})`;
const BROWSER = `(function(e){throw Error('Dynamic require of "'+e+'" is not supported')})`;

export function browserRequireShim(): Plugin {
  return {
    name: 'browser-require-shim',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]onnxruntime-web[\\/]dist[\\/]/ },
      handler(code, id) {
        if (!code.includes('typeof require')) return null;
        if (!code.includes(SHIM)) {
          // A new onnxruntime-web spells it differently: nothing breaks, the runtime chunk keeps its helper.
          this.warn(`browser-require-shim: the require shim was not found in ${id}; the first screen's runtime keeps its require helper`);
          return null;
        }
        return { code: code.split(SHIM).join(BROWSER), map: null };
      },
    },
  };
}
