/**
 * The sandbox's refunds and disputes: a sandbox invoice is its own charge (same id), and its
 * refunded amount and dispute are kept on the invoice record. The operator's sandbox routes change
 * them and then drive the same events Stripe would send (charge.refunded, charge.dispute.*).
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ProviderCharge, ProviderDispute, ReversalSource } from './reversals';
import type { StoredInvoice } from './sandbox-objects';
import { sandboxObjects } from './schema';

export interface SandboxDispute {
  id: string;
  amount: number;
  status: 'needs_response' | 'won' | 'lost';
}

type PaymentRecord = StoredInvoice & {
  amountRefunded?: number;
  checkoutId?: string;
  dispute?: SandboxDispute;
};

const DISPUTE_PREFIX = 'dp_';

const loadInvoice = async (db: Db, id: string): Promise<PaymentRecord | null> => {
  const [row] = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, 'invoice')));
  return (row?.data as PaymentRecord | undefined) ?? null;
};

const chargeOf = (invoice: PaymentRecord): ProviderCharge => ({
  id: invoice.id,
  customerId: invoice.customerId,
  accountId: invoice.accountId,
  invoiceId: invoice.id,
  checkoutId: invoice.checkoutId ?? null,
  amount: invoice.amountPaid,
  amountRefunded: invoice.amountRefunded ?? 0,
  currency: 'usd',
});

export const sandboxReversals = (db: Db): ReversalSource => ({
  async getCharge(id) {
    const invoice = await loadInvoice(db, id);
    return invoice && invoice.status === 'paid' ? chargeOf(invoice) : null;
  },
  async getDispute(id): Promise<ProviderDispute | null> {
    if (!id.startsWith(DISPUTE_PREFIX)) return null;
    const invoice = await loadInvoice(db, id.slice(DISPUTE_PREFIX.length));
    if (!invoice?.dispute) return null;
    return {
      id: invoice.dispute.id,
      chargeId: invoice.id,
      amount: invoice.dispute.amount,
      status: invoice.dispute.status,
    };
  },
});

/** A paid sandbox invoice of any account, as the operator's routes see it. */
export const sandboxPayment = async (db: Db, invoiceId: string) => {
  const invoice = await loadInvoice(db, invoiceId);
  return invoice && invoice.status === 'paid' ? invoice : null;
};

/**
 * Refunds `amount` (minor units; the rest of the payment when absent) of a paid sandbox invoice,
 * in one statement, so two refunds at once add up and never pass what was paid. Answers the total
 * refunded, or null for no such invoice.
 */
export const refundSandboxInvoice = async (db: Db, invoiceId: string, amount: number | null) => {
  const paid = sql`(${sandboxObjects.data}->>'amountPaid')::int`;
  const refunded = sql`coalesce((${sandboxObjects.data}->>'amountRefunded')::int, 0)`;
  const next = amount === null ? paid : sql`least(${paid}, ${refunded} + ${amount})`;
  const [row] = await db
    .update(sandboxObjects)
    .set({
      data: sql`${sandboxObjects.data} || jsonb_build_object('amountRefunded', ${next}, 'refunded', ${next} >= ${paid})`,
    })
    .where(
      and(
        eq(sandboxObjects.id, invoiceId),
        eq(sandboxObjects.kind, 'invoice'),
        sql`${sandboxObjects.data}->>'status' = 'paid'`,
      ),
    )
    .returning({ data: sandboxObjects.data });
  return row ? ((row.data as PaymentRecord).amountRefunded ?? 0) : null;
};

/** Opens a dispute of what is left of a paid sandbox invoice (once); answers the dispute. */
export const disputeSandboxInvoice = async (db: Db, invoiceId: string): Promise<SandboxDispute | null> => {
  const dispute = sql`jsonb_build_object('id', ${`${DISPUTE_PREFIX}${invoiceId}`}::text, 'status', 'needs_response',
    'amount', (${sandboxObjects.data}->>'amountPaid')::int - coalesce((${sandboxObjects.data}->>'amountRefunded')::int, 0))`;
  await db
    .update(sandboxObjects)
    .set({ data: sql`${sandboxObjects.data} || jsonb_build_object('dispute', ${dispute})` })
    .where(
      and(
        eq(sandboxObjects.id, invoiceId),
        eq(sandboxObjects.kind, 'invoice'),
        sql`${sandboxObjects.data}->>'status' = 'paid'`,
        sql`not (${sandboxObjects.data} ? 'dispute')`,
      ),
    );
  return (await loadInvoice(db, invoiceId))?.dispute ?? null;
};

/** Closes an open sandbox dispute as won or lost (once); answers the dispute, or null for none. */
export const closeSandboxDispute = async (db: Db, disputeId: string, outcome: 'won' | 'lost') => {
  if (!disputeId.startsWith(DISPUTE_PREFIX)) return null;
  const invoiceId = disputeId.slice(DISPUTE_PREFIX.length);
  await db
    .update(sandboxObjects)
    .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{dispute,status}', to_jsonb(${outcome}::text))` })
    .where(
      and(
        eq(sandboxObjects.id, invoiceId),
        eq(sandboxObjects.kind, 'invoice'),
        sql`${sandboxObjects.data}->'dispute'->>'status' = 'needs_response'`,
      ),
    );
  return (await loadInvoice(db, invoiceId))?.dispute ?? null;
};

/**
 * The receipt the sandbox stored for a paid one-time checkout (a credit pack, a lifetime plan),
 * linked to the checkout once, so its refund finds the credits the checkout granted. Answers the
 * receipt's id.
 */
export const linkSandboxReceipt = async (
  db: Db,
  checkout: { id: string; accountId: string; priceId: string },
): Promise<string | null> => {
  const linked = await db
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, 'invoice'), sql`${sandboxObjects.data}->>'checkoutId' = ${checkout.id}`))
    .limit(1);
  if (linked[0]) return linked[0].id;
  const [receipt] = await db
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.kind, 'invoice'),
        eq(sandboxObjects.accountId, checkout.accountId),
        sql`${sandboxObjects.data}->>'billingReason' = 'manual'`,
        sql`${sandboxObjects.data}->>'priceId' = ${checkout.priceId}`,
        sql`not (${sandboxObjects.data} ? 'checkoutId')`,
      ),
    )
    .orderBy(desc(sandboxObjects.createdAt))
    .limit(1);
  if (!receipt) return null;
  const claimed = await db
    .update(sandboxObjects)
    .set({ data: sql`${sandboxObjects.data} || jsonb_build_object('checkoutId', ${checkout.id}::text)` })
    .where(and(eq(sandboxObjects.id, receipt.id), sql`not (${sandboxObjects.data} ? 'checkoutId')`))
    .returning({ id: sandboxObjects.id });
  return claimed[0]?.id ?? null;
};
