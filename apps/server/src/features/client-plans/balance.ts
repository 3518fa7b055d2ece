/**
 * A client running low: alerts mailed to its admins at the percents of its month's credits left
 * that it chose (each once a month), and the optional automatic top-up (extra credits bought with
 * its saved card on the agency's Stripe, or in the sandbox; at most once an hour, never twice at
 * once). Checked every minute by a recurring task, off every request's path.
 */
import { alertToSend, type TClientBalanceSettings, type TClientBalanceSettingsRequest } from '@switchboard/core';
import { and, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { RecurringTask } from '../../platform/jobs';
import { createMailer, escapeHtml, type MailBrand, type Mailer } from '../../platform/mailer';
import { dropCachedAllowance, monthOf } from '../billing/allowances';
import { subaccountAllowances, subaccountMonthlyUsage } from '../billing/schema';
import { verifiedOriginOfAccount } from '../domains/mapping';
import { mailBrandOf } from '../portal/service';
import { accounts, memberships, subaccounts, users } from '../tenancy/schema';
import { agencyStripeError } from './agency-stripe';
import { LIVE_STATUSES, type PlanRow } from './plans';
import { clientBalanceSettings, clientInvoices, clientPlans, clientSubscriptions } from './schema';
import { connectionOf, settingsRow } from './settings';

const HOUR_MS = 3_600_000;
/** The smallest charge card networks accept in most currencies (minor units). */
const MIN_CHARGE_MINOR = 50;

type SettingsRow = typeof clientBalanceSettings.$inferSelect;

/** What a top-up of `credits` costs at the plan's own rate (its price over its included credits), rounded up. */
export const topUpPriceOf = (plan: PlanRow | null | undefined, credits: number | null): number | null =>
  plan && plan.extraCreditPriceMinor === null && credits
    ? Math.ceil((credits * plan.priceMinor) / plan.includedCredits)
    : null;

export const balanceView = (row: SettingsRow | undefined, plan: PlanRow | null): TClientBalanceSettings => ({
  thresholds: row?.thresholds ?? [],
  topUpEnabled: row?.topUpEnabled ?? false,
  topUpCredits: row?.topUpCredits ?? null,
  topUpBelowCredits: row?.topUpBelowCredits ?? null,
  topUpPriceMinor: topUpPriceOf(plan, row?.topUpCredits ?? null),
  currency: plan?.currency ?? null,
  topUpLastResult: row?.topUpLastResult ?? null,
});

export const balanceSettingsOf = async (deps: Deps, subaccountId: string) =>
  (await deps.db.select().from(clientBalanceSettings).where(eq(clientBalanceSettings.subaccountId, subaccountId)))[0];

/** The client's live plan, when it has one. */
const livePlanOf = async (deps: Deps, subaccountId: string) => {
  const [row] = await deps.db
    .select({ plan: clientPlans, subscription: clientSubscriptions })
    .from(clientSubscriptions)
    .innerJoin(clientPlans, eq(clientPlans.id, clientSubscriptions.planId))
    .where(eq(clientSubscriptions.subaccountId, subaccountId));
  return row && LIVE_STATUSES.includes(row.subscription.status) ? row : undefined;
};

export const putBalanceSettings = async (
  deps: Deps,
  client: { accountId: string; subaccountId: string },
  input: TClientBalanceSettingsRequest,
) => {
  if (input.topUpEnabled) {
    const live = await livePlanOf(deps, client.subaccountId);
    if (!live || live.plan.extraCreditPriceMinor !== null) {
      throw new AppError(
        'CONFLICT',
        'Automatic top-up is for plans that stop at their included credits; this plan bills extra credits instead.',
        { field: 'topUpEnabled' },
      );
    }
    if ((topUpPriceOf(live.plan, input.topUpCredits) ?? 0) < MIN_CHARGE_MINOR) {
      throw new AppError('VALIDATION_ERROR', 'A top-up must cost at least 0.50. Buy more credits at once.', {
        field: 'topUpCredits',
      });
    }
  }
  const values = {
    thresholds: [...input.thresholds].sort((a, b) => b - a),
    topUpEnabled: input.topUpEnabled,
    topUpCredits: input.topUpCredits,
    topUpBelowCredits: input.topUpBelowCredits,
    updatedAt: new Date(),
  };
  await deps.db
    .insert(clientBalanceSettings)
    .values({ ...client, ...values })
    .onConflictDoUpdate({ target: clientBalanceSettings.subaccountId, set: values });
};

const mailers = new WeakMap<Deps, Mailer>();
const mailerFor = (deps: Deps) => {
  let mailer = mailers.get(deps);
  if (!mailer) {
    mailer = createMailer(deps.db, deps.env, deps.log);
    mailers.set(deps, mailer);
  }
  return mailer;
};

/**
 * The client's own people: its portal users (role client) and admins other than the agency's
 * owner; the agency's owner only when the client has none of its own.
 */
const recipientsOf = async (deps: Deps, subaccountId: string): Promise<string[]> => {
  const rows = await deps.db
    .select({ email: users.email, owner: sql<boolean>`${users.id} = ${accounts.ownerUserId}` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .innerJoin(accounts, eq(accounts.id, subaccounts.accountId))
    .where(and(eq(memberships.subaccountId, subaccountId), inArray(memberships.role, ['admin', 'client'])));
  const own = rows.filter((row) => !row.owner).map((row) => row.email);
  return own.length > 0 ? own : rows.map((row) => row.email);
};

/** The alert, in the agency's name (its sender name; the platform named only without white-label). */
export const clientLowBalanceMail = (input: {
  to: string;
  clientName: string;
  left: number;
  allowance: number;
  percent: number;
  link: string;
  brand: MailBrand | null;
}) => {
  const left = Math.max(0, Math.floor(input.left)).toLocaleString('en-US');
  const total = input.allowance.toLocaleString('en-US');
  const poweredBy = input.brand && !input.brand.whiteLabel ? 'Powered by Switchboard' : '';
  const text = `${input.clientName} has ${left} of this month's ${total} credits left (${input.percent}% or less). When they run out, your agents stop answering until next month or until you change your plan.\n\nSee your plan:\n${input.link}${poweredBy ? `\n\n${poweredBy}` : ''}`;
  return {
    to: input.to,
    subject: `${input.clientName}: credits running low (${input.percent}% left)`,
    link: input.link,
    text,
    html: `<p><strong>${escapeHtml(input.clientName)}</strong> has ${left} of this month's ${total} credits left (${input.percent}% or less). When they run out, your agents stop answering until next month or until you change your plan.</p><p><a href="${escapeHtml(input.link)}">See your plan</a></p>${poweredBy ? `<p>${poweredBy}</p>` : ''}`,
    ...(input.brand ? { fromName: input.brand.senderName } : {}),
  };
};

interface Watched {
  settings: SettingsRow;
  name: string;
  allowance: number;
  used: number;
}

/** Mails the lowest threshold crossed and not yet mailed this month; the claim makes it once. */
const alertIfLow = async (deps: Deps, watched: Watched, month: string) => {
  const { settings, allowance, used } = watched;
  const left = allowance - used;
  const mailed = settings.alertedMonth === month ? settings.alertedPercent : null;
  const percent = alertToSend(left, allowance, settings.thresholds, mailed);
  if (percent === null) return false;
  const claimed = await deps.db
    .update(clientBalanceSettings)
    .set({ alertedMonth: month, alertedPercent: percent })
    .where(
      and(
        eq(clientBalanceSettings.subaccountId, settings.subaccountId),
        or(
          isNull(clientBalanceSettings.alertedMonth),
          ne(clientBalanceSettings.alertedMonth, month),
          isNull(clientBalanceSettings.alertedPercent),
          sql`${clientBalanceSettings.alertedPercent} > ${percent}`,
        ),
      ),
    )
    .returning({ subaccountId: clientBalanceSettings.subaccountId });
  if (claimed.length === 0) return false;
  // On the agency's own domain when it has one verified, in its name.
  const [origin, brand] = await Promise.all([
    verifiedOriginOfAccount(deps.db, settings.accountId),
    mailBrandOf(deps, settings.accountId),
  ]);
  const link = `${origin ?? deps.publicUrl}/${settings.subaccountId}/plan`;
  for (const to of await recipientsOf(deps, settings.subaccountId)) {
    await mailerFor(deps).send(
      clientLowBalanceMail({ to, clientName: watched.name, left, allowance, percent, link, brand }),
    );
  }
  return true;
};

const record = (deps: Deps, subaccountId: string, result: string) =>
  deps.db
    .update(clientBalanceSettings)
    .set({ topUpLastResult: result })
    .where(eq(clientBalanceSettings.subaccountId, subaccountId));

/** Charges the client's saved card on the agency's Stripe off-session; the sandbox charges nothing. */
const chargeTopUp = async (
  deps: Deps,
  input: { accountId: string; subaccountId: string; provider: 'stripe' | 'sandbox'; customerId: string | null },
  charge: { amountMinor: number; currency: string; credits: number; idempotencyKey: string },
): Promise<{ ok: true; id: string } | { ok: false; message: string }> => {
  if (input.provider === 'sandbox') return { ok: true, id: `sbxpi_${newId('clientInvoice').slice(4)}` };
  const connection = connectionOf(deps, await settingsRow(deps, input.accountId));
  if (!connection) return { ok: false, message: 'The agency has not connected Stripe.' };
  if (!input.customerId) return { ok: false, message: 'No saved card.' };
  try {
    const methods = await connection.stripe.paymentMethods.list({ customer: input.customerId, type: 'card', limit: 1 });
    const method = methods.data[0];
    if (!method) return { ok: false, message: 'No saved card.' };
    const intent = await connection.stripe.paymentIntents.create(
      {
        amount: charge.amountMinor,
        currency: charge.currency,
        customer: input.customerId,
        payment_method: method.id,
        off_session: true,
        confirm: true,
        description: `Credit top-up: ${charge.credits.toLocaleString('en-US')} credits`,
        metadata: { accountId: input.accountId, subaccountId: input.subaccountId, kind: 'client_top_up' },
      },
      { idempotencyKey: charge.idempotencyKey },
    );
    if (intent.status !== 'succeeded') return { ok: false, message: 'The bank asks the card holder to confirm.' };
    return { ok: true, id: intent.id };
  } catch (error) {
    return { ok: false, message: agencyStripeError(error).message };
  }
};

/**
 * Buys the client's top-up: the claim (last top-up over an hour ago, one conditional update) lets
 * one process through once an hour; a paid top-up is an invoice of the client and raises its
 * allowance for the rest of its plan's period.
 */
export const topUp = async (deps: Deps, watched: Watched, now = new Date()) => {
  const { settings } = watched;
  const live = await livePlanOf(deps, settings.subaccountId);
  const amountMinor = topUpPriceOf(live?.plan, settings.topUpCredits);
  if (!live || amountMinor === null || !settings.topUpCredits) return 'skipped' as const;
  const claimed = await deps.db
    .update(clientBalanceSettings)
    .set({ topUpLastAt: now })
    .where(
      and(
        eq(clientBalanceSettings.subaccountId, settings.subaccountId),
        eq(clientBalanceSettings.topUpEnabled, true),
        or(
          isNull(clientBalanceSettings.topUpLastAt),
          lte(clientBalanceSettings.topUpLastAt, new Date(now.getTime() - HOUR_MS)),
        ),
      ),
    )
    .returning({ subaccountId: clientBalanceSettings.subaccountId });
  if (claimed.length === 0) return 'skipped' as const;
  const credits = settings.topUpCredits;
  const when = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const result = await chargeTopUp(
    deps,
    {
      accountId: settings.accountId,
      subaccountId: settings.subaccountId,
      provider: live.subscription.provider,
      customerId: live.subscription.customerId,
    },
    {
      amountMinor,
      currency: live.plan.currency,
      credits,
      idempotencyKey: `client-topup-${settings.subaccountId}-${now.getTime()}`,
    },
  );
  if (!result.ok) {
    await record(deps, settings.subaccountId, `${when}: ${credits} credits not bought. ${result.message}`);
    return 'failed' as const;
  }
  await deps.db.transaction(async (tx) => {
    await tx.insert(clientInvoices).values({
      id: newId('clientInvoice'),
      accountId: settings.accountId,
      subaccountId: settings.subaccountId,
      provider: live.subscription.provider,
      providerInvoiceId: result.id,
      kind: 'topup',
      planId: live.plan.id,
      amountMinor,
      currency: live.plan.currency,
      status: 'paid',
      paidAt: now,
    });
    await tx
      .update(subaccountAllowances)
      .set({ monthlyCredits: sql`${subaccountAllowances.monthlyCredits} + ${credits}`, updatedAt: now })
      .where(eq(subaccountAllowances.subaccountId, settings.subaccountId));
  });
  dropCachedAllowance(settings.subaccountId);
  const sandbox = live.subscription.provider === 'sandbox' ? ' (Sandbox, no real charge)' : '';
  await record(deps, settings.subaccountId, `${when}: bought ${credits.toLocaleString('en-US')} credits${sandbox}.`);
  return 'topped-up' as const;
};

/** Every client with alerts or top-up and an allowance: alert, then top up, where due. */
export const watchClientBalances = async (deps: Deps, now = new Date()) => {
  const month = monthOf(now);
  const rows = await deps.db
    .select({
      settings: clientBalanceSettings,
      name: subaccounts.name,
      allowance: subaccountAllowances.monthlyCredits,
      status: clientSubscriptions.status,
      included: clientPlans.includedCredits,
      used: sql<string>`coalesce(${subaccountMonthlyUsage.credits}, 0)`,
    })
    .from(clientBalanceSettings)
    .innerJoin(subaccounts, eq(subaccounts.id, clientBalanceSettings.subaccountId))
    .leftJoin(subaccountAllowances, eq(subaccountAllowances.subaccountId, clientBalanceSettings.subaccountId))
    .leftJoin(clientSubscriptions, eq(clientSubscriptions.subaccountId, clientBalanceSettings.subaccountId))
    .leftJoin(clientPlans, eq(clientPlans.id, clientSubscriptions.planId))
    .leftJoin(
      subaccountMonthlyUsage,
      and(
        eq(subaccountMonthlyUsage.subaccountId, clientBalanceSettings.subaccountId),
        eq(subaccountMonthlyUsage.month, month),
      ),
    )
    .where(
      or(
        sql`jsonb_array_length(${clientBalanceSettings.thresholds}) > 0`,
        eq(clientBalanceSettings.topUpEnabled, true),
      ),
    );
  for (const row of rows) {
    // The month's credits: the allowance (a capped plan, top-ups included), else the plan's included credits.
    const live = row.status !== null && LIVE_STATUSES.includes(row.status);
    const allowance = row.allowance !== null ? Number(row.allowance) : live ? (row.included ?? 0) : 0;
    if (allowance <= 0) continue;
    const watched: Watched = { settings: row.settings, name: row.name, allowance, used: Number(row.used) };
    try {
      if (row.settings.thresholds.length > 0) await alertIfLow(deps, watched, month);
      const left = watched.allowance - watched.used;
      if (
        row.settings.topUpEnabled &&
        row.settings.topUpBelowCredits !== null &&
        left < row.settings.topUpBelowCredits
      ) {
        await topUp(deps, watched, now);
      }
    } catch (error) {
      deps.log.error({ err: error, subaccountId: row.settings.subaccountId }, 'client balance check failed');
    }
  }
};

export const CLIENT_BALANCE_WATCH: RecurringTask = {
  name: 'client-plans:balance-watch',
  everyMs: 60_000,
  run: (deps) => watchClientBalances(deps),
};
