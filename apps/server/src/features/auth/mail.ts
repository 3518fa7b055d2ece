import { escapeHtml, type OutgoingMail } from '../../platform/mailer';

export const magicLinkMail = (to: string, link: string, minutes: number): OutgoingMail => ({
  to,
  subject: 'Your Switchboard sign-in link',
  link,
  text: `Sign in to Switchboard by opening this link and pressing "Sign in":\n\n${link}\n\nThe link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.`,
  html: `<p>Sign in to Switchboard by opening this link and pressing <strong>Sign in</strong>:</p><p><a href="${escapeHtml(link)}">Sign in to Switchboard</a></p><p>The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.</p>`,
});
