/**
 * An exclusive lock on DATA_DIR: PGlite takes none, and two processes on one directory silently
 * lose committed data. The lock file holds the owner's PID. It is written whole to a private
 * temporary file and then link()ed into place: link fails if the lock exists, so exactly one
 * process can create it, and nobody ever reads a half-written PID.
 *
 * A lock whose process is gone (kill -9, power loss) is taken over. Breaking a stale lock is done
 * by one process at a time (a second, short-lived `server.lock.takeover` lock), and only after
 * checking the lock file is still the same stale file (same inode): otherwise two processes
 * could each delete the other's fresh lock and both go on (docs/decisions/001-data-dir-lock.md).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE_NAME = 'server.lock';
const TAKEOVER_SUFFIX = '.takeover';
/** A takeover lock older than this was left by a process that died while breaking a lock. */
const TAKEOVER_STALE_MS = 5_000;
const ATTEMPTS = 200;

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another server (PID ${pid}) is already using the data directory ${dataDir}. ` +
        'Stop it first, or start this one with a different DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function inodeOf(file: string): number | null {
  try {
    return statSync(file).ino;
  } catch {
    return null;
  }
}

function unlinkIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Writes `pid` to a fresh private file next to `target` and links it to `target`; false if taken. */
function linkNew(target: string, pid: number): boolean {
  const temp = `${target}.${pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkIfPresent(temp);
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

/**
 * Removes the lock file if it is still the stale one we saw (same inode, same dead owner: an inode
 * number can be reused by a fresh lock); one breaker at a time.
 */
function breakStaleLock(file: string, stale: number, staleOwner: number | null, pid: number): void {
  const takeover = file + TAKEOVER_SUFFIX;
  if (!linkNew(takeover, pid)) {
    try {
      if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) unlinkIfPresent(takeover);
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    const owner = readPid(file);
    if (inodeOf(file) === stale && owner === staleOwner && (owner === null || owner === pid || !isAlive(owner))) unlinkIfPresent(file);
  } finally {
    unlinkIfPresent(takeover);
  }
}

export interface DataDirLock {
  file: string;
  release(): void;
}

export function acquireDataDirLock(dataDir: string, pid: number = process.pid): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (linkNew(file, pid)) {
      const ino = inodeOf(file);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          // Only our own file: never one that another process wrote after a takeover.
          if (inodeOf(file) === ino && readPid(file) === pid) unlinkIfPresent(file);
        },
      };
    }
    const stale = inodeOf(file);
    const owner = readPid(file);
    if (owner !== null && owner !== pid && isAlive(owner)) throw new DataDirLockedError(dataDir, owner);
    if (stale !== null) breakStaleLock(file, stale, owner, pid);
    // Give a process that is breaking the lock or linking its own a moment.
    sleepMs(1 + Math.floor(Math.random() * 5));
  }
  throw new Error(`Could not take the lock ${file}; another process keeps creating it.`);
}
