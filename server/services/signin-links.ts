/**
 * SIGNIN=link (docs/decisions/026-sign-in-links.md, docs/product-rules.md "Sign-in links"): a
 * one-time link sent by mail signs a browser in. Every request answers the same whether or not
 * the email has an account; links are limited per email and per client address; only the
 * sha256 of a link's token is stored; a link works once, for 15 minutes.
 */
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import { signinLinks } from '../db/schema';
import { findAccount } from './accounts';
import { createSession, randomToken, sha256, type NewSession } from './auth-sessions';
import { HttpError } from './http-error';

export const LINK_MINUTES = 15;
/** Links one email may be sent per hour, and links one client address may ask for per hour. */
export const LINKS_PER_EMAIL = 5;
export const LINKS_PER_ADDRESS = 20;
const HOUR_MS = 60 * 60 * 1000;
/** The dialog offers "Send again" after this wait. */
export const RESEND_AFTER_SECONDS = 30;

/** The mail server is down or refuses: said without its address or the error (the log has those). */
export const MAIL_NOT_SENT = 'The sign-in mail could not be sent just now. Please try again in a few minutes.';

export const LINK_SPENT = 'This sign-in link has expired or was already used. Ask for a new one below.';

const waitText = (ttlMs: number) => {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/** The per-email key ends with the email, so erasing the person forgets it (services/admin-users.ts). */
const emailKey = (email: string) => `signin-link:email:${email}`;
const addressKey = (address: string) => `signin-link:address:${address}`;

async function checkLimits(ctx: AppContext, email: string, address: string): Promise<void> {
  const byAddress = await ctx.limits.hit(addressKey(address), HOUR_MS);
  if (byAddress.hits > LINKS_PER_ADDRESS) {
    throw new HttpError(
      429,
      `Too many sign-in links were asked for from your address. Please wait ${waitText(byAddress.ttlMs)} and try again.`,
    );
  }
  const byEmail = await ctx.limits.hit(emailKey(email), HOUR_MS);
  if (byEmail.hits > LINKS_PER_EMAIL) {
    throw new HttpError(429, `Too many sign-in links were sent to this email. Please wait ${waitText(byEmail.ttlMs)} and try again.`);
  }
}

export function signinMail(productName: string, link: string): { subject: string; text: string } {
  return {
    subject: `Sign in to ${productName} Feedback`,
    text: [
      `Open this link to sign in to ${productName} Feedback:`,
      '',
      link,
      '',
      `It works once, for ${LINK_MINUTES} minutes, in the browser you open it in.`,
      'If you did not ask for it, ignore this mail: nobody can sign in without the link.',
    ].join('\n'),
  };
}

/**
 * Sends a sign-in link to `email` (an invited account's only, under SIGNUP=invite) and answers the
 * same either way. The mail goes out in the background (providers/upstream/mailer.ts).
 */
export async function requestLink(ctx: AppContext, email: string, address: string) {
  await checkLimits(ctx, email, address);
  // Asked for every email alike, before knowing whether it gets a mail: the answer still says nothing about accounts.
  if (ctx.mailer && !(await ctx.mailer.reachable())) throw new HttpError(503, MAIL_NOT_SENT);
  const mayJoin = ctx.config.signup === 'open' || (await findAccount(ctx.db, email)) !== null;
  if (mayJoin && ctx.mailer && ctx.config.publicUrl) {
    const token = randomToken();
    await ctx.db.insert(signinLinks).values({ tokenHash: sha256(token), email, expiresAt: new Date(Date.now() + LINK_MINUTES * 60_000) });
    // The token is in the fragment: it never reaches a server log or a Referer header.
    const link = `${ctx.config.publicUrl}/signin#${token}`;
    ctx.mailer.send({ to: email, ...signinMail(ctx.config.productName, link) });
  }
  return { email, resendAfterSeconds: RESEND_AFTER_SECONDS };
}

/** Spends the link (once, before it expires) and opens a session for its email. */
export async function useLink(db: Db, token: string): Promise<NewSession & { email: string }> {
  const [spent] = await db
    .update(signinLinks)
    .set({ usedAt: new Date() })
    .where(and(eq(signinLinks.tokenHash, sha256(token)), isNull(signinLinks.usedAt), gt(signinLinks.expiresAt, new Date())))
    .returning({ email: signinLinks.email });
  if (!spent) throw new HttpError(410, LINK_SPENT);
  return { ...(await createSession(db, 'user', spent.email)), email: spent.email };
}

/** Drops links past their time (used or not). */
export async function sweepLinks(db: Db): Promise<void> {
  await db.delete(signinLinks).where(lt(signinLinks.expiresAt, new Date()));
}
