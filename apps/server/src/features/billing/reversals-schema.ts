import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../tenancy/schema';

const credits = (name: string) => numeric(name, { precision: 20, scale: 6, mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Credits a refund or a dispute took back that the balance could not cover: the account owes them,
 * and every new grant pays them first (ledger-repo.ts), so it spends only what it really paid for.
 */
export const creditDebts = pgTable(
  'credit_debts',
  {
    accountId: text('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    credits: credits('credits').notNull().default(0),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [check('credit_debts_not_negative', sql`${table.credits} >= 0`)],
);

/**
 * One refund (per charge) or one dispute of a payment, and what it took back. Every provider event
 * about it brings it to the provider's current state (cumulative refunded amount, dispute status), so
 * repeated, late or reordered events end in the same credits and commissions.
 */
export const paymentReversals = pgTable(
  'payment_reversals',
  {
    id: text('id').primaryKey(),
    /** `refund:{chargeId}` or `dispute:{disputeId}`. */
    key: text('key').notNull().unique(),
    kind: text('kind', { enum: ['refund', 'dispute'] }).notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The paid invoice (its commission is keyed by it) and the checkout of a one-time purchase. */
    invoiceId: text('invoice_id'),
    checkoutId: text('checkout_id'),
    /** Minor units: what the payment took, and what is reversed now (refunded, or disputed and not won). */
    amountPaid: integer('amount_paid').notNull(),
    amountReversed: integer('amount_reversed').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    /** refunded, partially_refunded; a dispute: open, won, lost. */
    status: text('status').notNull(),
    /** Credits taken from the balance, and credits the balance could not cover (added to the debt). */
    creditsTaken: credits('credits_taken').notNull().default(0),
    creditsOwed: credits('credits_owed').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('payment_reversals_invoice_idx').on(table.invoiceId),
    index('payment_reversals_checkout_idx').on(table.checkoutId),
  ],
);
