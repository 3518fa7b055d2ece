import { z } from 'zod';
import { ZCapabilities } from './capabilities';
import { MISSING_PRICE_ID } from './plan-change';

/** Request payloads of the billing calls (spec billing-accounts 7). */
const priceId = z.string({ error: MISSING_PRICE_ID }).trim().min(1, MISSING_PRICE_ID);
const optionalText = z.string().trim().max(500).optional().nullable();

export const ZCheckoutRequest = z.object({
  priceId,
  successUrl: optionalText,
  cancelUrl: optionalText,
  mode: z.enum(['subscription', 'payment']).default('subscription'),
  email: optionalText,
  couponId: optionalText,
  referralId: optionalText,
  promoCode: optionalText,
  /**
   * A promo code remembered from a link (`/?promo=CODE`) rather than chosen on this page: applied
   * only where it applies, otherwise the purchase goes on at full price without it.
   */
  rememberedPromoCode: optionalText,
});
export type TCheckoutRequest = z.infer<typeof ZCheckoutRequest>;

export const ZUpgradeRequest = z.object({ newPriceId: priceId, renewCycle: z.boolean().optional() });
export type TUpgradeRequest = z.infer<typeof ZUpgradeRequest>;

export const ZScheduleDowngradeRequest = z.object({ newPriceId: priceId });
export type TScheduleDowngradeRequest = z.infer<typeof ZScheduleDowngradeRequest>;

export const ZPortalRequest = z.object({ returnUrl: optionalText });
export const ZCancelSubscriptionRequest = z.object({ cancelAtPeriodEnd: z.boolean().default(true) });

/** PUT /api/billing/allowances/{subaccountId}: a client's monthly credits, or null for no limit. */
export const ZSetAllowanceRequest = z.object({
  monthlyCredits: z
    .number({ error: 'Enter a number of credits' })
    .min(0, 'Enter 0 or more credits')
    .max(100_000_000, 'Enter at most 100,000,000 credits')
    .nullable(),
});
export type TSetAllowanceRequest = z.infer<typeof ZSetAllowanceRequest>;

export const PROMO_CODE_REQUIRED = 'Promo code is required';
export const ZRedeemRequest = z.object({
  code: z.string({ error: PROMO_CODE_REQUIRED }).trim().min(1, PROMO_CODE_REQUIRED).max(64),
});
export type TRedeemRequest = z.infer<typeof ZRedeemRequest>;

export const ZSelectSubaccountRequest = z.object({ subaccountId: z.string().min(1, 'Please select a subaccount') });

/** The usage response of spec billing-accounts 3. */
export const ZUsageBalance = z.object({
  planCode: z.string(),
  tierCode: z.string(),
  configuredLimit: z.number(),
  effectiveLimit: z.number(),
  planCreditLimit: z.number(),
  totalCreditLimit: z.number(),
  usageUsed: z.number(),
  creditsRemaining: z.number(),
  planCreditsRemaining: z.number(),
  bonusCreditsGranted: z.number(),
  bonusCreditsTotal: z.number(),
  bonusCreditsRemaining: z.number(),
  totalCreditsRemaining: z.number(),
  scheduledPriceId: z.string().nullable(),
  scheduledChangeDate: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type TUsageBalance = z.infer<typeof ZUsageBalance>;

export const ZUsageLog = z.object({
  id: z.string(),
  timestamp: z.string(),
  model: z.string(),
  cost: z.number(),
  usage_total: z.number(),
  source: z.string(),
});
export type TUsageLog = z.infer<typeof ZUsageLog>;

export const ZUsageResponse = z.object({
  hasKey: z.boolean(),
  error: z.string().nullable(),
  /** The account's credits and plan: null for a caller who does not manage the agency's billing. */
  balance: ZUsageBalance.nullable(),
  /** What the plan allows (the screens' gates), for everyone in the account. */
  capabilities: ZCapabilities,
  /** The calls of the sub-accounts the caller may see (all of them for the account's manager). */
  usageLogs: z.array(ZUsageLog),
});
export type TUsageResponse = z.infer<typeof ZUsageResponse>;

/** Proration preview (minor units). */
export interface TProrationPreview {
  creditAmount: number;
  chargeAmount: number;
  totalDueNow: number;
  daysRemaining: number;
  nextBillingDate: string | null;
  currency: string;
  billingCycleReset: boolean;
  prorationDate: number;
  currentPlan: { displayName: string; creditLimit: number };
  targetPlan: { displayName: string; creditLimit: number };
}

/** The derived numbers of the usage screen (spec 3, Derived numbers). */
export const usageNumbers = (balance: Partial<TUsageBalance> | null | undefined) => {
  const total = balance?.totalCreditLimit ?? balance?.effectiveLimit ?? 0;
  const used = balance?.usageUsed ?? 0;
  const remaining = balance?.totalCreditsRemaining ?? Math.max(0, total - used);
  const planRemaining = balance?.planCreditsRemaining ?? 0;
  return {
    usedPercent: total > 0 ? Math.min(100, (used / total) * 100) : 0,
    remaining,
    planRemaining,
    bonusRemaining: Math.max(0, remaining - planRemaining),
  };
};

/** GET /api/usage/breakdown: usage aggregated on the server, for rebilling clients. */
export const USAGE_GROUPS = ['day', 'subaccount', 'agent', 'channel', 'model'] as const;
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date such as 2026-01-31');
export const ZUsageBreakdownQuery = z
  .object({
    from: isoDay.optional(),
    to: isoDay.optional(),
    groupBy: z.enum(USAGE_GROUPS).default('day'),
  })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    message: 'The start date must not be after the end date',
    path: ['from'],
  });
