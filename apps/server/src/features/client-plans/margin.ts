/**
 * What each client earned the agency in a month: revenue (its invoices paid that month), platform
 * cost (the credits it used that month at the agency's own price per credit) and margin; as JSON
 * and as CSV.
 */
import { CREDIT_PACK_TIERS, type TClientMargin, type TClientMarginRow } from '@switchboard/core';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { billingRow, currentPlan } from '../billing/account';
import { monthOf } from '../billing/allowances';
import { subaccountMonthlyUsage } from '../billing/schema';
import { subaccounts } from '../tenancy/schema';
import { clientInvoices, clientPlans, clientSubscriptions } from './schema';

/**
 * The agency's price per credit in US cents: its platform plan's price over the credits it grants
 * (a yearly plan over twelve months of credits); without a paid plan, the cheapest credit pack's.
 */
export const agencyCreditPrice = async (deps: Deps, accountId: string) => {
  const plan = currentPlan(deps, await billingRow(deps, accountId));
  if (plan.tier && plan.tier.price > 0 && plan.tier.credit_limit > 0) {
    const credits = plan.tier.credit_limit * (plan.tier.interval === 'year' ? 12 : 1);
    return { minor: (plan.tier.price * 100) / credits, source: `Your plan: ${plan.tier.display_name}` };
  }
  const cheapest = [...CREDIT_PACK_TIERS].sort((a, b) => a.price / a.credit_limit - b.price / b.credit_limit)[0];
  if (!cheapest) return { minor: 0, source: 'No price' };
  return { minor: (cheapest.price * 100) / cheapest.credit_limit, source: `Credit pack: ${cheapest.display_name}` };
};

const round = (value: number) => Math.round(value * 100) / 100;

export const clientMargin = async (deps: Deps, accountId: string, month = monthOf()): Promise<TClientMargin> => {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const from = new Date(Date.UTC(year, monthNumber - 1, 1));
  const to = new Date(Date.UTC(year, monthNumber, 1));
  const [price, clients, revenue, usage] = await Promise.all([
    agencyCreditPrice(deps, accountId),
    deps.db
      .select({ id: subaccounts.id, name: subaccounts.name, planName: clientPlans.name })
      .from(subaccounts)
      .leftJoin(clientSubscriptions, eq(clientSubscriptions.subaccountId, subaccounts.id))
      .leftJoin(clientPlans, eq(clientPlans.id, clientSubscriptions.planId))
      .where(eq(subaccounts.accountId, accountId))
      .orderBy(subaccounts.createdAt),
    deps.db
      .select({
        subaccountId: clientInvoices.subaccountId,
        currency: clientInvoices.currency,
        amount: sql<string>`sum(${clientInvoices.amountMinor})`,
      })
      .from(clientInvoices)
      .where(
        and(
          eq(clientInvoices.accountId, accountId),
          eq(clientInvoices.status, 'paid'),
          gte(clientInvoices.paidAt, from),
          lt(clientInvoices.paidAt, to),
        ),
      )
      .groupBy(clientInvoices.subaccountId, clientInvoices.currency),
    deps.db
      .select({ subaccountId: subaccountMonthlyUsage.subaccountId, credits: subaccountMonthlyUsage.credits })
      .from(subaccountMonthlyUsage)
      .innerJoin(subaccounts, eq(subaccounts.id, subaccountMonthlyUsage.subaccountId))
      .where(and(eq(subaccounts.accountId, accountId), eq(subaccountMonthlyUsage.month, month))),
  ]);
  const used = new Map(usage.map((row) => [row.subaccountId, Number(row.credits)]));
  const rows: TClientMarginRow[] = [];
  for (const client of clients) {
    const creditsUsed = used.get(client.id) ?? 0;
    const platformCostMinor = round(creditsUsed * price.minor);
    const earned = revenue.filter((row) => row.subaccountId === client.id);
    // One row per currency the client paid in (usually one); the platform cost goes with US dollars.
    const currencies = earned.length > 0 ? earned : [{ currency: 'usd', amount: '0' }];
    const costCurrency = currencies.find((row) => row.currency === 'usd') ? 'usd' : currencies[0]?.currency;
    for (const row of currencies) {
      const revenueMinor = Number(row.amount);
      const cost = row.currency === costCurrency ? platformCostMinor : 0;
      rows.push({
        subaccountId: client.id,
        name: client.name,
        planName: client.planName,
        currency: row.currency,
        revenueMinor,
        creditsUsed: round(row.currency === costCurrency ? creditsUsed : 0),
        platformCostMinor: cost,
        marginMinor: row.currency === 'usd' ? round(revenueMinor - cost) : null,
      });
    }
  }
  const usd = rows.filter((row) => row.currency === 'usd');
  const sum = (values: number[]) => round(values.reduce((total, value) => total + value, 0));
  return {
    month,
    creditPriceMinor: round(price.minor * 10_000) / 10_000,
    creditPriceSource: price.source,
    rows,
    totals: {
      revenueMinor: sum(usd.map((row) => row.revenueMinor)),
      platformCostMinor: sum(rows.map((row) => row.platformCostMinor)),
      marginMinor: rows.every((row) => row.currency === 'usd') ? sum(usd.map((row) => row.marginMinor ?? 0)) : null,
    },
  };
};

/** A CSV cell: quoted when needed, and a leading = + - @ (or tab, CR) made inert for spreadsheets. */
export const csvCell = (value: string | number | null): string => {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
};

/** An amount in major units, written as a number (never prefixed: it is ours, not typed by anyone). */
const money = (minor: number | null) => (minor === null ? '' : (minor / 100).toFixed(2));

export const marginCsv = (margin: TClientMargin): string => {
  const header = [
    'Month',
    'Client',
    'Client ID',
    'Plan',
    'Currency',
    'Revenue',
    'Credits used',
    'Platform cost (USD)',
    'Margin',
  ];
  const lines = margin.rows.map((row) =>
    [
      ...[margin.month, row.name, row.subaccountId, row.planName, row.currency.toUpperCase()].map(csvCell),
      money(row.revenueMinor),
      String(row.creditsUsed),
      money(row.platformCostMinor),
      money(row.marginMinor),
    ].join(','),
  );
  return `${[header.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`;
};
