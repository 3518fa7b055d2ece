import { z } from 'zod';

/**
 * Client plans (SaaS mode): an agency sells its own monthly plans to its clients (sub-accounts),
 * charged on the agency's own Stripe account. Amounts are in minor units (cents) of the plan's
 * currency.
 */

/** A Stripe secret (`sk_`) or restricted (`rk_`) key, test or live. */
export const STRIPE_KEY_PATTERN = /^(sk|rk)_(test|live)_[A-Za-z0-9]{10,250}$/;
export const STRIPE_KEY_MESSAGE = 'Paste a Stripe secret key (sk_live_… or sk_test_…) or a restricted key (rk_…)';
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=]{10,250}$/;
export const WEBHOOK_SECRET_MESSAGE = 'Paste the signing secret of the webhook endpoint (whsec_…)';

/** The largest monthly price (minor units), included credits and price per extra credit accepted. */
export const CLIENT_PLAN_LIMITS = {
  maxPriceMinor: 10_000_000,
  maxIncludedCredits: 100_000_000,
  maxExtraCreditPriceMinor: 100_000,
  maxPlansPerAccount: 50,
} as const;

export const CLIENT_PLAN_CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud', 'chf', 'sek', 'nok', 'dkk', 'nzd'] as const;

export const ZStripeSecretKey = z.string().trim().regex(STRIPE_KEY_PATTERN, STRIPE_KEY_MESSAGE);
export const ZWebhookSigningSecret = z.string().trim().regex(WEBHOOK_SECRET_PATTERN, WEBHOOK_SECRET_MESSAGE);

export const ZPutClientBillingStripeRequest = z.object({
  secretKey: ZStripeSecretKey,
  webhookSecret: ZWebhookSigningSecret.optional(),
});
export type TPutClientBillingStripeRequest = z.infer<typeof ZPutClientBillingStripeRequest>;

export const ZPutClientBillingWebhookSecretRequest = z.object({ webhookSecret: ZWebhookSigningSecret });
export type TPutClientBillingWebhookSecretRequest = z.infer<typeof ZPutClientBillingWebhookSecretRequest>;

export const ZClientBillingStripe = z.object({
  /** The last four characters of the key; the key itself is never sent back. */
  last4: z.string(),
  mode: z.enum(['test', 'live']),
  kind: z.enum(['secret', 'restricted']),
  webhookSecretSet: z.boolean(),
  connectedAt: z.string(),
});
export type TClientBillingStripe = z.infer<typeof ZClientBillingStripe>;

export const ZClientBillingStatus = z.object({
  /** The agency's platform plan includes white-label sub-accounts (client plans are part of it). */
  included: z.boolean(),
  stripe: ZClientBillingStripe.nullable(),
  /** Where the agency points its Stripe webhook endpoint. */
  webhookUrl: z.string(),
  /** Without a connected Stripe, clients check out in the labelled sandbox (never in production). */
  sandbox: z.boolean(),
  /** Neither Stripe nor the sandbox: clients cannot subscribe yet. */
  paymentsAvailable: z.boolean(),
});
export type TClientBillingStatus = z.infer<typeof ZClientBillingStatus>;

const ZPriceMinor = z
  .number()
  .int('Enter the price in cents (a whole number)')
  .positive('The price must be more than 0')
  .max(CLIENT_PLAN_LIMITS.maxPriceMinor, 'The price is too high');
const ZIncludedCredits = z
  .number()
  .int('Included credits are a whole number')
  .positive('Include at least 1 credit')
  .max(CLIENT_PLAN_LIMITS.maxIncludedCredits, 'Too many included credits');
const ZExtraCreditPriceMinor = z
  .number()
  .positive('The price per extra credit must be more than 0')
  .max(CLIENT_PLAN_LIMITS.maxExtraCreditPriceMinor, 'The price per extra credit is too high')
  .refine((value) => Math.round(value * 10_000) === value * 10_000, 'Use at most 4 decimals')
  .nullable();

export const ZClientPlanName = z.string().trim().min(1, 'Enter a name').max(80, 'Use at most 80 characters');

export const ZCreateClientPlanRequest = z.object({
  name: ZClientPlanName,
  priceMinor: ZPriceMinor,
  currency: z.enum(CLIENT_PLAN_CURRENCIES).default('usd'),
  includedCredits: ZIncludedCredits,
  /** Minor units per credit beyond the included ones; null: the client stops at its included credits. */
  extraCreditPriceMinor: ZExtraCreditPriceMinor.default(null),
});
export type TCreateClientPlanRequest = z.input<typeof ZCreateClientPlanRequest>;

export const ZUpdateClientPlanRequest = z
  .object({
    name: ZClientPlanName,
    priceMinor: ZPriceMinor,
    includedCredits: ZIncludedCredits,
    extraCreditPriceMinor: ZExtraCreditPriceMinor,
  })
  .partial();
export type TUpdateClientPlanRequest = z.infer<typeof ZUpdateClientPlanRequest>;

export const ZClientPlan = z.object({
  id: z.string(),
  name: z.string(),
  priceMinor: z.number(),
  currency: z.string(),
  includedCredits: z.number(),
  extraCreditPriceMinor: z.number().nullable(),
  archived: z.boolean(),
  subscribers: z.number(),
  createdAt: z.string(),
});
export type TClientPlan = z.infer<typeof ZClientPlan>;

export const ZClientPlanList = z.object({ plans: z.array(ZClientPlan) });
export type TClientPlanList = z.infer<typeof ZClientPlanList>;

export const ZDeleteClientPlanResponse = z.object({ outcome: z.enum(['deleted', 'archived']) });