export type TUsageBreakdownQuery = z.infer<typeof ZUsageBreakdownQuery>;
export interface TUsageBreakdownRow {
  key: string | null;
  label: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  credits: number;
  charged: number;
}

/** PUT /api/billing/low-balance-alerts: percents of the period's credits at which the owner is mailed. */
export const ZLowBalanceAlertsRequest = z.object({
  thresholds: z
    .array(
      z
        .number({ error: 'Enter a percentage' })
        .int('Use whole percentages')
        .min(1, 'Use a percentage from 1 to 99')
        .max(99, 'Use a percentage from 1 to 99'),
    )
    .max(5, 'Set at most 5 thresholds')
    .refine((list) => new Set(list).size === list.length, 'Each threshold once'),
});
export type TLowBalanceAlertsRequest = z.infer<typeof ZLowBalanceAlertsRequest>;

/** PUT /api/billing/auto-recharge: buy a pack with the saved payment method when the balance is low. */
export const ZAutoRechargeRequest = z
  .object({
    enabled: z.boolean(),
    thresholdCredits: z
      .number({ error: 'Enter a number of credits' })
      .int('Use a whole number of credits')
      .min(1, 'Enter at least 1 credit')
      .max(10_000_000, 'Enter at most 10,000,000 credits')
      .nullable()
      .default(null),
    packPriceId: z.string().max(64).nullable().default(null),
  })
  .refine((value) => !value.enabled || value.thresholdCredits !== null, {
    message: 'Enter the balance that starts a recharge',
    path: ['thresholdCredits'],
  })
  .refine((value) => !value.enabled || value.packPriceId !== null, {
    message: 'Choose a credit pack',
    path: ['packPriceId'],
  });
export type TAutoRechargeRequest = z.infer<typeof ZAutoRechargeRequest>;

export interface TBillingInvoice {
  id: string;
  number: string | null;
  /** Minor units. */
  amount: number;
  currency: string;
  status: string;
  createdAt: string;
  description: string;
  hostedUrl: string | null;
  pdfUrl: string | null;
}

/** GET /api/billing/overview: the Billing section of /settings. */
export interface TBillingOverview {
  provider: 'stripe' | 'sandbox' | 'none';
  plan: {
    displayName: string;
    planCode: string;
    /** The provider's status of a paid plan, 'complimentary' for a plan given without payment, or 'free'. */
    status: string;
    priceId: string | null;
    /** Minor units per period. */
    amount: number;
    interval: 'month' | 'year' | null;
  };
  renewalDate: string | null;
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  paymentMethod: { brand: string; last4: string; expMonth: number | null; expYear: number | null } | null;
  invoices: TBillingInvoice[];
  invoicesError: string | null;
  balance: number;
  periodCredits: number;
  lowBalanceAlerts: { thresholds: number[] };
  autoRecharge: {
    enabled: boolean;
    thresholdCredits: number | null;
    packPriceId: string | null;
    lastAt: string | null;
    lastResult: string | null;
  };
  creditPacks: { priceId: string | null; credits: number; price: number; pricePerCredit: number; label: string }[];
}
