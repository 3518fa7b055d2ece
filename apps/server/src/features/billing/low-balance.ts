/**
 * Running out gracefully: low-balance alerts mailed at the thresholds the agency sets (each once per
 * billing period) and the optional auto-recharge (a credit pack bought with the saved payment
 * method when the balance falls below a threshold, at most once an hour and never twice at once).
 * Checked after credits are spent, off the caller's path.
 */
import { alertToSend, findCreditPack, formatCreditCount, formatPrice } from '@switchboard/core';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { defineReaction, publish } from '../../platform/domain-events';
import { createMailer, type Mailer, type OutgoingMail } from '../../platform/mailer';
import { type BillingRow, currentPlan, ownerOf, providerFor } from './account';
import { monthsIn } from './catalog';
import { addGrant, lockAccount, sumEntries } from './ledger-repo';
import { billingAccounts } from './schema';
import { handleProviderEvent } from './sync';

const HOUR_MS = 3_600_000;
const NO_CARD = 'No saved payment method: buy a credit pack once to save one.';

/** The credits of the current billing period (a yearly plan: 12 months of its pack; the free plan's grant). */
export const periodCreditsOf = (deps: Deps, row: BillingRow): number => {
  const plan = currentPlan(deps, row);
  return plan.tier ? plan.creditLimit * monthsIn(row.currentPeriodStart, row.currentPeriodEnd) : plan.creditLimit;
};

/** Alerts are mailed once per threshold per period; a new period (or the free plan) is a new key. */
export const periodKeyOf = (deps: Deps, row: BillingRow): string =>
  currentPlan(deps, row).tier && row.currentPeriodStart ? row.currentPeriodStart.toISOString() : 'free';

