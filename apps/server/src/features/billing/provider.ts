/**
 * One payment-provider interface, two adapters: Stripe (stripe-provider.ts) and the built-in
 * sandbox (sandbox-provider.ts). Ids and prices here are the provider's own; the service maps
 * catalog price ids to provider price ids.
 */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** Our account id, kept in the provider's metadata. */
  accountId: string | null;
  status: string;
  priceId: string | null;
  amountCents: number;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  scheduleId: string | null;
  scheduledPriceId: string | null;
  scheduledChangeDate: Date | null;
}

export interface ProviderInvoice {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  accountId: string | null;
  status: string;
  amountPaid: number;
  billingReason: string | null;
  /** Price and period of the subscription line the invoice bills. */
  priceId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  paymentIntentStatus: string | null;
}

export interface ProviderCheckout {
  id: string;
  customerId: string | null;
  accountId: string | null;
  mode: 'subscription' | 'payment';
  status: string;
  paymentStatus: string;
  subscriptionId: string | null;
  priceId: string | null;
}

export interface CheckoutInput {
  accountId: string;
  customerId: string;
  priceId: string;
  mode: 'subscription' | 'payment';
  successUrl: string;
  cancelUrl: string;
  couponId?: string | null;
  promoCode?: string | null;
  referralId?: string | null;
}

export interface ChangeInput {
  subscription: ProviderSubscription;
  priceId: string;
  /** Unix seconds; the preview and the real change use the same value. */
  prorationDate: number;
  renewCycle: boolean;
}

export interface ProrationQuote {
  /** Minor units. */
  creditAmount: number;
  chargeAmount: number;
  totalDueNow: number;
  currency: string;
  nextBillingDate: Date | null;
}

export interface ChangeResult {
  subscription: ProviderSubscription;
  invoice: ProviderInvoice | null;
  /** The payment needs the customer's action (3-D Secure, bank verification). */
  requiresAction: boolean;
  paymentIntent: { id: string; status: string; clientSecret: string | null } | null;
}

/** A provider event reduced to what the handler needs; objects are always re-fetched. */
export interface ProviderEvent {
  id: string;
  type: string;
  created: number;
  objectId: string;
  objectType: string;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'sandbox';
  /** Idempotent per account: two concurrent first checkouts get the same customer. */
  createCustomer(input: { accountId: string; email: string | null; name: string }): Promise<string>;
  createCheckout(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /** Expires the account's open checkouts (before a new one opens); answers how many. */
  expireOpenCheckouts(input: { accountId: string; customerId: string }): Promise<number>;
  /** Cancels a subscription that duplicates the account's live one, at once, and refunds what it charged. */
  cancelDuplicate(subscription: ProviderSubscription): Promise<void>;
  createPortal(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  getCheckout(id: string): Promise<ProviderCheckout | null>;
  getSubscription(id: string): Promise<ProviderSubscription | null>;
  /** The customer's newest subscription that is not canceled, if any. */
  findLiveSubscription(customerId: string): Promise<ProviderSubscription | null>;
  getInvoice(id: string): Promise<ProviderInvoice | null>;
  previewChange(input: ChangeInput): Promise<ProrationQuote>;
  changePlan(input: ChangeInput): Promise<ChangeResult>;
  scheduleChange(input: { subscription: ProviderSubscription; priceId: string }): Promise<ProviderSubscription>;
  cancelScheduledChange(subscription: ProviderSubscription): Promise<ProviderSubscription>;
  setCancelAtPeriodEnd(subscription: ProviderSubscription, cancel: boolean): Promise<ProviderSubscription>;
}
