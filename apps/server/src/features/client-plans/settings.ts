/**
 * The agency's Stripe connection: its key (checked with one call, stored encrypted, shown by its
 * last four characters only) and the signing secret of its webhook endpoint (stored encrypted).
 */
import type { TClientBillingStatus, TPutClientBillingStripeRequest } from '@switchboard/core';
import { and, eq, notInArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import { decryptSecret, encryptSecret, maskTail } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { defaultOrigin } from '../../platform/http';
import { assertFeature, planCapabilities } from '../billing/limits';
import { agencyStripe, checkKey } from './agency-stripe';
import { LIVE_STATUSES } from './plans';
import { clientBillingSettings, clientPlans, clientSubscriptions } from './schema';

type SettingsRow = typeof clientBillingSettings.$inferSelect;

/** How clients of an agency pay: its Stripe, the labelled sandbox (never on its own in production), or not at all. */
export type ClientPaymentsMode = 'stripe' | 'sandbox' | 'none';

export const NOT_CONNECTED = 'This agency has not connected Stripe yet.';

export const paymentsModeOf = (deps: Deps, row: SettingsRow | undefined | null): ClientPaymentsMode => {
  if (row) return 'stripe';
  if (deps.env.NODE_ENV !== 'production' || deps.env.BILLING_SANDBOX) return 'sandbox';
  return 'none';
};

export const settingsRow = async (deps: Deps, accountId: string): Promise<SettingsRow | undefined> =>
  (
    await deps.db.select().from(clientBillingSettings).where(eq(clientBillingSettings.accountId, accountId)).limit(1)
  )[0];

export const webhookUrlOf = (deps: Deps, accountId: string) =>
  `${defaultOrigin(deps.env)}/api/client-billing/stripe-webhook/${accountId}`;

export const getStatus = async (deps: Deps, accountId: string): Promise<TClientBillingStatus> => {
  const [capabilities, row] = await Promise.all([planCapabilities(deps, accountId), settingsRow(deps, accountId)]);
  const mode = paymentsModeOf(deps, row);
  return {
    included: capabilities.features.whitelabel_subaccounts,
    stripe: row
      ? {
          last4: row.keyLast4,
          mode: row.keyMode,
          kind: row.keyKind,
          webhookSecretSet: Boolean(row.encryptedWebhookSecret),
          connectedAt: row.connectedAt.toISOString(),
        }
      : null,
    webhookUrl: webhookUrlOf(deps, accountId),
    sandbox: mode === 'sandbox',
    paymentsAvailable: mode !== 'none',
  };
};

/**
 * Connects (or replaces) the agency's Stripe key after Stripe accepted it. A new key may be another
 * Stripe account: the plans' Stripe prices are made again when next needed.
 */
export const connectStripe = async (
  deps: Deps,
  accountId: string,
  input: TPutClientBillingStripeRequest,
): Promise<TClientBillingStatus> => {
  await assertFeature(deps, accountId, 'whitelabel_subaccounts');
  await checkKey(deps.env, input.secretKey);
  const values = {
    encryptedSecretKey: encryptSecret(deps.env, input.secretKey),
    keyLast4: maskTail(input.secretKey),
    keyMode: input.secretKey.includes('_live_') ? ('live' as const) : ('test' as const),
    keyKind: input.secretKey.startsWith('rk_') ? ('restricted' as const) : ('secret' as const),
    ...(input.webhookSecret ? { encryptedWebhookSecret: encryptSecret(deps.env, input.webhookSecret) } : {}),
  };
  await deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ key: clientBillingSettings.encryptedSecretKey })
      .from(clientBillingSettings)
      .where(eq(clientBillingSettings.accountId, accountId))
      .for('update');
    await tx
      .insert(clientBillingSettings)
      .values({ accountId, ...values })
      .onConflictDoUpdate({
        target: clientBillingSettings.accountId,
        set: { ...values, connectedAt: new Date(), updatedAt: new Date() },
      });
    if (!before || decryptSecret(deps.env, before.key) !== input.secretKey) {
      await tx.update(clientPlans).set({ stripePriceId: null }).where(eq(clientPlans.accountId, accountId));
      // Customers of clients without a live subscription are made again on the new account.
      await tx
        .update(clientSubscriptions)
        .set({ customerId: null })
        .where(
          and(eq(clientSubscriptions.accountId, accountId), notInArray(clientSubscriptions.status, LIVE_STATUSES)),
        );
    }
  });
  return getStatus(deps, accountId);
};

export const setWebhookSecret = async (deps: Deps, accountId: string, webhookSecret: string) => {
  const updated = await deps.db
    .update(clientBillingSettings)
    .set({ encryptedWebhookSecret: encryptSecret(deps.env, webhookSecret), updatedAt: new Date() })
    .where(eq(clientBillingSettings.accountId, accountId))
    .returning({ accountId: clientBillingSettings.accountId });
  if (updated.length === 0) throw new AppError('NOT_FOUND', 'Connect Stripe before adding its webhook secret');
  return getStatus(deps, accountId);
};

export const disconnectStripe = async (deps: Deps, accountId: string): Promise<void> => {
  const removed = await deps.db
    .delete(clientBillingSettings)
    .where(eq(clientBillingSettings.accountId, accountId))
    .returning({ accountId: clientBillingSettings.accountId });
  if (removed.length === 0) throw new AppError('NOT_FOUND', 'This agency has no Stripe account connected');
};

export interface AgencyConnection {
  stripe: Stripe;
  webhookSecret: string | null;
}

/** The agency's Stripe client, or null when it connected none. */
export const connectionOf = (deps: Deps, row: SettingsRow | undefined): AgencyConnection | null =>
  row
    ? {
        stripe: agencyStripe(deps.env, decryptSecret(deps.env, row.encryptedSecretKey)),
        webhookSecret: row.encryptedWebhookSecret ? decryptSecret(deps.env, row.encryptedWebhookSecret) : null,
      }
    : null;
