/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every mail it receives, for
 * the sign-in link tests: the product sends through nodemailer over a real socket to it.
 *
 *   const inbox = await startSmtpInbox();   // inbox.url is SMTP_URL
 *   const mail = await inbox.next('ann@example.com');
 *   const token = linkToken(mail.text);
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  /** The raw message with quoted-printable soft line breaks undone. */
  text: string;
}

export interface SmtpInbox {
  url: string;
  mails: ReceivedMail[];
  /** The next mail to `to` not taken yet (waits up to `timeoutMs`). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Mails to `to` received so far (taken or not). */
  count(to: string): number;
  close(): Promise<void>;
}

/** Undoes quoted-printable: soft line breaks and =XX escapes (nodemailer wraps long lines so). */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no certificate to trust in the tests.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const unread = (to: string) => mails.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const mail = unread(to);
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > until) throw new Error(`No mail to ${to} arrived within ${timeoutMs} ms.`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    count: (to) => mails.filter((m) => m.to.includes(to.toLowerCase())).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-in link in a mail: `{PUBLIC_URL}/signin#<token>`. */
export function signinLink(text: string): string {
  const link = /https?:\/\/\S+\/signin#[A-Za-z0-9_-]+/.exec(text)?.[0];
  if (!link) throw new Error(`No sign-in link in the mail:\n${text}`);
  return link;
}

export const linkToken = (text: string) => signinLink(text).split('#')[1] ?? '';
