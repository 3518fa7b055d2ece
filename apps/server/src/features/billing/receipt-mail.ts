/**
 * The receipt the /success page promises: when a paid invoice is recorded (`invoice.paid`), the
 * account's owner is mailed what was paid, through the product's mailer (outbox, SMTP when set).
 * Once per invoice, however many provider events announce it (a claim in billing_events).
 */
import { formatMinor } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { defineReaction } from '../../platform/domain-events';
import { createMailer, escapeHtml, type OutgoingMail } from '../../platform/mailer';
import { ownerOf } from './account';
import { billingEvents } from './schema';

export const receiptMail = (input: {
  to: string;
  accountName: string;
  amountPaid: number;
  invoiceId: string;
  paidAt: Date;
  link: string;
}): OutgoingMail => {
  const amount = formatMinor(input.amountPaid);
  const day = input.paidAt.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  const text = `Thank you. ${input.accountName} paid ${amount} on ${day}.\n\nInvoice: ${input.invoiceId}\n\nYour invoices, plan and credits are in Settings, Billing:\n${input.link}`;
  return {
    to: input.to,
    subject: `Your Switchboard receipt: ${amount}`,
    link: input.link,
    text,
    html: `<p>Thank you. <strong>${escapeHtml(input.accountName)}</strong> paid ${escapeHtml(amount)} on ${escapeHtml(day)}.</p><p>Invoice: ${escapeHtml(input.invoiceId)}</p><p><a href="${escapeHtml(input.link)}">Your invoices, plan and credits in Settings, Billing</a></p>`,
  };
};

/**
 * Mails the owner the receipt of a paid invoice (nothing for an invoice of 0), once per invoice id:
 * the claim commits with the mail's outbox row.
 */
export const mailReceipt = defineReaction({
  event: 'invoice.paid',
  name: 'billing.receipt-mail',
  runs: 'after-commit',
  handle: async (deps: Deps, paid, tx) => {
    if (paid.amountPaid <= 0) return;
    const db = tx ?? deps.db;
    const claimed = await db
      .insert(billingEvents)
      .values({ id: `receipt:${paid.invoiceId}`, type: 'receipt.mailed', accountId: paid.accountId })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (!claimed[0]) return;
    const owner = await ownerOf(db, paid.accountId);
    if (!owner) return;
    await createMailer(deps.db, deps.env, deps.log).send(
      receiptMail({
        to: owner.email,
        accountName: owner.name,
        amountPaid: paid.amountPaid,
        invoiceId: paid.invoiceId,
        paidAt: new Date(),
        link: `${deps.publicUrl}/settings#billing`,
      }),
    );
  },
});
