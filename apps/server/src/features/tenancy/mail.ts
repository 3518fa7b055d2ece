import { escapeHtml, type MailBrand, type OutgoingMail } from '../../platform/mailer';

const PLATFORM = 'Switchboard';

/**
 * An invitation. A client's (role `client`) names the agency instead of the platform, is sent under
 * its sender name, and names the platform only without white-label branding.
 */
export const inviteMail = (
  to: string,
  link: string,
  subaccountName: string,
  role: string,
  brand?: MailBrand | null,
): OutgoingMail => {
  if (!brand) {
    return {
      to,
      subject: `You were invited to ${subaccountName} on ${PLATFORM}`,
      link,
      text: `You were invited to ${subaccountName} on ${PLATFORM} as ${role}. Sign in with this address to join:\n\n${link}`,
      html: `<p>You were invited to <strong>${escapeHtml(subaccountName)}</strong> on ${PLATFORM} as ${escapeHtml(role)}.</p><p><a href="${escapeHtml(link)}">Sign in to join</a></p>`,
    };
  }
  const poweredBy = brand.whiteLabel ? '' : `\n\nPowered by ${PLATFORM}`;
  return {
    to,
    subject: `${brand.name} invited you to your ${subaccountName} portal`,
    link,
    fromName: brand.senderName,
    text: `${brand.name} invited you to the ${subaccountName} portal. Sign in with this address to see your agents, conversations and usage:\n\n${link}${poweredBy}`,
    html: `<p>${escapeHtml(brand.name)} invited you to the <strong>${escapeHtml(subaccountName)}</strong> portal.</p><p><a href="${escapeHtml(link)}">Sign in to your portal</a></p>${poweredBy ? `<p>Powered by ${PLATFORM}</p>` : ''}`,
  };
};
