/**
 * Paying affiliates (the operator's side): a commission is pending for AFFILIATE_HOLD_DAYS, then
 * payable, then paid by a payout. The operator lists what is payable per affiliate (also as CSV),
 * pays it outside the product and marks it paid with a reference. Stripe Connect transfers need a
 * connected account per affiliate, which this product does not configure: every payout is manual,
 * and the answers say Connect is not configured.
 */
import { and, asc, count, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { newId } from '../../platform/ids';
import { users } from '../tenancy/schema';
import { affiliatePayouts, commissions } from './schema';

/** Commissions are in the catalog's currency. */
export const PAYOUT_CURRENCY = 'usd';

/** Stripe Connect has no configuration in this product: payouts are made outside and marked paid. */
export const CONNECT_STATE = 'not_configured' as const;

export const ZPayableAffiliate = z.object({
  affiliateUserId: z.string(),
  name: z.string(),
  email: z.string(),
  /** Minor units: the sum of the payable commissions and their adjustments. */
  amount: z.number().int(),
  currency: z.string(),
  /** Commission rows the payout settles (commissions and their refund or dispute adjustments). */
  count: z.number().int(),
  /** How this affiliate is paid: manually, since Stripe Connect is not configured. */
  method: z.literal('manual'),
  stripeConnect: z.literal(CONNECT_STATE),
});
export type TPayableAffiliate = z.infer<typeof ZPayableAffiliate>;

export const ZMarkPaidRequest = z.object({
  /** The operator's reference of the transfer made outside (bank or PayPal transfer id). */
  reference: z.string().trim().min(1).max(200),
  /** Only these affiliates; every affiliate with a payable amount when absent. */
  affiliateUserIds: z.array(z.string().min(1).max(64)).min(1).max(500).optional(),
});

export const ZPayout = z.object({
  id: z.string(),
  affiliateUserId: z.string(),
  name: z.string(),
  email: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  count: z.number().int(),
  reference: z.string(),
  method: z.enum(['manual', 'stripe_connect']),
  transferId: z.string().nullable(),
  paidBy: z.string(),
  createdAt: z.string(),
});
export type TPayout = z.infer<typeof ZPayout>;

const payableWhere = (now: Date) => and(isNull(commissions.paidAt), lte(commissions.payableAt, now));

/** Every affiliate with something to pay now (a positive sum of payable commissions), by email. */
export const payableAffiliates = async (db: Db, now = new Date()): Promise<TPayableAffiliate[]> => {
  const rows = await db
    .select({
      affiliateUserId: commissions.affiliateUserId,
      name: users.name,
      email: users.email,
      amount: sql<string>`sum(${commissions.amount})`,
      count: count(),
    })
    .from(commissions)
    .innerJoin(users, eq(users.id, commissions.affiliateUserId))
    .where(payableWhere(now))
    .groupBy(commissions.affiliateUserId, users.name, users.email)
    .having(sql`sum(${commissions.amount}) > 0`)
    .orderBy(asc(users.email));
  return rows.map((row) => ({
    ...row,
    amount: Number(row.amount),
    currency: PAYOUT_CURRENCY,
    method: 'manual' as const,
    stripeConnect: CONNECT_STATE,
  }));
};

/** A CSV field, quoted when it holds a comma, a quote or a line break; a formula's first character is neutralised. */
const field = (value: string) => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The payable commissions per affiliate as CSV: name, email, amount (major units), currency, count. */
export const payableCsv = async (db: Db, now = new Date()): Promise<string> => {
  const rows = await payableAffiliates(db, now);
  const lines = rows.map((row) =>
    [field(row.name), field(row.email), (row.amount / 100).toFixed(2), row.currency.toUpperCase(), row.count].join(','),
  );
  return `name,email,amount,currency,count\n${lines.map((line) => `${line}\n`).join('')}`;
};

class NothingToPay extends Error {}

/**
 * Marks the payable commissions of each affiliate paid by one payout with the operator's
 * reference. Each affiliate's commissions are claimed by one conditional update (`paid_at IS NULL`),
 * so two requests at once pay each commission once: the second finds nothing left and writes no
 * payout. An affiliate whose payable sum is not positive (adjustments outweigh commissions) is left.
 */
export const markPaid = async (
  deps: Deps,
  input: z.infer<typeof ZMarkPaidRequest> & { paidBy: string },
  now = new Date(),
): Promise<TPayout[]> => {
  const chosen = input.affiliateUserIds ? new Set(input.affiliateUserIds) : null;
  const candidates = (await payableAffiliates(deps.db, now))
    .map((row) => row.affiliateUserId)
    .filter((id) => !chosen || chosen.has(id));
  const payouts: TPayout[] = [];
  for (const affiliateUserId of candidates) {
    const id = newId('affiliatePayout');
    try {
      await deps.db.transaction(async (tx) => {
        await tx.insert(affiliatePayouts).values({
          id,
          affiliateUserId,
          amount: 0,
          currency: PAYOUT_CURRENCY,
          commissionCount: 0,
          reference: input.reference,
          method: 'manual',
          paidBy: input.paidBy,
        });
        const paid = await tx
          .update(commissions)
          .set({ paidAt: now, payoutId: id })
          .where(and(eq(commissions.affiliateUserId, affiliateUserId), payableWhere(now)))
          .returning({ amount: commissions.amount });
        const amount = paid.reduce((total, row) => total + row.amount, 0);
        if (paid.length === 0 || amount <= 0) throw new NothingToPay();
        await tx
          .update(affiliatePayouts)
          .set({ amount, commissionCount: paid.length })
          .where(eq(affiliatePayouts.id, id));
      });
    } catch (error) {
      if (error instanceof NothingToPay) continue;
      throw error;
    }
    payouts.push(...(await payoutsWhere(deps.db, [id])));
  }
  return payouts;
};

const payoutsWhere = async (db: Db, ids?: string[]): Promise<TPayout[]> => {
  const rows = await db
    .select({ payout: affiliatePayouts, name: users.name, email: users.email })
    .from(affiliatePayouts)
    .innerJoin(users, eq(users.id, affiliatePayouts.affiliateUserId))
    .where(ids ? inArray(affiliatePayouts.id, ids) : undefined)
    .orderBy(desc(affiliatePayouts.createdAt), desc(affiliatePayouts.id))
    .limit(500);
  return rows.map(({ payout, name, email }) => ({
    id: payout.id,
    affiliateUserId: payout.affiliateUserId,
    name,
    email,
    amount: payout.amount,
    currency: payout.currency,
    count: payout.commissionCount,
    reference: payout.reference,
    method: payout.method,
    transferId: payout.transferId,
    paidBy: payout.paidBy,
    createdAt: payout.createdAt.toISOString(),
  }));
};

/** The newest payouts (500 at most). */
export const listPayouts = (db: Db) => payoutsWhere(db);
