import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_SECRET_FILE, resolveAdminSecret } from './admin-secret';
import { runMain } from '../test-support/run-main';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from './data-dir-lock';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lock-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => !entry.isSymbolicLink())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** A PID that is certainly dead: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
  return child.pid ?? 999_999;
}

describe('data-dir lock', () => {
  it('writes our PID, refuses a second holder while we live, and releases', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8').trim()).toBe(String(process.pid));

    // Another process (our parent is alive) holding it: refused with a clear message.
    const parent = process.ppid;
    writeFileSync(path.join(dir, LOCK_FILE_NAME), `${parent}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(`Another server (PID ${parent}) is already using the data directory ${dir}.`);
    // Releasing ours must not delete a lock file that now names someone else.
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(true);
  });

  it('takes over a lock whose process is dead', () => {
    const dir = tempDir();
    const dead = deadPid();
    writeFileSync(path.join(dir, LOCK_FILE_NAME), `${dead}\n`);
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
  });
});

describe('data-dir lock race', () => {
  it('two processes racing for a fresh or a stale lock: exactly one wins, every time', async () => {
    const base = tempDir();
    const trials = 40;
    const dead = deadPid();
    for (let n = 0; n < trials; n += 1) {
      mkdirSync(path.join(base, `trial-${n}`));
      // Every other trial starts from a stale lock of a dead process.
      if (n % 2 === 1) writeFileSync(path.join(base, `trial-${n}`, LOCK_FILE_NAME), `${dead}\n`);
    }
    const racers = [0, 1].map(() =>
      spawn(process.execPath, ['--import', 'tsx', 'test-support/lock-racer.ts', base, String(trials)], {
        cwd: path.resolve(import.meta.dirname, '..'),
      }),
    );
    await Promise.all(
      racers.map(
        (racer) =>
          new Promise<void>((resolve, reject) => {
            racer.stdout.once('data', () => resolve());
            racer.once('exit', (code) => reject(new Error(`racer exited with ${code}`)));
          }),
      ),
    );
    const outcomes: string[][] = [];
    for (let n = 0; n < trials; n += 1) {
      const dir = path.join(base, `trial-${n}`);
      writeFileSync(path.join(base, `go-${n}`), '');
      let results: string[] = [];
      while (results.length < 2) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        results = readdirSync(dir).filter((name) => name.startsWith('result-'));
      }
      outcomes.push(results.map((name) => readFileSync(path.join(dir, name), 'utf8')).sort());
    }
    writeFileSync(path.join(base, 'done'), '');
    await Promise.all(
      racers.map((racer) => new Promise((resolve) => (racer.exitCode !== null ? resolve(null) : racer.once('exit', resolve)))),
    );
    expect(outcomes).toEqual(Array.from({ length: trials }, () => ['lost', 'won']));
  }, 60_000);
});

describe('admin secret', () => {
  it('uses ADMIN_SECRET when set and writes nothing', () => {
    const dir = tempDir();
    expect(resolveAdminSecret('configured-secret-123', dir)).toEqual({ secret: 'configured-secret-123', generated: false, file: null });
    expect(existsSync(path.join(dir, ADMIN_SECRET_FILE))).toBe(false);
  });

  it('generates one secret on first start, mode 0600, and reuses it', () => {
    const dir = tempDir();
    const first = resolveAdminSecret(null, dir);
    expect(first.generated).toBe(true);
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(path.join(dir, ADMIN_SECRET_FILE)).mode & 0o777).toBe(0o600);
    const second = resolveAdminSecret(null, dir);
    expect(second).toEqual({ secret: first.secret, generated: false, file: path.join(dir, ADMIN_SECRET_FILE) });
  });
});

describe('server/main.ts', () => {
  it('prints the real port, generates the admin secret once, refuses a second process, releases on SIGTERM', async () => {
    const dir = tempDir();
    // Made by someone with a lax umask: the server makes it private at start.
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, 'notes.txt'), 'x', { mode: 0o666 });
    chmodSync(path.join(dir, 'notes.txt'), 0o666);
    const first = runMain({ DATA_DIR: dir });
    try {
      const [, port] = await first.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)/);
      expect(Number(port)).toBeGreaterThan(0);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      // No file of the database (or anything else in DATA_DIR) is open to other users.
      const open = listFiles(dir).filter((file) => (statSync(file).mode & 0o077) !== 0);
      expect(open).toEqual([]);
      expect(listFiles(dir).some((file) => file.includes(`${path.sep}pglite${path.sep}`))).toBe(true);
      const secret = readFileSync(path.join(dir, ADMIN_SECRET_FILE), 'utf8').trim();
      expect(first.output()).toContain(`: ${secret}`);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok' });

      // The lock names the server process.
      const before = readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8');
      const serverPid = Number(before.trim());
      expect(serverPid).toBe(first.child.pid);
      const second = runMain({ DATA_DIR: dir });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`Another server (PID ${serverPid}) is already using the data directory ${dir}.`);
      expect(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8')).toBe(before);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);

    // Restart on the same data: the secret is reused and not printed again.
    const again = runMain({ DATA_DIR: dir });
    await again.waitFor(/Listening on/);
    expect(again.output()).not.toContain('Admin secret');
    const killedPid = Number(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8').trim());
    process.kill(killedPid, 'SIGKILL');
    await again.exited;
    // kill -9 leaves the lock file behind; the next start takes it over.
    expect(existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(true);
    const takeover = runMain({ DATA_DIR: dir });
    try {
      await takeover.waitFor(/Listening on/);
      const owner = Number(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8').trim());
      expect(owner).not.toBe(killedPid);
      expect(() => process.kill(owner, 0)).not.toThrow();
    } finally {
      takeover.child.kill('SIGTERM');
    }
    expect(await takeover.exited).toBe(0);
  }, 400_000);

  it('exits 1 listing the bad keys', async () => {
    const run = runMain({ DATA_DIR: tempDir(), PORT: 'x', SIGNUP: 'nobody' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('Invalid configuration:');
    expect(run.output()).toMatch(/PORT: /);
    expect(run.output()).toMatch(/SIGNUP: /);
  });
});
