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

/** The customer's saved card, as the Billing section shows it. */
export interface ProviderPaymentMethod {
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
}

/** An invoice (or receipt of a one-time payment) as the Billing section lists it. */
export interface ProviderInvoiceSummary {
  id: string;
  number: string | null;
  /** Minor units: what was paid, or what is due when unpaid. */
  amount: number;
  currency: string;
  status: string;
  createdAt: Date;
  description: string;
  hostedUrl: string | null;
  pdfUrl: string | null;
}

/** An off-session charge of the saved payment method (auto-recharge). */
export interface SavedMethodCharge {
  customerId: string;
  accountId: string;
  amountCents: number;
  description: string;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export type SavedMethodChargeResult =
  | { status: 'succeeded'; id: string }
  | { status: 'failed' | 'no_payment_method'; id: string | null; message: string };

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
  /** Expires the account's open subscription checkouts (before a new one opens); answers how many. */
  expireOpenCheckouts(input: { accountId: string; customerId: string }): Promise<number>;
  /** Expires one open checkout (one being replaced); a checkout already paid or expired is left as it is. */
  expireCheckout(id: string): Promise<void>;
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
  /** The default (or first) saved card of the customer, if any. */
  getPaymentMethod(customerId: string): Promise<ProviderPaymentMethod | null>;
  /** The customer's newest invoices and one-time payment receipts, newest first. */
  listInvoices(input: { customerId: string; accountId: string; limit: number }): Promise<ProviderInvoiceSummary[]>;
  /** Charges the saved payment method without the customer present (idempotent by key). */
  chargeSavedMethod(input: SavedMethodCharge): Promise<SavedMethodChargeResult>;
}
