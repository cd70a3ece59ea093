/**
 * The interviewer's voice in the speech pipeline: each part of a line is one clip, synthesised
 * upstream and relayed to the browser as its bytes arrive (GET /interview/speech/:clipId), so
 * playback starts with the first bytes of the first sentence. Clips live in the database
 * (speech_clips, speech_clip_parts) for CLIP_TTL_MS, so any server of a group serves any clip
 * while another one is still writing it: no sticky routing
 * (docs/decisions/017-speech-clips-in-the-database.md). Their id is a random capability (an
 * <audio> element cannot send our headers).
 *
 * A reader on the server that writes the clip is woken as each part is stored; a reader on
 * another server looks for the next part every CLIP_POLL_MS. The only memory kept is a cache:
 * the parts counter of the clips this process is writing, and the readers waiting here.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedRows } from '../../db/client';
import { speechClipParts, speechClips } from '../../db/schema';

export const CLIP_TTL_MS = 2 * 60 * 1000;
/** Clips held at most in the database, all servers together (a line is a few clips; sessions are short). */
export const MAX_CLIPS = 500;
/** Default of SESSION_AUDIO_CLIPS: clips one session holds at once. */
export const SESSION_CLIPS = 40;
/** One clip's audio at most (a spoken sentence is tens of kB); the rest of a longer stream is dropped. */
export const MAX_CLIP_BYTES = 4 * 1024 * 1024;
/** How often a reader looks for the next part of a clip another server is writing. */
export const CLIP_POLL_MS = 25;
/**
 * A clip still pending with no new part for this long ends (its writer's server was stopped or
 * killed mid-synthesis): the browser shows the line as text instead of waiting for ever.
 */
export const CLIP_STALL_MS = 15_000;
/** Any fixed number: names the transaction lock that makes clip creation (and its budget) one at a time across servers. */
const CLIP_BUDGET_LOCK = 7_316_017;

/**
 * The clip budget (README, Security and limits): which held clip makes way for a new clip of
 * `sessionId`, or null. A session beyond its own budget drops its own oldest clip; a full store
 * drops the oldest clip of the session holding the most, so one session can never push out another
 * session's clips while it holds more than they do. `held` is oldest first. Pure.
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
  /** SESSION_AUDIO_CLIPS. */
  perSession?: number;
  total?: number;
}

export interface ClipStore {
  /**
   * Reserves `count` clip ids of the session, in order, before their audio exists, so the browser
   * can ask for them at once (on any server). Older clips make way by the budget above.
   */
  create(sessionId: string, count: number): Promise<string[]>;
  /** Stores the next bytes of a clip this process writes. False once the clip is full (MAX_CLIP_BYTES) or gone: stop sending. */
  append(id: string, chunk: Uint8Array): Promise<boolean>;
  finish(id: string, ok: boolean): Promise<void>;
  /**
   * The clip's bytes as they come, from whichever server writes them; null for an unknown or
   * expired id. The iteration throws ClipFailedError when synthesis failed before any byte.
   */
  read(id: string): Promise<AsyncIterable<Buffer> | null>;
  /** Clips held (all servers). */
  size(): Promise<number>;
  /** A synthesis this process runs in the background (it writes clips); kept until it ends. */
  track(writer: Promise<void>): void;
  /** Resolves when every synthesis this process runs has ended: a server closing finishes its clips first. */
  written(): Promise<void>;
}

export class ClipFailedError extends Error {
  constructor() {
    super("The interviewer's voice could not be made for this line.");
    this.name = 'ClipFailedError';
  }
}

const TTL_SECONDS = CLIP_TTL_MS / 1000;
/** The clip's state and its parts from `seq` on, in one snapshot (a state of done means every part is in it). */
const READ_PARTS = `select c.state, p.seq, p.audio from speech_clips c
  left join speech_clip_parts p on p.clip_id = c.id and p.seq >= $2
  where c.id = $1 and c.created_at > now() - interval '${TTL_SECONDS} seconds'
  order by p.seq`;

