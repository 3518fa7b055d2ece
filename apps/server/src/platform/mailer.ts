import { reachesOutside, type TOrigin } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Env } from './env';
import { newId } from './ids';
import { outbox } from './mail.schema';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link the mail carries, printed to the log when no SMTP is configured. */
  link?: string;
  /** Where the mail comes from (live when not said): a test's mail is refused, neither stored nor sent. */
  origin?: TOrigin;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * Every mail is recorded in the outbox table. With SMTP_URL it is also delivered by nodemailer;
 * without it the link is printed in the log and the dev mailbox (/dev/mailbox) lists it.
 */
export const createMailer = (db: Db, env: Env, log: Logger): Mailer => {
  // nodemailer is loaded with the first mail, and only when SMTP is configured.
  let transport: Promise<Transporter> | null = null;
  const transportFor = (url: string) => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url));
    return transport;
  };
  return {
    async send({ origin = 'live', ...mail }) {
      if (!reachesOutside(origin)) throw new Error(`A test (${origin}) cannot send mail`);
      const id = newId('outbox');
      await db.insert(outbox).values({ id, ...mail, link: mail.link ?? null });
      if (env.SMTP_URL) {
        await (await transportFor(env.SMTP_URL)).sendMail({
          from: env.MAIL_FROM,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        await db.update(outbox).set({ sentAt: new Date() }).where(eq(outbox.id, id));
        return;
      }
      log.info(
        { to: mail.to, link: mail.link },
        `Mail to ${mail.to}: ${mail.subject}${mail.link ? ` — ${mail.link}` : ''}`,
      );
    },
  };
};

/** Text made safe to place in a mail's HTML. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
