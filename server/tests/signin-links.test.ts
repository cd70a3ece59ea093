/**
 * SIGNIN=link over HTTP on both databases, with a real SMTP server on loopback receiving the mails
 * over a real socket (test-support/smtp-inbox.ts). docs/decisions/026-sign-in-links.md.
 */
import { createHash } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eq, sql } from 'drizzle-orm';
import { accounts, signinLinks } from '../db/schema';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeDatabases, TEST_ADMIN_SECRET, type TestApp, type TestDatabaseKind } from '../../test-support/test-app';
import { call, FIXTURE_SETS, type Answer } from '../../test-support/fixtures';
import { linkToken, startSmtpInbox, type SmtpInbox } from '../../test-support/smtp-inbox';
import { SIGN_IN_FIRST } from '../services/auth-sessions';
import { LINK_SPENT, LINKS_PER_ADDRESS, LINKS_PER_EMAIL, MAIL_NOT_SENT } from '../services/signin-links';
import { FOREIGN_ORIGIN } from '../plugins/session-cookies';
import type { AppConfig } from '../config';
import { ADMIN_MAX_FAILURES } from '../services/admin';
import { NO_ADMIN_SESSION } from '../routes/admin';

const PUBLIC_URL = 'http://127.0.0.1:3999';
const SITE = { origin: PUBLIC_URL };

const linkConfig = (inbox: SmtpInbox, more: Partial<AppConfig> = {}): Partial<AppConfig> => ({
  signin: 'link',
  smtpUrl: inbox.url,
  mailFrom: 'Interview <no-reply@example.com>',
  publicUrl: PUBLIC_URL,
  ...more,
});

/** `name=value` of the Set-Cookie named `name`, with its whole header line. */
function cookieOf(answer: Answer, name: string): { pair: string; line: string } {
  const raw = answer.headers['set-cookie'];
  const lines = Array.isArray(raw) ? raw : raw === undefined ? [] : [String(raw)];
  const line = lines.find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`No ${name} cookie in ${JSON.stringify(lines)}`);
  return { pair: line.split(';')[0] ?? '', line };
}

