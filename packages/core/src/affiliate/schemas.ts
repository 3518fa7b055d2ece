import { z } from 'zod';

/** A referral code as links carry it (`/?ref=CODE`). */
export const ZReferralCode = z
  .string()
  .trim()
  .regex(/^[\w-]{1,64}$/, 'Not a referral code');

export const ZAttributeReferralRequest = z.object({ code: ZReferralCode });
export const ZAttributeReferralResponse = z.object({ attributed: z.boolean() });

export const ZCommission = z.object({
  id: z.string(),
  invoiceId: z.string(),
  /** earned on a paid invoice; reversal (negative) after a refund or dispute; restore after a dispute won. */
  kind: z.enum(['earned', 'reversal', 'restore']).optional(),
  /** Amounts in cents. */
  invoiceAmount: z.number().int(),
  amount: z.number().int(),
  rate: z.number(),
  status: z.enum(['pending', 'payable', 'paid']),
  payableAt: z.string(),
  createdAt: z.string(),
});
export type TCommission = z.infer<typeof ZCommission>;

export const ZAffiliateSummary = z.object({
  code: z.string(),
  link: z.string(),
  rate: z.number(),
  holdDays: z.number().int(),
  signups: z.number().int(),
  paidReferrals: z.number().int(),
  /** Cents: earned but still in the hold period; payable now; already paid out. */
  pending: z.number().int(),
  payable: z.number().int(),
  paid: z.number().int(),
  commissions: z.array(ZCommission),
});
export type TAffiliateSummary = z.infer<typeof ZAffiliateSummary>;
