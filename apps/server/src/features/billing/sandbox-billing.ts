/** What the Billing section reads from the sandbox provider: its test card and its invoice records. */
import { findTier } from '@switchboard/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ProviderInvoiceSummary, ProviderPaymentMethod } from './provider';
import type { StoredInvoice } from './sandbox-objects';
import { sandboxObjects } from './schema';

/** The sandbox has no real cards: a customer who has paid once has the sandbox test card. */
export const sandboxPaymentMethod = async (db: Db, customerId: string): Promise<ProviderPaymentMethod | null> => {
  const paid = await db
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.kind, 'checkout'),
        sql`${sandboxObjects.data}->>'customerId' = ${customerId}`,
        sql`${sandboxObjects.data}->>'paymentStatus' = 'paid'`,
      ),
    )
    .limit(1);
  return paid[0] ? { brand: 'sandbox', last4: '4242', expMonth: null, expYear: null } : null;
};

/** The account's sandbox invoices and receipts, newest first (refunded ones say so). */
export const sandboxInvoices = async (
  db: Db,
  input: { accountId: string; limit: number },
): Promise<ProviderInvoiceSummary[]> => {
  const rows = await db
    .select()
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, 'invoice'), eq(sandboxObjects.accountId, input.accountId)))
    .orderBy(desc(sandboxObjects.createdAt))
    .limit(input.limit);
  return rows.map((row) => {
    const invoice = row.data as StoredInvoice & { refunded?: boolean };
    return {
      id: invoice.id,
      number: null,
      amount: invoice.amountPaid,
      currency: 'USD',
      status: invoice.refunded ? 'refunded' : invoice.status,
      createdAt: row.createdAt,
      description: invoice.description ?? findTier(invoice.priceId)?.display_name ?? 'Invoice',
      hostedUrl: null,
      pdfUrl: null,
    };
  });
};