function suite(database: TestDatabaseKind) {
  let inbox: SmtpInbox;
  let t: TestApp;
  let address = 0;
  /** A fresh client address per call, so only the limit under test counts. */
  const nextAddress = () => `10.7.${Math.floor(++address / 250)}.${address % 250}`;

  const askLink = (app: TestApp, email: string, remoteAddress = nextAddress(), headers: Record<string, string> = SITE) =>
    call<{ email: string; resendAfterSeconds: number }>(app.app, 'POST', '/user/signin-link', { body: { email }, headers, remoteAddress });
  const openLink = (app: TestApp, token: string, headers: Record<string, string> = SITE) =>
    call<{ email: string }>(app.app, 'POST', '/user/signin', { body: { token }, headers, remoteAddress: nextAddress() });
  /** Asks for a link, takes it from the inbox, opens it: the session cookie's `name=value`. */
  async function signIn(app: TestApp, email: string): Promise<string> {
    expect((await askLink(app, email)).status).toBe(200);
    const opened = await openLink(app, linkToken((await inbox.next(email)).text));
    expect(opened).toMatchObject({ status: 200, body: { email } });
    return cookieOf(opened, 'signin_session').pair;
  }
  const as = (cookie: string, more: Record<string, string> = {}) => ({ cookie, ...SITE, ...more });

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: linkConfig(inbox) });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('sends a link that signs the browser in once: an HttpOnly, SameSite=Lax session cookie, then 410 with a sentence', async () => {
    const email = 'once@example.com';
    const asked = await askLink(t, email);
    expect(asked).toMatchObject({ status: 200, body: { email, resendAfterSeconds: 30 } });
    const mail = await inbox.next(email);
    expect(mail.text).toContain('Subject: Sign in to Interview Feedback');
    expect(mail.text).toContain(`${PUBLIC_URL}/signin#`);
    expect(mail.text).toContain('It works once, for 15 minutes');
    const token = linkToken(mail.text);
    // Only its sha256 is stored.
    const stored = await t.db.select().from(signinLinks).where(eq(signinLinks.email, email));
    expect(stored.map((r) => r.tokenHash)).toEqual([createHash('sha256').update(token).digest('hex')]);

    const opened = await openLink(t, token);
    expect(opened).toMatchObject({ status: 200, body: { email } });
    const { pair, line } = cookieOf(opened, 'signin_session');
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/; Secure/);
    expect(await call(t.app, 'GET', '/user/session', { headers: { cookie: pair } })).toMatchObject({ status: 200, body: { email } });
    const login = await call(t.app, 'POST', '/user/login', { body: { email }, headers: as(pair) });
    expect(login).toMatchObject({ status: 200, body: { isNewUser: true } });

    expect(await openLink(t, token)).toMatchObject({ status: 410, body: { error: LINK_SPENT } });
    expect(LINK_SPENT).toBe('This sign-in link has expired or was already used. Ask for a new one below.');
  });

  it("says with a sentence, without the mail server's address, when the SMTP server is down or refuses; nothing is stored", async () => {
    // A port nothing listens on (taken and let go), and a real SMTP server that refuses every connection.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const refusing = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect: (_session, callback) => callback(new Error('Service not available')),
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const refusingPort = (refusing.server.address() as AddressInfo).port;
    try {
      for (const smtpUrl of [`smtp://127.0.0.1:${closed}`, `smtp://127.0.0.1:${refusingPort}`]) {
        const down = await createTestApp({ database, questionSets: FIXTURE_SETS, config: linkConfig(inbox, { smtpUrl }) });
        try {
          const email = `down-${smtpUrl.split(':').pop() ?? ''}@example.com`;
          const answer = await askLink(down, email);
          expect(answer, smtpUrl).toMatchObject({ status: 503, body: { error: MAIL_NOT_SENT } });
          expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
          expect(await down.db.select().from(signinLinks).where(eq(signinLinks.email, email))).toEqual([]);
        } finally {
          await down.close();
        }
      }
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it('refuses a link past its 15 minutes', async () => {
    const email = 'late@example.com';
    await askLink(t, email);
    const token = linkToken((await inbox.next(email)).text);
    const [row] = await t.db.select().from(signinLinks).where(eq(signinLinks.email, email));
    expect(((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)) / 60_000).toBeCloseTo(15, 1);
    await t.db.execute(sql`update signin_links set expires_at = now() - interval '1 second' where email = ${email}`);
    expect(await openLink(t, token)).toMatchObject({ status: 410, body: { error: LINK_SPENT } });
  });

  it('ignores x-user-email: a call with only the header gets 401 with a sentence; with a session, the session decides', async () => {
    const owner = 'owner@example.com';
    const cookie = await signIn(t, owner);
    await call(t.app, 'POST', '/user/login', { body: { email: owner }, headers: as(cookie) });
    for (const [method, url] of [
      ['GET', '/user/ratings'],
      ['GET', '/user/progress'],
      ['GET', '/interview/token?questionSetId=1'],
    ] as const) {
      const headerOnly = await call(t.app, method, url, { email: owner, headers: SITE });
      expect(headerOnly, url).toMatchObject({ status: 401, body: { error: SIGN_IN_FIRST } });
    }
    expect(await call(t.app, 'POST', '/user/login', { body: { email: owner }, email: owner, headers: SITE })).toMatchObject({
      status: 401,
      body: { error: SIGN_IN_FIRST },
    });
    // Another email in the header changes nothing: the call is the owner's (the stranger has no account, which would be 401).
    const mixed = await call(t.app, 'GET', '/user/ratings', { email: 'stranger@example.com', headers: as(cookie) });
    expect(mixed.status).toBe(200);
    expect(await t.db.select().from(accounts).where(eq(accounts.email, 'stranger@example.com'))).toEqual([]);
    expect(SIGN_IN_FIRST).toBe('Please sign in first: enter your email and open the link we send you.');
  });

  it(`limits links to ${LINKS_PER_EMAIL} an hour per email, whatever the address`, async () => {
    const email = 'many@example.com';
    for (let i = 0; i < LINKS_PER_EMAIL; i += 1) expect((await askLink(t, email)).status).toBe(200);
    const refused = await askLink(t, email);
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Too many sign-in links were sent to this email. Please wait 60 minutes and try again.' },
    });
    // The mails go out after the answers: wait for the five, then for a later link to another
    // email, by which time a sixth to this one would have come too (a fixed wait was flaky under load).
    await expect.poll(() => inbox.count(email), { timeout: 15_000 }).toBe(LINKS_PER_EMAIL);
    expect((await askLink(t, 'after-many@example.com')).status).toBe(200);
    await inbox.next('after-many@example.com', 15_000);
    expect(inbox.count(email)).toBe(LINKS_PER_EMAIL);
  });

  it(`limits links to ${LINKS_PER_ADDRESS} an hour per client address, whatever the email`, async () => {
    const remoteAddress = '10.8.0.1';
    for (let i = 0; i < LINKS_PER_ADDRESS; i += 1) expect((await askLink(t, `addr-${i}@example.com`, remoteAddress)).status).toBe(200);
    const refused = await askLink(t, 'addr-last@example.com', remoteAddress);
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Too many sign-in links were asked for from your address. Please wait 60 minutes and try again.' },
    });
    expect((await askLink(t, 'addr-last@example.com', '10.8.0.2')).status).toBe(200);
  });

  it('answers the same for an email with an account, one without, and (SIGNUP=invite) one not invited, which gets no mail', async () => {
    const known = 'known@example.com';
    await signIn(t, known);
    await call(t.app, 'POST', '/user/login', { body: { email: known } });
    const [a, b] = [await askLink(t, known), await askLink(t, 'unknown@example.com')];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(Object.keys(a.body as object)).toEqual(Object.keys(b.body as object));
    expect((a.body as { resendAfterSeconds: number }).resendAfterSeconds).toBe(
      (b.body as { resendAfterSeconds: number }).resendAfterSeconds,
    );

    const invite = await createTestApp({ database, questionSets: FIXTURE_SETS, config: linkConfig(inbox, { signup: 'invite' }) });
    try {
      const invited = 'invited@example.com';
      expect(
        (await call(invite.app, 'POST', '/api/emails', { admin: TEST_ADMIN_SECRET, body: { email: invited, limit: null } })).status,
      ).toBe(201);
      const yes = await askLink(invite, invited);
      const no = await askLink(invite, 'not-invited@example.com');
      expect(yes).toMatchObject({ status: 200, body: { email: invited, resendAfterSeconds: 30 } });
      expect(no).toMatchObject({ status: 200, body: { email: 'not-invited@example.com', resendAfterSeconds: 30 } });
      const opened = await openLink(invite, linkToken((await inbox.next(invited)).text));
      const login = await call(invite.app, 'POST', '/user/login', {
        body: { email: invited },
        headers: as(cookieOf(opened, 'signin_session').pair),
      });
      expect(login).toMatchObject({ status: 200, body: { isNewUser: true } });
      await invite.app.appContext.mailer?.settled();
      expect(inbox.count('not-invited@example.com')).toBe(0);
    } finally {
      await invite.close();
    }
  });

  it('refuses a state-changing call from another site, or with no sign of its origin, with a sentence', async () => {
    const cookie = await signIn(t, 'origin@example.com');
    const foreign = { cookie, origin: 'https://evil.example' };
    for (const [url, body] of [
      ['/user/signout', undefined],
      ['/user/login', { email: 'origin@example.com' }],
      ['/user/signin-link', { email: 'origin@example.com' }],
      ['/user/feedback', { text: 'Nice interviews, thank you.', topic: 'JavaScript' }],
    ] as const) {
      const answer = await call(t.app, 'POST', url, { body, headers: foreign, remoteAddress: nextAddress() });
      expect(answer, url).toMatchObject({ status: 403, body: { error: FOREIGN_ORIGIN } });
    }
    expect(await call(t.app, 'POST', '/user/signout', { headers: { cookie } })).toMatchObject({ status: 403 });
    // A browser that sends `Origin: null` for its own page (no-referrer) says same-origin in Sec-Fetch-Site.
    expect((await call(t.app, 'GET', '/user/session', { headers: { cookie } })).status).toBe(200);
    const own = await call(t.app, 'POST', '/user/signout', { headers: { cookie, origin: 'null', 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(200);
    expect(FOREIGN_ORIGIN).toBe('This request did not come from this site, so it was refused.');
  });

  it('signs out one browser, and the operator signs an email out everywhere', async () => {
    const email = 'everywhere@example.com';
    const [first, second, third] = [await signIn(t, email), await signIn(t, email), await signIn(t, email)];
    const out = await call(t.app, 'POST', '/user/signout', { headers: as(first) });
    expect(out.status).toBe(200);
    expect(cookieOf(out, 'signin_session').line).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await call(t.app, 'GET', '/user/session', { headers: { cookie: first } })).toMatchObject({
      status: 401,
      body: { error: SIGN_IN_FIRST },
    });
    expect((await call(t.app, 'GET', '/user/session', { headers: { cookie: second } })).status).toBe(200);

    const ended = await call(t.app, 'POST', `/api/admin/users/${encodeURIComponent(email)}/signout`, { admin: TEST_ADMIN_SECRET });
    expect(ended).toMatchObject({ status: 200, body: { email, ended: 2 } });
    for (const cookie of [second, third]) {
      expect(await call(t.app, 'GET', '/user/ratings', { headers: { cookie } })).toMatchObject({
        status: 401,
        body: { error: SIGN_IN_FIRST },
      });
    }
  });

  it('erasing a person ends their sessions and voids their links', async () => {
    const email = 'erased@example.com';
    const cookie = await signIn(t, email);
    await call(t.app, 'POST', '/user/login', { body: { email }, headers: as(cookie) });
    await askLink(t, email);
    const unused = linkToken((await inbox.next(email)).text);
    expect((await call(t.app, 'DELETE', `/api/admin/users/${encodeURIComponent(email)}`, { admin: TEST_ADMIN_SECRET })).status).toBe(200);
    expect(await call(t.app, 'GET', '/user/ratings', { headers: { cookie } })).toMatchObject({
      status: 401,
      body: { error: SIGN_IN_FIRST },
    });
    expect(await openLink(t, unused)).toMatchObject({ status: 410, body: { error: LINK_SPENT } });
  });

  it('keeps the operator in with an HttpOnly admin session cookie after the secret was sent once; scripts keep x-admin-secret', async () => {
    const opened = await call(t.app, 'POST', '/api/admin/session', { admin: TEST_ADMIN_SECRET, headers: SITE });
    expect(opened.status).toBe(200);
    const { pair, line } = cookieOf(opened, 'admin_session');
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect((await call(t.app, 'GET', '/api/emails', { headers: { cookie: pair } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/admin/session', { headers: { cookie: pair } })).status).toBe(200);
    // A candidate's session is no admin session.
    const candidate = await signIn(t, 'not-admin@example.com');
    expect((await call(t.app, 'GET', '/api/emails', { headers: { cookie: candidate } })).status).toBe(401);
    expect(
      await call(t.app, 'POST', '/api/emails', {
        body: { email: 'x@example.com', limit: null },
        headers: { cookie: pair, origin: 'https://evil.example' },
      }),
    ).toMatchObject({ status: 403, body: { error: FOREIGN_ORIGIN } });
    expect((await call(t.app, 'DELETE', '/api/admin/session', { headers: { cookie: pair, ...SITE } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/emails', { headers: { cookie: pair } })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/emails', { admin: TEST_ADMIN_SECRET })).status).toBe(200);
  });

  it('the admin page asking whether it holds a session is answered 401 with a sentence, and never counted as a wrong secret', async () => {
    const remoteAddress = nextAddress();
    for (let i = 0; i <= ADMIN_MAX_FAILURES + 1; i += 1) {
      expect(await call(t.app, 'GET', '/api/admin/session', { remoteAddress })).toMatchObject({
        status: 401,
        body: { error: NO_ADMIN_SESSION },
      });
    }
    // The address's wrong-secret count is untouched: the first wrong secret is a 401, not a 429.
    expect((await call(t.app, 'GET', '/api/emails', { admin: 'wrong-secret-0123456789', remoteAddress })).status).toBe(401);
  });

  if (database === 'postgres') {
    it('a session made on one server works on another server of the same database', async () => {
      const other = await createTestApp({ database, questionSets: FIXTURE_SETS, config: linkConfig(inbox), postgresUrl: t.databaseUrl });
      try {
        const email = 'two-servers@example.com';
        expect((await askLink(t, email)).status).toBe(200);
        // The link asked for through the first server is opened through the second...
        const opened = await openLink(other, linkToken((await inbox.next(email)).text));
        const cookie = cookieOf(opened, 'signin_session').pair;
        // ...and the session works on both; signing out on one ends it on the other.
        expect(await call(t.app, 'GET', '/user/session', { headers: { cookie } })).toMatchObject({ status: 200, body: { email } });
        expect((await call(other.app, 'POST', '/user/login', { body: { email }, headers: as(cookie) })).status).toBe(200);
        expect((await call(t.app, 'POST', '/user/signout', { headers: as(cookie) })).status).toBe(200);
        expect((await call(other.app, 'GET', '/user/session', { headers: { cookie } })).status).toBe(401);
      } finally {
        await other.close();
      }
    });
  }
}

describeDatabases('sign-in links (SIGNIN=link)', suite);
