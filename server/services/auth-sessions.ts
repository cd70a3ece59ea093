/**
 * Signed-in browsers, stored in the database so every server of a group knows them
 * (docs/decisions/026-sign-in-links.md): a candidate's after a sign-in link (SIGNIN=link), the
 * operator's after the admin secret was entered once. The browser's cookie holds a random id;
 * the table holds only its sha256, so a copy of the database signs nobody in.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions } from '../db/schema';

import { HttpError } from './http-error';

export type SessionKind = 'user' | 'admin';
export const SIGN_IN_FIRST = 'Please sign in first: enter your email and open the link we send you.';

/** How long a signed-in browser stays signed in. */
export const SESSION_MS: Record<SessionKind, number> = { user: 30 * 24 * 60 * 60 * 1000, admin: 12 * 60 * 60 * 1000 };
/** The cookies' names. */
export const SESSION_COOKIE: Record<SessionKind, string> = { user: 'signin_session', admin: 'admin_session' };

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** 256 random bits, as text fit for a cookie or a link. */
export const randomToken = () => randomBytes(32).toString('base64url');

export interface NewSession {
  id: string;
  expiresAt: Date;
}

export async function createSession(db: Db, kind: SessionKind, email: string | null): Promise<NewSession> {
  const id = randomToken();
  const expiresAt = new Date(Date.now() + SESSION_MS[kind]);
  await db.insert(authSessions).values({ idHash: sha256(id), kind, email, expiresAt });
  return { id, expiresAt };
}

/** The session's row when `id` names a running session of `kind`; null otherwise. */
export async function findSession(db: Db, kind: SessionKind, id: string | undefined): Promise<{ email: string | null } | null> {
  if (!id || id.length > 200) return null;
  const [row] = await db
    .select({ email: authSessions.email })
    .from(authSessions)
    .where(and(eq(authSessions.idHash, sha256(id)), eq(authSessions.kind, kind), gt(authSessions.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/** The signed-in candidate's email, or 401 with a sentence. */
export async function signedInEmail(db: Db, id: string | undefined): Promise<{ email: string }> {
  const session = await findSession(db, 'user', id);
  if (!session?.email) throw new HttpError(401, SIGN_IN_FIRST);
  return { email: session.email };
}

export async function endSession(db: Db, id: string | undefined): Promise<void> {
  if (!id || id.length > 200) return;
  await db.delete(authSessions).where(eq(authSessions.idHash, sha256(id)));
}

/** Signs an email out everywhere: every browser's session of it ends. Answers how many ended. */
export async function endSessionsOf(db: Db, email: string): Promise<number> {
  const ended = await db.delete(authSessions).where(eq(authSessions.email, email)).returning({ idHash: authSessions.idHash });
  return ended.length;
}

/** Drops sessions that ended by themselves. */
export async function sweepSessions(db: Db): Promise<void> {
  await db.delete(authSessions).where(lt(authSessions.expiresAt, new Date()));
}
