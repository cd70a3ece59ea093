import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

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

// The API origin is the build setting VITE_API_ORIGIN (read only in src/lib/api-base.ts);
// unset means the app calls the origin that serves it.
export default defineConfig({
  root,
  envDir: root,
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
  },
});
