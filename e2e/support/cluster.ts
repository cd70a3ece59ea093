/**
 * Three server processes on one PostgreSQL database behind Debian's HAProxy (the README's recipe,
 * e2e/support/haproxy.ts), for the specs that restart and kill servers mid-interview
 * (e2e/several-servers*.spec.ts). Each server keeps its port across restarts, so it keeps its
 * place in the balancer.
 */
import { expect } from '@playwright/test';
import { freePort, startHaproxy, type RunningHaproxy } from './haproxy';
import { startServer, type RunningServer } from '../../test-support/server-process';

export const SERVER_NAMES = ['a', 'b', 'c'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface Cluster {
  balancer: RunningHaproxy;
  /** The servers running now, by name (a killed or stopped one is absent until started again). */
  running: Partial<Record<ServerName, RunningServer>>;
  /** Starts the named server on its port, with the cluster's settings as they are now. */
  start(name: ServerName): Promise<void>;
  /** SIGTERM (the server drains and hands its work over), start again, wait until all are up. */
  restart(name: ServerName): Promise<void>;
  /** SIGKILL: the server stops at once, mid-whatever it was doing. */
  kill(name: ServerName): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the servers one after the other (the first applies the migrations and loads the
 * catalogue), then the balancer. `settings()` is read at every start: a suite may change the voice
 * mode between its tests.
 */
export async function startCluster(databaseUrl: string, settings: () => Record<string, string>): Promise<Cluster> {
  const ports = {} as Record<ServerName, number>;
  for (const name of SERVER_NAMES) ports[name] = await freePort();
  const running: Cluster['running'] = {};
  const start = async (name: ServerName) => {
    running[name] = await startServer({
      env: {
        PORT: String(ports[name]),
        DATABASE_URL: databaseUrl,
        TRUST_PROXY: '127.0.0.1',
        SHUTDOWN_DRAIN_SECONDS: '1',
        DOG_IMAGE_API: 'off',
        ...settings(),
      },
    });
  };
  // Until the balancer's health checks see every running server up again.
  const allUp = async () => {
    for (const server of Object.values(running)) {
      await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 30_000 }).toBe(200);
    }
    // rise 2 × inter 500 ms: the balancer takes a restarted server back within about a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  };
  for (const name of SERVER_NAMES) await start(name);
  const balancer = await startHaproxy(SERVER_NAMES.map((name) => ({ name, port: ports[name] })));
  return {
    balancer,
    running,
    start,
    async restart(name) {
      await running[name]?.stop();
      await start(name);
      await allUp();
    },
    async kill(name) {
      const victim = running[name];
      if (!victim) throw new Error(`server ${name} is not running`);
      process.kill(victim.pid, 'SIGKILL');
      await victim.stop();
      delete running[name];
    },
    async stop() {
      await balancer.stop();
      for (const name of SERVER_NAMES) await running[name]?.stop();
    },
  };
}