export const ZClientCheckoutRequest = z.object({ planId: z.string().min(1).max(64) });
export type TClientCheckoutRequest = z.infer<typeof ZClientCheckoutRequest>;

export const ZClientCheckoutResponse = z.object({
  /** The checkout to open (absent when an existing subscription was moved to the plan). */
  url: z.string().nullable(),
  sandbox: z.boolean(),
  /** 'checkout': pay at url; 'changed': the live subscription now has the new plan. */
  outcome: z.enum(['checkout', 'changed']),
});
export type TClientCheckoutResponse = z.infer<typeof ZClientCheckoutResponse>;

export const ZClientInvoice = z.object({
  id: z.string(),
  kind: z.enum(['subscription', 'overage', 'topup']),
  amountMinor: z.number(),
  currency: z.string(),
  status: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  paidAt: z.string().nullable(),
  url: z.string().nullable(),
  sandbox: z.boolean(),
});
export type TClientInvoice = z.infer<typeof ZClientInvoice>;

/** Low-balance alerts and automatic top-up of one client. */
export const CLIENT_TOP_UP_LIMITS = { minCredits: 10, maxCredits: 1_000_000, maxThresholds: 5 } as const;

export const ZClientBalanceSettingsRequest = z
  .object({
    /** Percents of the month's credits left at which the client's admins are mailed (1–99, at most 5). */
    thresholds: z
      .array(z.number().int().min(1, 'Use 1 to 99 percent').max(99, 'Use 1 to 99 percent'))
      .max(CLIENT_TOP_UP_LIMITS.maxThresholds, `At most ${CLIENT_TOP_UP_LIMITS.maxThresholds} alerts`)
      .refine((values) => new Set(values).size === values.length, 'Each percent once'),
    topUpEnabled: z.boolean(),
    topUpCredits: z
      .number()
      .int('Credits are a whole number')
      .min(CLIENT_TOP_UP_LIMITS.minCredits, `Buy at least ${CLIENT_TOP_UP_LIMITS.minCredits} credits`)
      .max(CLIENT_TOP_UP_LIMITS.maxCredits, 'Too many credits at once')
      .nullable(),
    topUpBelowCredits: z.number().int().min(0).max(CLIENT_TOP_UP_LIMITS.maxCredits).nullable(),
  })
  .refine((value) => !value.topUpEnabled || (value.topUpCredits !== null && value.topUpBelowCredits !== null), {
    message: 'Say how many credits to buy and below how many',
    path: ['topUpCredits'],
  });
export type TClientBalanceSettingsRequest = z.infer<typeof ZClientBalanceSettingsRequest>;

export const ZClientBalanceSettings = z.object({
  thresholds: z.array(z.number()),
  topUpEnabled: z.boolean(),
  topUpCredits: z.number().nullable(),
  topUpBelowCredits: z.number().nullable(),
  /** What a top-up costs at the plan's own rate (null without a plan that caps credits). */
  topUpPriceMinor: z.number().nullable(),
  currency: z.string().nullable(),
  topUpLastResult: z.string().nullable(),
});
export type TClientBalanceSettings = z.infer<typeof ZClientBalanceSettings>;

export const ZClientSubscriptionStatus = z.enum(['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete']);

export const ZClientPlanView = z.object({
  subaccountId: z.string(),
  subscription: z
    .object({
      plan: ZClientPlan,
      status: z.string(),
      currentPeriodStart: z.string().nullable(),
      currentPeriodEnd: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      sandbox: z.boolean(),
    })
    .nullable(),
  usage: z.object({ month: z.string(), used: z.number(), included: z.number().nullable() }),
  invoices: z.array(ZClientInvoice),
  plans: z.array(ZClientPlan),
  /** Checkout runs in the labelled sandbox (the agency connected no Stripe). */
  sandbox: z.boolean(),
  balance: ZClientBalanceSettings,
  /** The caller may choose and cancel plans (an admin of the client, or the agency's manager). */
  canManage: z.boolean(),
  paymentsAvailable: z.boolean(),
});
export type TClientPlanView = z.infer<typeof ZClientPlanView>;

export const ZClientMarginQuery = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use a month like 2026-11')
    .optional(),
});

export const ZClientMarginRow = z.object({
  subaccountId: z.string(),
  name: z.string(),
  planName: z.string().nullable(),
  currency: z.string(),
  revenueMinor: z.number(),
  creditsUsed: z.number(),
  /** Credits used × the agency's own price per credit on its platform plan, in US cents. */
  platformCostMinor: z.number(),
  /** Revenue less platform cost; null when the revenue is not in US dollars. */
  marginMinor: z.number().nullable(),
});
export type TClientMarginRow = z.infer<typeof ZClientMarginRow>;

export const ZClientMargin = z.object({
  month: z.string(),
  /** The agency's price per credit (US cents) the platform cost is reckoned with. */
  creditPriceMinor: z.number(),
  creditPriceSource: z.string(),
  rows: z.array(ZClientMarginRow),
  totals: z.object({ revenueMinor: z.number(), platformCostMinor: z.number(), marginMinor: z.number().nullable() }),
});
export type TClientMargin = z.infer<typeof ZClientMargin>;

/** A sandbox checkout as its page shows it. */
export const ZClientSandboxCheckout = z.object({
  id: z.string(),
  sandbox: z.literal(true),
  status: z.enum(['open', 'complete', 'expired']),
  planName: z.string(),
  priceMinor: z.number(),
  currency: z.string(),
  includedCredits: z.number(),
  subaccountId: z.string(),
});
export type TClientSandboxCheckout = z.infer<typeof ZClientSandboxCheckout>;
