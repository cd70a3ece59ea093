/**
 * Debian's HAProxy in front of several server processes, as the README's load-balancer recipe
 * (Running several servers) configures it: round-robin, no stickiness, `GET /healthz` checks (a
 * draining server answers 503 and leaves the rotation), a refused connection retried on another
 * server. `haproxyConfig` is the recipe; `startHaproxy` runs it in the foreground.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A free TCP port on 127.0.0.1 (a server restarted on it keeps its place in the balancer). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The README recipe with its addresses filled in. */
export function haproxyConfig(listen: string, servers: Array<{ name: string; address: string }>): string {
  return `global
  maxconn 1024

defaults
  mode http
  option forwardfor
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  # A health check may take this long on a busy machine before the server counts as down.
  timeout check 2s
  # A connection a stopped server refused, or closed without an answer, is tried again on
  # another one; past a connection failure only GET and HEAD are sent twice (see below).
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response

frontend interviews
  bind ${listen}
  default_backend servers
  # A request a server may already have acted on (a turn, a rating) is never sent twice.
  http-request disable-l7-retry unless METH_GET || METH_HEAD

backend servers
  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
  default-server inter 500ms fall 1 rise 2
${servers.map((server) => `  server ${server.name} ${server.address} check`).join('\n')}
`;
}

export interface RunningHaproxy {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startHaproxy(servers: Array<{ name: string; port: number }>): Promise<RunningHaproxy> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    file,
    haproxyConfig(
      `127.0.0.1:${port}`,
      servers.map((server) => ({ name: server.name, address: `127.0.0.1:${server.port}` })),
    ),
  );
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited:\n${output}`);
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`HAProxy did not answer in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
