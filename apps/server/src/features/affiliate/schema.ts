import { index, integer, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, users } from '../tenancy/schema';

/** A user's referral code. */
export const affiliates = pgTable('affiliates', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  code: text('code').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An agency that signed up through an affiliate's link; one referrer per agency. */
export const referrals = pgTable(
  'referrals',
  {
    id: text('id').primaryKey(),
    affiliateUserId: text('affiliate_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    referredAccountId: text('referred_account_id')
      .notNull()
      .unique()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('referrals_affiliate_idx').on(table.affiliateUserId)],
);

/**
 * An operator's payout of an affiliate's payable commissions: manual (paid outside, with the
 * operator's reference) or a Stripe Connect transfer where one is configured.
 */
export const affiliatePayouts = pgTable(
  'affiliate_payouts',
  {
    id: text('id').primaryKey(),
    affiliateUserId: text('affiliate_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Minor units, the sum of the commissions it paid. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    commissionCount: integer('commission_count').notNull(),
    reference: text('reference').notNull(),
    method: text('method', { enum: ['manual', 'stripe_connect'] })
      .notNull()
      .default('manual'),
    transferId: text('transfer_id'),
    paidBy: text('paid_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('affiliate_payouts_affiliate_idx').on(table.affiliateUserId, table.createdAt)],
);

/**
 * The commission ledger: one `earned` row per paid invoice of a referred agency, and one
 * adjustment row per provider event that refunds, disputes or restores it (`adjustKey`, the event's
 * id; negative amounts take back, positive ones give back). A payout marks the rows it paid.
 */
export const commissions = pgTable(
  'commissions',
  {
    id: text('id').primaryKey(),
    affiliateUserId: text('affiliate_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    referralId: text('referral_id')
      .notNull()
      .references(() => referrals.id, { onDelete: 'cascade' }),
    invoiceId: text('invoice_id').notNull(),
    kind: text('kind', { enum: ['earned', 'reversal', 'restore'] })
      .notNull()
      .default('earned'),
    /** '' for the earned row; the provider event's id for an adjustment. */
    adjustKey: text('adjust_key').notNull().default(''),
    invoiceAmount: integer('invoice_amount').notNull(),
    amount: integer('amount').notNull(),
    rate: real('rate').notNull(),
    payableAt: timestamp('payable_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    payoutId: text('payout_id').references(() => affiliatePayouts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('commissions_affiliate_idx').on(table.affiliateUserId, table.createdAt),
    uniqueIndex('commissions_invoice_adjust_idx').on(table.invoiceId, table.adjustKey),
  ],
);
