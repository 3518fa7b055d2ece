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
  /** The sender's display name (an agency's, for a mail to its client); MAIL_FROM's otherwise. */
  fromName?: string;
}

/** How a mail to an agency's client presents itself: the agency's names, the platform's only without white-label. */
export interface MailBrand {
  /** The agency's brand name, used in the text. */
  name: string;
  /** The sender's display name. */
  senderName: string;
  /** The plan includes white-label branding: the mail never names the platform. */
  whiteLabel: boolean;
  /** The agency's sign-in page is `/a/{slug}`. */
  slug: string;
}

/** Finds the brand of an agency's mails (features/portal), given to features below it. */
export type MailBrandLookup = (accountId: string) => Promise<MailBrand | null>;

/**
 * The brand of a sign-in mail: the agency of the page it is asked for on (a verified custom
 * domain's host name, or an agency's slug), or of the client it goes to; null for the platform's.
 */
export type SignInBrandLookup = (input: {
  email: string;
  hostname: string | null;
  slug?: string;
}) => Promise<MailBrand | null>;

/** The From header: MAIL_FROM's address under the given display name, or MAIL_FROM as it is. */
export const fromHeader = (mailFrom: string, fromName?: string): string => {
  if (!fromName) return mailFrom;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `"${fromName.replace(/["\\\r\n]/g, '')}" <${address}>`;
};

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
      const { fromName, ...stored } = mail;
      await db.insert(outbox).values({ id, ...stored, fromName: fromName ?? null, link: mail.link ?? null });
      if (env.SMTP_URL) {
        await (await transportFor(env.SMTP_URL)).sendMail({
          from: fromHeader(env.MAIL_FROM, fromName),
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
