import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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

const credits = (name: string) => numeric(name, { precision: 20, scale: 6, mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The billing state of an agency account: its payment-provider customer and subscription, mirrored
 * from the provider. The row is also the per-account lock every credit movement takes.
 */
export const billingAccounts = pgTable('billing_accounts', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  customerId: text('customer_id'),
  subscriptionId: text('subscription_id'),
  status: text('status').notNull().default('none'),
  priceId: text('price_id'),
  planCode: text('plan_code').notNull().default('free'),
  tierCode: text('tier_code').notNull().default('free'),
  creditLimit: credits('credit_limit').notNull().default(0),
  amountCents: integer('amount_cents').notNull().default(0),
  currentPeriodStart: at('current_period_start'),
  currentPeriodEnd: at('current_period_end'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  scheduledPriceId: text('scheduled_price_id'),
  scheduledChangeDate: at('scheduled_change_date'),
  /** Created time of the newest provider event applied, so an older event never overwrites a newer state. */
  syncedAt: at('synced_at'),
  /** Sub-accounts were locked by a plan change and the owner has not chosen which stays active yet. */
  subaccountChoicePending: boolean('subaccount_choice_pending').notNull().default(false),
  /** Percents of the period's credits at which the owner is emailed; the lowest one already mailed this period. */
  lowBalanceThresholds: jsonb('low_balance_thresholds').$type<number[]>().notNull().default([]),
  lowBalanceAlertedAt: credits('low_balance_alerted_at'),
  /** The billing period the mailed threshold belongs to (a new period mails again). */
  lowBalanceAlertPeriod: text('low_balance_alert_period'),
  /** Auto-recharge: below threshold credits, buy the pack with the saved payment method (at most hourly). */
  autoRechargeEnabled: boolean('auto_recharge_enabled').notNull().default(false),
  autoRechargeThreshold: credits('auto_recharge_threshold'),
  autoRechargePriceId: text('auto_recharge_price_id'),
  autoRechargeLastAt: at('auto_recharge_last_at'),
  autoRechargeLastResult: text('auto_recharge_last_result'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * Credits reserved by model calls in flight: a call holds its estimated cost before it starts and
 * the hold is removed when the call is metered (or fails). Spendable = grants - holds, so concurrent
 * calls cannot spend more than the balance plus one call's estimate. A hold a crashed process left
 * behind stops counting at expires_at.
 */
export const creditHolds = pgTable(
  'credit_holds',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id'),
    amount: credits('amount').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('credit_holds_account_idx').on(table.accountId, table.expiresAt),
    index('credit_holds_subaccount_idx').on(table.subaccountId),
  ],
);

/** An agency's optional monthly credit allowance for one of its clients (sub-accounts). */
export const subaccountAllowances = pgTable('subaccount_allowances', {
  subaccountId: text('subaccount_id')
    .primaryKey()
    .references(() => subaccounts.id, { onDelete: 'cascade' }),
  accountId: text('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  monthlyCredits: credits('monthly_credits').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Credits a sub-account used per calendar month (UTC), kept by metering for the allowance check. */
export const subaccountMonthlyUsage = pgTable(
  'subaccount_monthly_usage',
  {
    subaccountId: text('subaccount_id')
      .notNull()
      .references(() => subaccounts.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    credits: credits('credits').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.subaccountId, table.month] })],
);

/** A pot of credits: plan grant for a period, bonus or promo grant, or a correction. */
export const creditGrants = pgTable(
  'credit_grants',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['plan', 'bonus', 'promo', 'correction'] }).notNull(),
    amount: credits('amount').notNull(),
    remaining: credits('remaining').notNull(),
    sourceKey: text('source_key').notNull(),
    /** Start of the billing period a plan grant belongs to (null for the free plan and other grants). */
    startsAt: at('starts_at'),
    expiresAt: at('expires_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('credit_grants_account_source_idx').on(table.accountId, table.sourceKey),
    check('credit_grants_remaining_not_negative', sql`${table.remaining} >= 0`),
    check('credit_grants_remaining_within_amount', sql`${table.remaining} <= ${table.amount}`),
  ],
);

/** The append-only ledger: the balance of an account is the sum of its entries. */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['plan_grant', 'bonus_grant', 'promo_grant', 'usage_debit', 'expiry', 'correction'],
    }).notNull(),
    amount: credits('amount').notNull(),
    grantId: text('grant_id').references(() => creditGrants.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    description: text('description'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('credit_entries_account_key_idx').on(table.accountId, table.idempotencyKey),
    index('credit_entries_account_created_idx').on(table.accountId, table.createdAt),
  ],
);

/** Which grants a debit drew from, and how much from each. */
export const creditAllocations = pgTable(
  'credit_allocations',
  {
    entryId: text('entry_id')
      .notNull()
      .references(() => creditEntries.id, { onDelete: 'cascade' }),
    grantId: text('grant_id')
      .notNull()
      .references(() => creditGrants.id, { onDelete: 'cascade' }),
    amount: credits('amount').notNull(),
  },
  (table) => [primaryKey({ columns: [table.entryId, table.grantId] })],
);

/** One metered model call: when, which model, tokens and its cost in credits. */
export const usageLogs = pgTable(
  'usage_logs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    subaccountId: text('subaccount_id').references(() => subaccounts.id, { onDelete: 'set null' }),
    model: text('model').notNull().default('unknown'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    credits: credits('credits').notNull().default(0),
    charged: credits('charged').notNull().default(0),
    source: text('source').notNull(),
    /** The agent and channel of the call, when it answered on one (for the usage breakdown). */
    agentId: text('agent_id'),
    channel: text('channel'),
    /** 'platform': charged at the platform's model prices; 'own_key': the agency's provider key, a platform fee. */
    billingBasis: text('billing_basis', { enum: ['platform', 'own_key'] })
      .notNull()
      .default('platform'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('usage_logs_account_key_idx').on(table.accountId, table.idempotencyKey),
    index('usage_logs_account_created_idx').on(table.accountId, table.createdAt),
  ],
);

/** Payment-provider webhook events already handled (the event id is unique). */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  accountId: text('account_id'),
  receivedAt: at('received_at').notNull().defaultNow(),
});

/**
 * The account's open checkout per purpose ('plan' or 'pack'): the claim that makes concurrent
 * requests share one provider session. A row without a session is being created by the request
 * that inserted it (claim_token); a row whose session is no longer open is deleted and claimed anew.
 */
export const openCheckouts = pgTable(
  'billing_open_checkouts',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['plan', 'pack'] }).notNull(),
    /** What the session sells (price and coupon): a request for something else replaces it. */
    requestKey: text('request_key').notNull(),
    claimToken: text('claim_token').notNull(),
    sessionId: text('session_id'),
    url: text('url'),
    claimedAt: at('claimed_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.purpose] })],
);

/** State of the built-in sandbox payment provider: customers, checkout sessions, subscriptions, invoices. */
export const sandboxObjects = pgTable(
  'billing_sandbox_objects',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['customer', 'checkout', 'subscription', 'invoice'] }).notNull(),
    accountId: text('account_id'),
    data: jsonb('data').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [index('billing_sandbox_objects_kind_account_idx').on(table.kind, table.accountId)],
);
