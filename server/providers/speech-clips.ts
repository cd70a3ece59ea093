/**
 * The interviewer's voice in flight: each part of a line is one clip, synthesised upstream and
 * relayed to the browser as its bytes arrive (GET /interview/speech/:clipId), so playback starts
 * with the first bytes of the first sentence. Clips live in memory for CLIP_TTL_MS; their id is
 * a random capability (an <audio> element cannot send our headers).
 */
import { randomBytes } from 'node:crypto';

export const CLIP_TTL_MS = 2 * 60 * 1000;
/** Oldest clips are dropped beyond this many (a line is a few clips; sessions are short). */
export const MAX_CLIPS = 500;

interface Clip {
  chunks: Buffer[];
  state: 'pending' | 'done' | 'failed';
  wake: Set<() => void>;
  createdAt: number;
}

export interface ClipStore {
  /** Reserves a clip id before its audio exists, so the browser can ask for it at once. */
  create(): string;
  append(id: string, chunk: Uint8Array): void;
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

export function createClipStore(now: () => number = Date.now): ClipStore {
  const clips = new Map<string, Clip>();

  function prune(): void {
    const cutoff = now() - CLIP_TTL_MS;
    for (const [id, clip] of clips) {
      if (clip.createdAt >= cutoff && clips.size <= MAX_CLIPS) break;
      clips.delete(id);
      for (const wake of clip.wake) wake();
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
    create() {
      prune();
      const id = randomBytes(18).toString('base64url');
      clips.set(id, { chunks: [], state: 'pending', wake: new Set(), createdAt: now() });
      return id;
    },
    append(id, chunk) {
      const clip = clips.get(id);
      if (!clip || clip.state !== 'pending') return;
      clip.chunks.push(Buffer.from(chunk));
      changed(clip);
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
