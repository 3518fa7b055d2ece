import { randomBytes } from 'node:crypto';
import type { TAffiliateSummary, TCommission } from '@switchboard/core';
import { and, count, desc, eq, gte, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { type DomainEventPayload, defineReaction } from '../../platform/domain-events';
import type { Env } from '../../platform/env';
import { newId } from '../../platform/ids';
import { accounts } from '../tenancy/schema';
import { affiliates, commissions, referrals } from './schema';

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const newCode = () => Array.from(randomBytes(10), (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');

/** The caller's referral code, made on first use. */
export const codeFor = async (db: Db, userId: string): Promise<string> => {
  const found = await db.select({ code: affiliates.code }).from(affiliates).where(eq(affiliates.userId, userId));
  if (found[0]) return found[0].code;
  await db.insert(affiliates).values({ userId, code: newCode() }).onConflictDoNothing();
  const [row] = await db.select({ code: affiliates.code }).from(affiliates).where(eq(affiliates.userId, userId));
  return row?.code ?? '';
};

/**
 * Attributes the caller's own agency to the affiliate whose link they followed: only an agency
 * created within AFFILIATE_ATTRIBUTION_DAYS, never one's own link, and only once per agency.
 */
export const attribute = async (deps: Deps, userId: string, code: string): Promise<boolean> => {
  const [affiliate] = await deps.db.select().from(affiliates).where(eq(affiliates.code, code));
  if (!affiliate || affiliate.userId === userId) return false;
  const since = new Date(Date.now() - deps.env.AFFILIATE_ATTRIBUTION_DAYS * 86_400_000);
  const owned = await deps.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.ownerUserId, userId), gte(accounts.createdAt, since)));
  if (!owned.length) return false;
  const inserted = await deps.db
    .insert(referrals)
    .values(
      owned.map((account) => ({
        id: newId('referral'),
        affiliateUserId: affiliate.userId,
        referredAccountId: account.id,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: referrals.id });
  return inserted.length > 0;
};

/**
 * A paid invoice of a referred agency adds one commission, once per invoice. It runs in the
 * transaction that records the invoice (billing publishes `invoice.paid` there), so a commission
 * is kept exactly when its invoice is.
 */
export const recordReferralCommission = async (env: Env, tx: Db | Tx, paid: DomainEventPayload<'invoice.paid'>) => {
  if (paid.amountPaid <= 0) return;
  const [referral] = await tx.select().from(referrals).where(eq(referrals.referredAccountId, paid.accountId));
  if (!referral) return;
  await tx
    .insert(commissions)
    .values({
      id: newId('commission'),
      affiliateUserId: referral.affiliateUserId,
      referralId: referral.id,
      invoiceId: paid.invoiceId,
      invoiceAmount: paid.amountPaid,
      amount: Math.round(paid.amountPaid * env.AFFILIATE_COMMISSION_RATE),
      rate: env.AFFILIATE_COMMISSION_RATE,
      payableAt: new Date(Date.now() + env.AFFILIATE_HOLD_DAYS * 86_400_000),
    })
    .onConflictDoNothing();
};

export const commissionOnPaidInvoice = defineReaction({
  event: 'invoice.paid',
  name: 'affiliate.commission',
  runs: 'with-change',
  handle: (deps, paid, tx) => recordReferralCommission(deps.env, tx ?? deps.db, paid),
});

/**
 * A refunded or disputed invoice (or a dispute won) brings its commission to the share not
 * reversed: one adjustment row per provider event for the difference (negative: taken back,
 * positive: restored), payable with the commission, so a commission already paid out is netted in
 * the affiliate's next payout. Runs in billing's transaction, under the invoice's account lock.
 */
export const adjustCommissionForReversal = async (tx: Db | Tx, reversed: DomainEventPayload<'invoice.reversed'>) => {
  const [earned] = await tx
    .select()
    .from(commissions)
    .where(and(eq(commissions.invoiceId, reversed.invoiceId), eq(commissions.adjustKey, '')));
  if (!earned) return;
  const [adjusted] = await tx
    .select({ total: sql<string>`coalesce(sum(${commissions.amount}), 0)` })
    .from(commissions)
    .where(and(eq(commissions.invoiceId, reversed.invoiceId), ne(commissions.adjustKey, '')));
  const target = -Math.round(earned.amount * reversed.reversedFraction);
  const delta = target - Number(adjusted?.total ?? 0);
  if (delta === 0) return;
  await tx
    .insert(commissions)
    .values({
      id: newId('commission'),
      affiliateUserId: earned.affiliateUserId,
      referralId: earned.referralId,
      invoiceId: earned.invoiceId,
      kind: delta < 0 ? 'reversal' : 'restore',
      adjustKey: reversed.eventId,
      invoiceAmount: earned.invoiceAmount,
      amount: delta,
      rate: earned.rate,
      payableAt: earned.payableAt,
    })
    .onConflictDoNothing();
};

export const commissionOnReversedInvoice = defineReaction({
  event: 'invoice.reversed',
  name: 'affiliate.commission-reversal',
  runs: 'with-change',
  handle: (deps, reversed, tx) => adjustCommissionForReversal(tx ?? deps.db, reversed),
});

const statusOf = (row: typeof commissions.$inferSelect, now: Date): TCommission['status'] =>
  row.paidAt ? 'paid' : row.payableAt <= now ? 'payable' : 'pending';

const toCommission = (row: typeof commissions.$inferSelect, now: Date): TCommission => ({
  id: row.id,
  invoiceId: row.invoiceId,
  kind: row.kind,
  invoiceAmount: row.invoiceAmount,
  amount: row.amount,
  rate: row.rate,
  status: statusOf(row, now),
  payableAt: row.payableAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

export const allCommissions = async (db: Db, userId: string) =>
  db
    .select()
    .from(commissions)
    .where(eq(commissions.affiliateUserId, userId))
    .orderBy(desc(commissions.createdAt), desc(commissions.id));

export const summary = async (deps: Deps, userId: string, origin: string): Promise<TAffiliateSummary> => {
  const code = await codeFor(deps.db, userId);
  const [rows, signups, paidReferrals] = await Promise.all([
    allCommissions(deps.db, userId),
    deps.db.select({ n: count() }).from(referrals).where(eq(referrals.affiliateUserId, userId)),
    deps.db
      .selectDistinct({ referralId: commissions.referralId })
      .from(commissions)
      .where(and(eq(commissions.affiliateUserId, userId), isNotNull(commissions.invoiceId))),
  ]);
  const now = new Date();
  const ledger = rows.map((row) => toCommission(row, now));
  const total = (status: TCommission['status']) =>
    ledger.filter((item) => item.status === status).reduce((sum, item) => sum + item.amount, 0);
  return {
    code,
    link: `${origin}/?ref=${code}`,
    rate: deps.env.AFFILIATE_COMMISSION_RATE,
    holdDays: deps.env.AFFILIATE_HOLD_DAYS,
    signups: signups[0]?.n ?? 0,
    paidReferrals: paidReferrals.length,
    pending: total('pending'),
    payable: total('payable'),
    paid: total('paid'),
    commissions: ledger.slice(0, 100),
  };
};

const cents = (value: number) => (value / 100).toFixed(2);

/** The ledger as CSV (amounts in dollars). */
export const ledgerCsv = async (db: Db, userId: string): Promise<string> => {
  const now = new Date();
  const rows = (await allCommissions(db, userId)).map((row) => toCommission(row, now));
  const lines = rows.map((row) =>
    [
      row.createdAt,
      row.id,
      row.invoiceId,
      cents(row.invoiceAmount),
      row.rate,
      cents(row.amount),
      row.status,
      row.payableAt,
      row.kind,
    ].join(','),
  );
  return `date,commission,invoice,invoice_amount_usd,rate,commission_usd,status,payable_at,kind\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
};