const mailers = new WeakMap<Deps, Mailer>();
const mailerFor = (deps: Deps) => {
  let mailer = mailers.get(deps);
  if (!mailer) {
    mailer = createMailer(deps.db, deps.env, deps.log);
    mailers.set(deps, mailer);
  }
  return mailer;
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const lowBalanceMail = (input: {
  to: string;
  accountName: string;
  balance: number;
  percent: number;
  periodCredits: number;
  link: string;
}): OutgoingMail => {
  const left = formatCreditCount(input.balance);
  const period = formatCreditCount(input.periodCredits);
  const text = `${input.accountName} has ${left} credits left: ${input.percent}% or less of this period's ${period} credits. When they run out, your agents stop answering until credits are added.\n\nBuy a credit pack, turn on auto-recharge or change your plan in Settings, Billing:\n${input.link}`;
  return {
    to: input.to,
    subject: `Your Switchboard credits are running low (${input.percent}% left)`,
    link: input.link,
    text,
    html: `<p><strong>${escapeHtml(input.accountName)}</strong> has ${left} credits left: ${input.percent}% or less of this period's ${period} credits. When they run out, your agents stop answering until credits are added.</p><p><a href="${escapeHtml(input.link)}">Buy credits or change your plan in Settings, Billing</a></p>`,
  };
};

/**
 * Announces the lowest threshold crossed and not yet announced this period as `credits.low`; the
 * claim makes it once. Its reactions: the webhooks that chose it, then the owner's mail.
 */
const alertIfLow = async (deps: Deps, row: BillingRow, balance: number) => {
  const periodKey = periodKeyOf(deps, row);
  const periodCredits = periodCreditsOf(deps, row);
  const mailed = row.lowBalanceAlertPeriod === periodKey ? row.lowBalanceAlertedAt : null;
  const percent = alertToSend(balance, periodCredits, row.lowBalanceThresholds, mailed);
  if (percent === null) return;
  // The claim and the event's outbox rows commit together: announced once, and never lost.
  await deps.db.transaction(async (tx) => {
    const claimed = await tx
      .update(billingAccounts)
      .set({ lowBalanceAlertedAt: percent, lowBalanceAlertPeriod: periodKey })
      .where(
        and(
          eq(billingAccounts.accountId, row.accountId),
          or(
            sql`${billingAccounts.lowBalanceAlertPeriod} is distinct from ${periodKey}`,
            isNull(billingAccounts.lowBalanceAlertedAt),
            sql`${billingAccounts.lowBalanceAlertedAt} > ${percent}`,
          ),
        ),
      )
      .returning({ accountId: billingAccounts.accountId });
    if (!claimed[0]) return;
    await publish(
      deps,
      'credits.low',
      { accountId: row.accountId, remaining: balance, total: periodCredits, thresholdPercent: percent },
      tx,
    );
  });
};

/** The owner of an account whose credits run low is mailed (once per threshold and period, by the claim). */
export const mailLowBalance = defineReaction({
  event: 'credits.low',
  name: 'billing.low-balance-mail',
  runs: 'after-commit',
  handle: async (deps, low, tx) => {
    const owner = await ownerOf(tx ?? deps.db, low.accountId);
    if (!owner) return;
    await mailerFor(deps).send(
      lowBalanceMail({
        to: owner.email,
        accountName: owner.name,
        balance: low.remaining,
        percent: low.thresholdPercent,
        periodCredits: low.total,
        link: `${deps.publicUrl}/settings`,
      }),
    );
    deps.log.info({ accountId: low.accountId, percent: low.thresholdPercent }, 'low-balance alert mailed');
  },
});

const recordRecharge = (deps: Deps, accountId: string, result: string) =>
  deps.db
    .update(billingAccounts)
    .set({ autoRechargeLastResult: result })
    .where(eq(billingAccounts.accountId, accountId));

/**
 * Gives back the hourly slot a recharge claimed when nothing could be charged (no saved payment
 * method yet): the next low balance tries again, so buying a pack or saving a card is enough. Only
 * this claim is undone (while its time is still the stored one), back to the recharge time read
 * before it.
 */
const releaseSlot = (deps: Deps, row: BillingRow, claimedAt: Date, result: string) =>
  deps.db
    .update(billingAccounts)
    .set({ autoRechargeLastAt: row.autoRechargeLastAt, autoRechargeLastResult: result })
    .where(and(eq(billingAccounts.accountId, row.accountId), eq(billingAccounts.autoRechargeLastAt, claimedAt)));

/**
 * Buys the chosen pack with the saved payment method. The claim (last recharge over an hour ago,
 * set in one conditional update) lets one process, once an hour, through; the charge's idempotency
 * key is derived from the claim and the credits are granted once per payment. A recharge that found
 * no saved payment method gives the slot back.
 */
export const autoRecharge = async (deps: Deps, row: BillingRow, now = new Date()) => {
  const pack = findCreditPack(row.autoRechargePriceId);
  if (!row.autoRechargeEnabled || !pack) return 'skipped' as const;
  const claimed = await deps.db
    .update(billingAccounts)
    .set({ autoRechargeLastAt: now })
    .where(
      and(
        eq(billingAccounts.accountId, row.accountId),
        eq(billingAccounts.autoRechargeEnabled, true),
        or(
          isNull(billingAccounts.autoRechargeLastAt),
          lte(billingAccounts.autoRechargeLastAt, new Date(now.getTime() - HOUR_MS)),
        ),
      ),
    )
    .returning({ customerId: billingAccounts.customerId });
  const claim = claimed[0];
  if (!claim) return 'skipped' as const;
  const when = now.toISOString().slice(0, 16).replace('T', ' ');
  if (!claim.customerId) {
    await releaseSlot(deps, row, now, `${when} UTC: ${NO_CARD}`);
    return 'failed' as const;
  }
  let provider: ReturnType<typeof providerFor>;
  try {
    provider = providerFor(deps, deps.publicUrl);
  } catch {
    await recordRecharge(deps, row.accountId, `${when} UTC: payments are not configured on this server.`);
    return 'failed' as const;
  }
  const price = formatPrice(pack.price);
  const result = await provider
    .chargeSavedMethod({
      customerId: claim.customerId,
      accountId: row.accountId,
      amountCents: Math.round(pack.price * 100),
      description: `Auto-recharge: ${pack.display_name}`,
      idempotencyKey: `auto-recharge-${row.accountId}-${now.getTime()}`,
      metadata: { priceId: pack.price_id, kind: 'auto_recharge' },
    })
    .catch((error: Error) => ({ status: 'failed' as const, id: null, message: error.message }));
  if (result.status === 'no_payment_method') {
    await releaseSlot(deps, row, now, `${when} UTC: ${pack.display_name} not bought. ${NO_CARD}`);
    return 'failed' as const;
  }
  if (result.status !== 'succeeded') {
    await recordRecharge(deps, row.accountId, `${when} UTC: ${pack.display_name} not bought. ${result.message}`);
    deps.log.warn({ accountId: row.accountId, reason: result.message }, 'auto-recharge failed');
    return 'failed' as const;
  }
  await deps.db.transaction(async (tx) => {
    await lockAccount(tx, row.accountId, deps.env.FREE_PLAN_CREDITS);
    await addGrant(tx, {
      accountId: row.accountId,
      kind: 'bonus',
      amount: pack.credit_limit,
      sourceKey: `recharge:${result.id}`,
      description: `Auto-recharge: ${pack.display_name}`,
    });
  });
  // Stripe announces the recharge's paid invoice with its webhook; the sandbox's is announced here, as
  // its receipts of packs are, so what follows a paid invoice (an affiliate's commission) happens too.
  if (provider.kind === 'sandbox' && result.id) {
    await handleProviderEvent(deps, provider, {
      id: `evt_sbx_recharge_${result.id}`,
      type: 'invoice.paid',
      created: Math.floor(now.getTime() / 1000),
      objectId: result.id,
      objectType: 'invoice',
    });
  }
  const sandbox = provider.kind === 'sandbox' ? ' (sandbox, no real charge)' : '';
  await recordRecharge(deps, row.accountId, `${when} UTC: bought ${pack.display_name} for ${price}${sandbox}.`);
  return 'recharged' as const;
};

/** Reads the account once and alerts or recharges when its balance is low. */
export const checkBalance = async (deps: Deps, accountId: string) => {
  const [row] = await deps.db.select().from(billingAccounts).where(eq(billingAccounts.accountId, accountId));
  if (!row || (row.lowBalanceThresholds.length === 0 && !row.autoRechargeEnabled)) return;
  const balance = await sumEntries(deps.db, accountId);
  if (row.lowBalanceThresholds.length > 0) await alertIfLow(deps, row, balance);
  if (row.autoRechargeEnabled && row.autoRechargeThreshold !== null && balance < row.autoRechargeThreshold) {
    await autoRecharge(deps, row);
  }
};

const running = new Map<string, Promise<void>>();
const again = new Set<string>();

/**
 * Runs checkBalance off the caller's path, one at a time per account (a request during a run
 * runs once more after it). settleBalanceChecks() waits for them (tests, shutdown).
 */
export const scheduleBalanceCheck = (deps: Deps, accountId: string): void => {
  if (running.has(accountId)) {
    again.add(accountId);
    return;
  }
  const run = (async () => {
    do {
      again.delete(accountId);
      await checkBalance(deps, accountId).catch((error) =>
        deps.log.error({ err: error, accountId }, 'low-balance check failed'),
      );
    } while (again.has(accountId));
  })().finally(() => running.delete(accountId));
  running.set(accountId, run);
};

export const settleBalanceChecks = async () => {
  while (running.size > 0) await Promise.all([...running.values()]);
};
