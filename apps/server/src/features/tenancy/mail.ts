import { escapeHtml, type OutgoingMail } from '../../platform/mailer';

export const inviteMail = (to: string, link: string, subaccountName: string, role: string): OutgoingMail => ({
  to,
  subject: `You were invited to ${subaccountName} on Switchboard`,
  link,
  text: `You were invited to ${subaccountName} on Switchboard as ${role}. Sign in with this address to join:\n\n${link}`,
  html: `<p>You were invited to <strong>${escapeHtml(subaccountName)}</strong> on Switchboard as ${escapeHtml(role)}.</p><p><a href="${escapeHtml(link)}">Sign in to join</a></p>`,
});