type ClipState = 'pending' | 'done' | 'failed';

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function createClipStore(db: Db, options: ClipStoreOptions = {}): ClipStore {
  const limits = { perSession: options.perSession ?? SESSION_CLIPS, total: options.total ?? MAX_CLIPS };
  /** Cache: the clips this process writes, with their next part number and bytes so far. */
  const writing = new Map<string, { seq: number; bytes: number }>();
  /** Cache: readers in this process waiting for a clip's next part. */
  const waiting = new Map<string, Set<() => void>>();
  /** The syntheses this process runs now (speech/turns.ts), so closing waits for their clips. */
  const writers = new Set<Promise<void>>();

  const wake = (id: string): void => {
    const wakers = waiting.get(id);
    waiting.delete(id);
    for (const waker of wakers ?? []) waker();
  };

  /** Resolves when this process stores something of the clip, or after CLIP_POLL_MS (another server may have). */
  const nextLook = (id: string): Promise<void> =>
    new Promise((resolve) => {
      const wakers = waiting.get(id) ?? new Set<() => void>();
      waiting.set(id, wakers);
      const done = (): void => {
        clearTimeout(timer);
        wakers.delete(done);
        if (wakers.size === 0 && waiting.get(id) === wakers) waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, CLIP_POLL_MS);
      wakers.add(done);
    });

  async function readParts(id: string, from: number): Promise<{ state: ClipState | null; parts: Array<{ seq: number; audio: Buffer }> }> {
    const rows = await preparedRows<{ state: ClipState; seq: number | null; audio: Uint8Array | null }>(
      db,
      'speech_clip_parts',
      READ_PARTS,
      [id, from],
    );
    const state = rows[0]?.state ?? null;
    const parts = rows.flatMap((row) => (row.seq === null || row.audio === null ? [] : [{ seq: row.seq, audio: asBuffer(row.audio) }]));
    return { state, parts };
  }

  return {
    async create(sessionId, count) {
      const { ids, evicted } = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${CLIP_BUDGET_LOCK})`);
        await tx.delete(speechClips).where(lt(speechClips.createdAt, sql`now() - make_interval(secs => ${TTL_SECONDS})`));
        let held = await tx
          .select({ id: speechClips.id, sessionId: speechClips.sessionId })
          .from(speechClips)
          .orderBy(asc(speechClips.createdAt), asc(speechClips.id));
        const made: string[] = [];
        const dropped: string[] = [];
        for (let i = 0; i < count; i++) {
          for (let evict = clipToEvict(held, sessionId, limits); evict !== null; evict = clipToEvict(held, sessionId, limits)) {
            dropped.push(evict);
            held = held.filter((clip) => clip.id !== evict);
          }
          const id = randomBytes(18).toString('base64url');
          made.push(id);
          held.push({ id, sessionId });
        }
        const old = dropped.filter((id) => !made.includes(id));
        if (old.length > 0) await tx.delete(speechClips).where(inArray(speechClips.id, old));
        const kept = made.filter((id) => !dropped.includes(id));
        // One statement per clip: each takes its own clock_timestamp(), so the line keeps its order.
        for (const id of kept) await tx.insert(speechClips).values({ id, sessionId });
        return { ids: made, evicted: dropped };
      });
      for (const id of evicted) {
        writing.delete(id);
        wake(id);
      }
      for (const id of ids) if (!evicted.includes(id)) writing.set(id, { seq: 0, bytes: 0 });
      return ids;
    },

    async append(id, chunk) {
      const clip = writing.get(id);
      if (!clip) return false;
      const room = MAX_CLIP_BYTES - clip.bytes;
      const part = chunk.subarray(0, Math.max(0, room));
      if (part.length > 0) {
        const seq = clip.seq++;
        clip.bytes += part.length;
        try {
          await db.insert(speechClipParts).values({ clipId: id, seq, audio: Buffer.from(part) });
        } catch {
          // The clip made way (budget or expiry) while it was being written: nobody can read it any more.
          writing.delete(id);
          wake(id);
          return false;
        }
        wake(id);
      }
      return clip.bytes < MAX_CLIP_BYTES;
    },

    async finish(id, ok) {
      if (!writing.delete(id)) return;
      await db
        .update(speechClips)
        .set({ state: ok ? 'done' : 'failed' })
        .where(and(eq(speechClips.id, id), eq(speechClips.state, 'pending')));
      wake(id);
    },

    async read(id) {
      const first = await readParts(id, 0);
      if (first.state === null) return null;
      return {
        async *[Symbol.asyncIterator]() {
          let next = 0;
          let sent = 0;
          let progressAt = Date.now();
          for (let look = first; ; look = await readParts(id, next)) {
            // Gone (made way, or expired) mid-stream: what was sent is all there is.
            if (look.state === null) return;
            for (const part of look.parts) {
              // A part can only follow its predecessor; a gap would mean a lost write.
              if (part.seq !== next) break;
              next++;
              sent++;
              progressAt = Date.now();
              yield part.audio;
            }
            if (look.state === 'done') return;
            if (look.state === 'failed' || Date.now() - progressAt > CLIP_STALL_MS) {
              if (sent === 0) throw new ClipFailedError();
              return;
            }
            await nextLook(id);
          }
        },
      };
    },

    async size() {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(speechClips);
      return row?.n ?? 0;
    },

    track(writer) {
      const kept = writer.catch(() => undefined);
      writers.add(kept);
      void kept.then(() => writers.delete(kept));
    },

    async written() {
      while (writers.size > 0) await Promise.all([...writers]);
    },
  };
}
