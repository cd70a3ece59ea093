/**
 * Serves the transport harness page on 127.0.0.1 (a secure context for getUserMedia): the real
 * `openai-transport.ts`, bundled with esbuild at test time, and nothing of the app.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface Harness {
  url: string;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'harness-entry.ts');
  const bundle = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', target: 'es2022', platform: 'browser' });
  const js = bundle.outputFiles[0]?.text ?? '';
  const html = '<!doctype html><html><head><title>Realtime transport harness</title></head><body><script type="module" src="/harness.js"></script></body></html>';
  const server = http.createServer((req, res) => {
    if (req.url === '/harness.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(js);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(html);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
