import type { OutgoingMail } from '../../platform/mailer';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A response to a project, mailed to its author. The author's address stays hidden from the
 * responder; the responder's own address is in the mail so the author can answer.
 */
export const projectResponseMail = (input: {
  to: string;
  projectTitle: string;
  projectLink: string;
  fromName: string;
  fromEmail: string;
  message: string;
}): OutgoingMail => ({
  to: input.to,
  subject: `New response to "${input.projectTitle}" on the Switchboard marketplace`,
  link: input.projectLink,
  text: `${input.fromName} (${input.fromEmail}) answered your marketplace project "${input.projectTitle}":\n\n${input.message}\n\nReply to ${input.fromEmail} to continue the conversation.\nYour project: ${input.projectLink}`,
  html: `<p><strong>${escapeHtml(input.fromName)}</strong> (${escapeHtml(input.fromEmail)}) answered your marketplace project <strong>${escapeHtml(input.projectTitle)}</strong>:</p><blockquote style="white-space:pre-wrap">${escapeHtml(input.message)}</blockquote><p>Reply to <a href="mailto:${escapeHtml(input.fromEmail)}">${escapeHtml(input.fromEmail)}</a> to continue the conversation.</p><p><a href="${escapeHtml(input.projectLink)}">Open your project</a></p>`,
});
