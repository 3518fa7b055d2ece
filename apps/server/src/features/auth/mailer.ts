import { reachesOutside, type TOrigin } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Env } from '../../platform/env';
import { newId } from '../../platform/ids';
import { outbox } from './schema';

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

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const magicLinkMail = (to: string, link: string, minutes: number): OutgoingMail => ({
  to,
  subject: 'Your Switchboard sign-in link',
  link,
  text: `Sign in to Switchboard by opening this link and pressing "Sign in":\n\n${link}\n\nThe link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.`,
  html: `<p>Sign in to Switchboard by opening this link and pressing <strong>Sign in</strong>:</p><p><a href="${escapeHtml(link)}">Sign in to Switchboard</a></p><p>The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.</p>`,
});

export const inviteMail = (to: string, link: string, subaccountName: string, role: string): OutgoingMail => ({
  to,
  subject: `You were invited to ${subaccountName} on Switchboard`,
  link,
  text: `You were invited to ${subaccountName} on Switchboard as ${role}. Sign in with this address to join:\n\n${link}`,
  html: `<p>You were invited to <strong>${escapeHtml(subaccountName)}</strong> on Switchboard as ${escapeHtml(role)}.</p><p><a href="${escapeHtml(link)}">Sign in to join</a></p>`,
});
