import { index, integer, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
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

/** The commission ledger: one row per paid invoice of a referred agency. */
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
    invoiceId: text('invoice_id').notNull().unique(),
    invoiceAmount: integer('invoice_amount').notNull(),
    amount: integer('amount').notNull(),
    rate: real('rate').notNull(),
    payableAt: timestamp('payable_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('commissions_affiliate_idx').on(table.affiliateUserId, table.createdAt)],
);
