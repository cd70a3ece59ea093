/**
 * SIGNIN=link: sends the sign-in mails through the operator's SMTP server (SMTP_URL) with
 * nodemailer. Sends run in the background so that every link request answers alike and at once,
 * whether a mail goes out or not (docs/decisions/026-sign-in-links.md); `settled` lets the server
 * finish them before it closes. A failed send is logged, never shown (the answer is already given).
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Starts sending; resolves at once. */
  send(mail: Mail): void;
  /**
   * Whether the SMTP server answers (connects, greets, and takes the login of SMTP_URL). Asked
   * before every link request, whoever it is for, so a mail server that is down or refuses is
   * said at once, and alike for every email; a failure is logged here.
   */
  reachable(): Promise<boolean>;
  /** Resolves when every send started so far has finished (or failed). */
  settled(): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string, log: FastifyBaseLogger): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  const inFlight = new Set<Promise<void>>();
  return {
    send(mail) {
      const sending = transport
        .sendMail({ from, ...mail })
        .then(() => undefined)
        .catch((error: unknown) => {
          // The recipient's address stays out of the log (plugins/log-redaction.ts keeps emails out too).
          log.error({ err: error instanceof Error ? error.message : String(error) }, 'sending a sign-in mail failed');
        })
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async reachable() {
      try {
        await transport.verify();
        return true;
      } catch (error: unknown) {
        log.error({ err: error instanceof Error ? error.message : String(error) }, 'the SMTP server for sign-in mails did not answer');
        return false;
      }
    },
    async settled() {
      await Promise.all([...inFlight]);
    },
    close() {
      transport.close();
    },
  };
}
