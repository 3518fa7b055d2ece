/** What a client sees of its plan: the plan, its period, this month's credits, its invoices, the plans offered. */
import type { TClientPlanView } from '@switchboard/core';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { monthOf } from '../billing/allowances';
import { subaccountMonthlyUsage } from '../billing/schema';
import { balanceSettingsOf, balanceView } from './balance';
import { LIVE_STATUSES, planView } from './plans';
import { clientInvoices, clientPlans } from './schema';
import { paymentsModeOf, settingsRow } from './settings';
import { subscriptionOf } from './subscribe';

const INVOICES_SHOWN = 24;

export const clientPlanView = async (
  deps: Deps,
  client: { accountId: string; subaccountId: string; canManage: boolean },
): Promise<TClientPlanView> => {
  const month = monthOf();
  const [settings, subscription, offered, invoices, usage, balance] = await Promise.all([
    settingsRow(deps, client.accountId),
    subscriptionOf(deps, client.subaccountId),
    deps.db
      .select()
      .from(clientPlans)
      .where(and(eq(clientPlans.accountId, client.accountId), isNull(clientPlans.archivedAt)))
      .orderBy(clientPlans.priceMinor, clientPlans.createdAt),
    deps.db
      .select()
      .from(clientInvoices)
      .where(eq(clientInvoices.subaccountId, client.subaccountId))
      .orderBy(desc(clientInvoices.createdAt))
      .limit(INVOICES_SHOWN),
    deps.db
      .select({ credits: subaccountMonthlyUsage.credits })
      .from(subaccountMonthlyUsage)
      .where(
        and(eq(subaccountMonthlyUsage.subaccountId, client.subaccountId), eq(subaccountMonthlyUsage.month, month)),
      ),
    balanceSettingsOf(deps, client.subaccountId),
  ]);
  const live = subscription?.planId && LIVE_STATUSES.includes(subscription.status) ? subscription : null;
  const [current] = live
    ? await deps.db
        .select()
        .from(clientPlans)
        .where(and(eq(clientPlans.id, live.planId as string), eq(clientPlans.accountId, client.accountId)))
    : [];
  const mode = paymentsModeOf(deps, settings);
  return {
    subaccountId: client.subaccountId,
    subscription:
      live && current
        ? {
            plan: planView(current),
            status: live.status,
            currentPeriodStart: live.currentPeriodStart?.toISOString() ?? null,
            currentPeriodEnd: live.currentPeriodEnd?.toISOString() ?? null,
            cancelAtPeriodEnd: live.cancelAtPeriodEnd,
            sandbox: live.provider === 'sandbox',
          }
        : null,
    usage: { month, used: Number(usage[0]?.credits ?? 0), included: current ? current.includedCredits : null },
    invoices: invoices.map((invoice) => ({
      id: invoice.id,
      kind: invoice.kind,
      amountMinor: invoice.amountMinor,
      currency: invoice.currency,
      status: invoice.status,
      periodStart: invoice.periodStart?.toISOString() ?? null,
      periodEnd: invoice.periodEnd?.toISOString() ?? null,
      paidAt: invoice.paidAt?.toISOString() ?? null,
      url: invoice.url,
      sandbox: invoice.provider === 'sandbox',
    })),
    // Clients see the offer, not how many others bought it.
    plans: offered.map((plan) => planView(plan, 0)),
    sandbox: mode === 'sandbox',
    balance: balanceView(balance, current ?? null),
    canManage: client.canManage,
    paymentsAvailable: mode !== 'none',
  };
};
