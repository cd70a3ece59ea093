import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { API_PREFIXES } from '../contract/api-paths.ts';
import { browserRequireShim } from './vite-plugins/browser-require.ts';
import { smallPreloadHelper } from './vite-plugins/preload-helper.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Writes `.br` and `.gz` beside every JS/CSS asset, so the server (@fastify/static preCompressed)
 * sends about a third of the bytes without compressing per request. It compresses the files as
 * written to disk (writeBundle): in generateBundle the chunks still hold Vite's unreplaced
 * `__VITE_PRELOAD__` placeholder, and a compressed copy of that breaks every lazy route.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    enforce: 'post',
    writeBundle(options, bundle) {
      const dir = options.dir ?? path.join(root, 'dist');
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

const require = createRequire(import.meta.url);

/** The framework floor of the first screen (docs/first-screen.md). */
const FRAMEWORK_MODULES = /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;

/**
 * The speech pipeline's voice-activity detector needs files no CDN may serve here: the Silero VAD
 * model and audio worklet (from @ricky0123/vad-web) and onnxruntime-web's WASM. They are copied
 * to dist/vad/ (with a gzip copy of the large ones) and fetched only when such a session starts.
 */
function vadAssets(): Plugin {
  const vadDist = path.dirname(require.resolve('@ricky0123/vad-web'));
  const ortDist = path.dirname(require.resolve('onnxruntime-web/wasm', { paths: [vadDist] }));
  const files = [
    path.join(vadDist, 'vad.worklet.bundle.min.js'),
    path.join(vadDist, 'silero_vad_v5.onnx'),
    path.join(ortDist, 'ort-wasm-simd-threaded.wasm'),
    path.join(ortDist, 'ort-wasm-simd-threaded.mjs'),
  ];
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.mjs': 'text/javascript',
    '.wasm': 'application/wasm',
    '.onnx': 'application/octet-stream',
  };
  return {
    name: 'vad-assets',
    // The dev server answers /vad/* from node_modules too, so a pipeline session works there.
    configureServer(server) {
      server.middlewares.use('/vad/', (request, response, next) => {
        const file = files.find((f) => path.basename(f) === (request.url ?? '').split('?')[0]?.replace(/^\//, ''));
        if (!file) return next();
        response.setHeader('content-type', types[path.extname(file)] ?? 'application/octet-stream');
        response.end(readFileSync(file));
      });
    },
    generateBundle() {
      for (const file of files) this.emitFile({ type: 'asset', fileName: `vad/${path.basename(file)}`, source: readFileSync(file) });
    },
    writeBundle(options) {
      const dir = options.dir ?? path.join(root, 'dist');
      for (const file of files.filter((f) => /\.(wasm|onnx)$/.test(f))) {
        const target = path.join(dir, 'vad', path.basename(file));
        writeFileSync(`${target}.gz`, gzipSync(readFileSync(target), { level: 6 }));
      }
    },
  };
}

/**
 * `npm run dev`: Vite serves the app with hot reload and passes the API's paths (and the speech
 * pipeline's /vad/ files, which the API server serves from a built web/dist) to the API server
 * that `tsx watch` restarts on every server change, at the default HOST and PORT.
 */
const devApi = 'http://127.0.0.1:3000';
const devProxy = Object.fromEntries([...API_PREFIXES, '/vad'].map((prefix) => [prefix, { target: devApi, changeOrigin: false }]));

// The API origin is the build setting VITE_API_ORIGIN (read only in src/lib/api-base.ts);
// unset means the app calls the origin that serves it.
export default defineConfig({
  server: { host: '127.0.0.1', port: 5173, strictPort: true, proxy: devProxy },
  root,
  envDir: root,
  plugins: [react(), tailwindcss(), smallPreloadHelper(), browserRequireShim(), precompress(), vadAssets()],
  resolve: {
    // @ricky0123/vad-web's index (CommonJS, so nothing is shaken off) also loads its non-real-time
    // VAD, which imports all of onnxruntime-web (WebGPU, WebGL and WebNN backends: ~100 KB gzipped).
    // The microphone VAD we use needs only the WASM backend, the same API: one onnxruntime, the small one.
    alias: [{ find: /^onnxruntime-web$/, replacement: 'onnxruntime-web/wasm' }],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // No `modulepreload` polyfill (~0.3 KB gzipped of the first screen, docs/first-screen.md): a
    // browser without modulepreload still fetches every chunk when it is imported, only later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The bundler's report of which plugin took how long is for tuning the build; on a busy or
      // small machine it fills an operator's first `npm start` with a dozen lines of it.
      checks: { bundlerTimings: false },
      output: {
        // Two chunks for the first screen (docs/first-screen.md): the framework (react, react-dom,
        // scheduler, react-router), so our own code is measured and budgeted apart from it, and all
        // of our code the entry imports statically, in one file (left alone, the bundler splits
        // every module a lazy chunk shares into a file of its own, each one more request).
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK_MODULES, priority: 2 },
            { name: 'first-screen', tags: ['$initial'], priority: 1 },
          ],
        },
        // A chunk the bundler splits off because several lazy chunks share it is named for what it
        // is, not for its first module (which would name, e.g., the Markdown wrapper 'lazy-markdown').
        chunkFileNames: (chunk) =>
          chunk.isDynamicEntry || chunk.name === 'framework' ? 'assets/[name]-[hash].js' : 'assets/shared-[hash].js',
      },
    },
  },
});
