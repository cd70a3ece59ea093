/**
 * The interviewer's voice in flight: each part of a line is one clip, synthesised upstream and
 * relayed to the browser as its bytes arrive (GET /interview/speech/:clipId), so playback starts
 * with the first bytes of the first sentence. Clips live in memory for CLIP_TTL_MS; their id is
 * a random capability (an <audio> element cannot send our headers).
 */
import { randomBytes } from 'node:crypto';

export const CLIP_TTL_MS = 2 * 60 * 1000;
/** Clips held at most in this process (a line is a few clips; sessions are short). */
export const MAX_CLIPS = 500;
/** Default of SESSION_AUDIO_CLIPS: clips one session holds at once. */
export const SESSION_CLIPS = 40;
/** One clip's audio at most (a spoken sentence is tens of kB); the rest of a longer stream is dropped. */
export const MAX_CLIP_BYTES = 4 * 1024 * 1024;

interface Clip {
  sessionId: string;
  chunks: Buffer[];
  bytes: number;
  state: 'pending' | 'done' | 'failed';
  wake: Set<() => void>;
  createdAt: number;
}

/**
 * The clip budget (README, Security and limits): which held clip makes way for a new clip of
 * `sessionId`, or null. A session beyond its own budget drops its own oldest clip; a full store
 * drops the oldest clip of the session holding the most, so one session can never push out another
 * session's clips while it holds more than they do. `held` is oldest first. Pure, so a store kept
 * elsewhere (a database) applies the same rule.
 */
export function clipToEvict(
  held: ReadonlyArray<{ id: string; sessionId: string }>,
  sessionId: string,
  limits: { perSession: number; total: number },
): string | null {
  const own = held.filter((clip) => clip.sessionId === sessionId);
  if (own.length >= limits.perSession) return own[0]?.id ?? null;
  if (held.length < limits.total) return null;
  const counts = new Map<string, number>();
  for (const clip of held) counts.set(clip.sessionId, (counts.get(clip.sessionId) ?? 0) + 1);
  let heaviest = sessionId;
  for (const [id, n] of counts) if (n > (counts.get(heaviest) ?? 0)) heaviest = id;
  return held.find((clip) => clip.sessionId === heaviest)?.id ?? null;
}

export interface ClipStoreOptions {
  now?: () => number;
  /** SESSION_AUDIO_CLIPS. */
  perSession?: number;
  total?: number;
}

export interface ClipStore {
  /** Reserves a clip id of the session before its audio exists, so the browser can ask for it at once. */
  create(sessionId: string): string;
  /** False once the clip is full (MAX_CLIP_BYTES) or gone: stop sending. */
  append(id: string, chunk: Uint8Array): boolean;
  finish(id: string, ok: boolean): void;
  /** The clip's bytes as they come; null for an unknown or expired id. Throws when synthesis failed before any byte. */
  read(id: string): AsyncIterable<Buffer> | null;
  /** Waits for the clip's first byte (or its end); false when it failed with no audio. */
  firstBytes(id: string): Promise<boolean>;
  size(): number;
}

export class ClipFailedError extends Error {
  constructor() {
    super("The interviewer's voice could not be made for this line.");
    this.name = 'ClipFailedError';
  }
}

export function createClipStore(options: ClipStoreOptions = {}): ClipStore {
  const now = options.now ?? Date.now;
  const limits = { perSession: options.perSession ?? SESSION_CLIPS, total: options.total ?? MAX_CLIPS };
  const clips = new Map<string, Clip>();

  const drop = (id: string): void => {
    const clip = clips.get(id);
    clips.delete(id);
    for (const wake of clip?.wake ?? []) wake();
  };

  function prune(): void {
    const cutoff = now() - CLIP_TTL_MS;
    for (const [id, clip] of clips) {
      if (clip.createdAt >= cutoff) break;
      drop(id);
    }
  }

  /** Makes room for one more clip of the session (the budget above). */
  function makeRoom(sessionId: string): void {
    for (;;) {
      const held = [...clips].map(([id, clip]) => ({ id, sessionId: clip.sessionId }));
      const evict = clipToEvict(held, sessionId, limits);
      if (evict === null) return;
      drop(evict);
    }
  }

  const changed = (clip: Clip): void => {
    for (const wake of clip.wake) wake();
    clip.wake.clear();
  };

  function nextChange(clip: Clip): Promise<void> {
    return new Promise((resolve) => clip.wake.add(resolve));
  }

  return {
    create(sessionId) {
      prune();
      makeRoom(sessionId);
      const id = randomBytes(18).toString('base64url');
      clips.set(id, { sessionId, chunks: [], bytes: 0, state: 'pending', wake: new Set(), createdAt: now() });
      return id;
    },
    append(id, chunk) {
      const clip = clips.get(id);
      if (!clip || clip.state !== 'pending') return false;
      const room = MAX_CLIP_BYTES - clip.bytes;
      const part = Buffer.from(chunk.subarray(0, Math.max(0, room)));
      clip.chunks.push(part);
      clip.bytes += part.length;
      changed(clip);
      return clip.bytes < MAX_CLIP_BYTES;
    },
    finish(id, ok) {
      const clip = clips.get(id);
      if (!clip || clip.state !== 'pending') return;
      clip.state = ok ? 'done' : 'failed';
      changed(clip);
    },
    read(id) {
      const clip = clips.get(id);
      if (!clip) return null;
      return {
        async *[Symbol.asyncIterator]() {
          let sent = 0;
          for (;;) {
            while (sent < clip.chunks.length) yield clip.chunks[sent++] as Buffer;
            if (clip.state === 'done') return;
            if (clip.state === 'failed') {
              if (sent === 0) throw new ClipFailedError();
              return;
            }
            if (!clips.has(id)) return;
            await nextChange(clip);
          }
        },
      };
    },
    async firstBytes(id) {
      const clip = clips.get(id);
      while (clip && clip.chunks.length === 0 && clip.state === 'pending' && clips.has(id)) await nextChange(clip);
      return Boolean(clip && clip.chunks.length > 0);
    },
    size: () => clips.size,
  };
}
