import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts, subaccounts } from '../tenancy/schema';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** The agency's own Stripe account for its clients' plans: the key and webhook secret, encrypted. */
export const clientBillingSettings = pgTable('client_billing_settings', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  encryptedSecretKey: text('encrypted_secret_key').notNull(),
  keyLast4: text('key_last4').notNull(),
  keyMode: text('key_mode', { enum: ['test', 'live'] }).notNull(),
  keyKind: text('key_kind', { enum: ['secret', 'restricted'] }).notNull(),
  encryptedWebhookSecret: text('encrypted_webhook_secret'),
  connectedAt: at('connected_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** A plan an agency sells to its clients; archived (kept for its subscribers) instead of deleted. */
export const clientPlans = pgTable(
  'client_plans',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priceMinor: integer('price_minor').notNull(),
    currency: text('currency').notNull().default('usd'),
    includedCredits: integer('included_credits').notNull(),
    extraCreditPriceMinor: numeric('extra_credit_price_minor', { precision: 14, scale: 4, mode: 'number' }),
    /** The recurring price on the agency's Stripe, made when first needed (cleared when the price or key changes). */
    stripePriceId: text('stripe_price_id'),
    archivedAt: at('archived_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [index('client_plans_account_idx').on(table.accountId)],
);

/** A client's subscription to one of its agency's plans (one per sub-account), mirrored from the provider. */
export const clientSubscriptions = pgTable(
  'client_subscriptions',
  {
    subaccountId: text('subaccount_id')
      .primaryKey()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    customerId: text('customer_id'),
    subscriptionId: text('subscription_id'),
    planId: text('plan_id').references(() => clientPlans.id),
    status: text('status').notNull().default('none'),
    currentPeriodStart: at('current_period_start'),
    currentPeriodEnd: at('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Created time of the newest subscription event applied: an older one never overwrites it. */
    syncedAt: at('synced_at'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('client_subscriptions_account_idx').on(table.accountId),
    uniqueIndex('client_subscriptions_subscription_idx').on(table.subscriptionId),
  ],
);

/** Invoices the agency's clients paid (subscription periods, extra credits). */
export const clientInvoices = pgTable(
  'client_invoices',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    providerInvoiceId: text('provider_invoice_id').notNull(),
    kind: text('kind', { enum: ['subscription', 'overage', 'topup'] }).notNull(),
    planId: text('plan_id'),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    periodStart: at('period_start'),
    periodEnd: at('period_end'),
    paidAt: at('paid_at'),
    url: text('url'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('client_invoices_provider_idx').on(table.accountId, table.providerInvoiceId),
    index('client_invoices_subaccount_idx').on(table.subaccountId, table.createdAt),
    index('client_invoices_account_paid_idx').on(table.accountId, table.paidAt),
  ],
);

/** Webhook events of an agency's Stripe already handled: a repeat acts once. */
export const clientBillingEvents = pgTable(
  'client_billing_events',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: at('received_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.eventId] })],
);

/**
 * A client's open checkout per purpose: the claim that makes concurrent requests share one
 * session (as billing_open_checkouts does for agencies).
 */
export const clientOpenCheckouts = pgTable(
  'client_open_checkouts',
  {
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['plan'] }).notNull(),
    requestKey: text('request_key').notNull(),
    claimToken: text('claim_token').notNull(),
    sessionId: text('session_id'),
    url: text('url'),
    claimedAt: at('claimed_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.subaccountId, table.purpose] })],
);

/** Checkouts of the labelled sandbox (an agency without Stripe, outside production). */
export const clientSandboxCheckouts = pgTable('client_sandbox_checkouts', {
  id: text('id').primaryKey(),
  accountId: text('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  subaccountId: text('subaccount_id')
    .notNull()
    .references(() => subaccounts.id, { onDelete: 'cascade' }),
  planId: text('plan_id')
    .notNull()
    .references(() => clientPlans.id),
  status: text('status', { enum: ['open', 'complete', 'expired'] })
    .notNull()
    .default('open'),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** Extra credits of a month already billed to a client (once per sub-account and month). */
export const clientOverageCharges = pgTable(
  'client_overage_charges',
  {
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    credits: numeric('credits', { precision: 20, scale: 6, mode: 'number' }).notNull(),
    amountMinor: integer('amount_minor').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.subaccountId, table.month] })],
);

/**
 * A client's low-balance alerts (percents of its month's credits left, each mailed once a month)
 * and optional automatic top-up (extra credits bought with its saved card, at most hourly).
 */
export const clientBalanceSettings = pgTable('client_balance_settings', {
  subaccountId: text('subaccount_id')
    .primaryKey()
    .references(() => subaccounts.id, { onDelete: 'cascade' }),
  accountId: text('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  thresholds: jsonb('thresholds').$type<number[]>().notNull().default([]),
  /** The month the lowest mailed threshold belongs to; a new month mails again. */
  alertedMonth: text('alerted_month'),
  alertedPercent: integer('alerted_percent'),
  topUpEnabled: boolean('top_up_enabled').notNull().default(false),
  topUpCredits: integer('top_up_credits'),
  /** Buy when fewer credits than this are left this month. */
  topUpBelowCredits: integer('top_up_below_credits'),
  topUpLastAt: at('top_up_last_at'),
  topUpLastResult: text('top_up_last_result'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
