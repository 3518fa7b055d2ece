import { escapeHtml, type MailBrand, type OutgoingMail } from '../../platform/mailer';

const PLATFORM = 'Switchboard';

/**
 * The sign-in link. With an agency's brand (a client signing in to its portal) the mail names the
 * agency, is sent under its sender name, and names the platform only without white-label branding.
 */
export const magicLinkMail = (to: string, link: string, minutes: number, brand?: MailBrand | null): OutgoingMail => {
  const name = brand?.name ?? PLATFORM;
  const poweredBy = brand && !brand.whiteLabel ? `\n\nPowered by ${PLATFORM}` : '';
  return {
    to,
    subject: `Your ${name} sign-in link`,
    link,
    ...(brand ? { fromName: brand.senderName } : {}),
    text: `Sign in to ${name} by opening this link and pressing "Sign in":\n\n${link}\n\nThe link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.${poweredBy}`,
    html: `<p>Sign in to ${escapeHtml(name)} by opening this link and pressing <strong>Sign in</strong>:</p><p><a href="${escapeHtml(link)}">Sign in to ${escapeHtml(name)}</a></p><p>The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.</p>${poweredBy ? `<p>Powered by ${PLATFORM}</p>` : ''}`,
  };
};
