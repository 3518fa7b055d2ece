import { findTier, formatCreditCount, formatCreditsShort, usageNumbers } from '@switchboard/core';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';
import { usePortalContext } from '../portal/api';
import { useSession } from '../session/session';
import { AllowancesCard } from './allowances-card';
import { useBillingAccess, useBillingRefresh, useUsagePoller } from './billing-api';
import { ManagePlanDialog } from './manage-plan-dialog';
import { currentPosition } from './plan-position';
import { PromoForm } from './promo-form';
import { type Banner, failureBanner, StatusBanner } from './status-banner';
import { UsageBreakdownCard } from './usage-breakdown';
import { UsageChart } from './usage-chart';

const dateText = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }) : '';

const Stat = ({ label, value }: { label: string; value: string }) => (
  <div className="rounded-lg border border-border p-3">
    <p className="text-xs text-muted">{label}</p>
    <p className="mt-1 text-xl font-semibold">{value}</p>
  </div>
);

/** What a client's login reads instead of the agency's balance and plan. */
const ClientNotice = ({ accountName }: { accountName: string | null }) => (
  <Card>
    <h2 className="text-lg font-semibold">Your usage</h2>
    <p className="mt-1 text-sm text-muted">
      The usage and credit allowance of the sub-accounts you belong to. {accountName ?? 'The agency'}'s plan, credits
      and invoices are managed by its owner or an admin of all its sub-accounts.
    </p>
  </Card>
);

/**
 * /usage: balance, plan and bonus credits, usage logs and chart, promo codes and plan notices for
 * the agency's manager; a client's login sees its own sub-accounts' usage and allowance only.
 */
export const UsagePage = () => {
  const { account, canManageBilling } = useBillingAccess();
  const { currentSubaccount } = useSession();
  // A client (portal) reads the agency by its brand name, never its internal account name.
  const portal = usePortalContext(currentSubaccount?.role === 'client' ? currentSubaccount.id : null);
  const agencyName =
    currentSubaccount?.role === 'client' ? (portal.data?.branding.name ?? null) : (account?.name ?? null);
  const { data, error, loading, refetch } = useUsagePoller();
  const refresh = useBillingRefresh();
  const [params, setParams] = useSearchParams();
  const [banner, setBanner] = useState<Banner | null>(null);
  const [managing, setManaging] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (params.get('upgrade_success') === 'true') {
      setBanner({ type: 'success', title: 'Plan updated', description: 'Your new plan and its credits are active.' });
      params.delete('upgrade_success');
      setParams(params, { replace: true });
    }
  }, [params, setParams]);

  const act = async (path: string, body: object | undefined, fallback: string, success: string) => {
    setBusy(true);
    try {
      const answer = await api<{ message?: string }>(path, { body: body ?? {}, silent: true });
      setBanner({ type: 'success', title: success, description: answer.message });
      await refresh();
      await refetch();
    } catch (thrown) {
      setBanner(failureBanner(thrown, fallback));
    } finally {
      setBusy(false);
    }
  };

  if (loading && !data) return <Spinner label="Loading usage" />;
  const balance = data?.balance;
  const numbers = usageNumbers(balance);
  const plan = currentPosition(balance);
  const scheduled =
    balance?.scheduledPriceId && balance.scheduledChangeDate ? findTier(balance.scheduledPriceId) : undefined;

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeading
        title="Usage"
        description={canManageBilling ? 'Credits, usage logs and promo codes.' : 'Usage of your sub-accounts.'}
      />
      {banner ? <StatusBanner banner={banner} /> : null}
      {error && !data ? (
        <StatusBanner banner={{ type: 'error', title: 'Unable to load usage', description: error }} />
      ) : null}
      {data && !canManageBilling ? <ClientNotice accountName={agencyName} /> : null}
      {balance && canManageBilling ? (
        <Card className="space-y-4">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 className="text-lg font-semibold">Credit balance</h2>
              <p className="text-sm text-muted">
                Plan: <span className="font-medium text-foreground">{plan.displayName}</span>
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Link
                to="/settings#billing"
                className="inline-flex h-10 items-center rounded-lg border border-border px-4 text-sm font-medium hover:bg-surface-2"
              >
                Buy credits
              </Link>
              <Button variant="secondary" onClick={() => setManaging(true)}>
                Manage plan
              </Button>
            </div>
          </div>
          <div>
            <div
              role="progressbar"
              aria-label="Credits used"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(numbers.usedPercent)}
              className="h-3 w-full overflow-hidden rounded-full bg-surface-2"
            >
              <div className="h-full rounded-full bg-primary" style={{ width: `${numbers.usedPercent}%` }} />
            </div>
            <p className="mt-1 text-sm text-muted">{numbers.usedPercent.toFixed(1)}% used</p>
          </div>
          <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
            <Stat label="Remaining credits" value={formatCreditsShort(numbers.remaining)} />
            <Stat
              label="Plan credits"
              value={`${formatCreditsShort(numbers.planRemaining)} / ${formatCreditCount(balance.planCreditLimit)}`}
            />
            <Stat label="Bonus credits" value={formatCreditsShort(numbers.bonusRemaining)} />
            <Stat label="Used this period" value={formatCreditsShort(balance.usageUsed)} />
          </div>
          {scheduled ? (
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border-l-4 border-amber-500 bg-surface-2 p-3 text-sm">
              <p>
                Downgrade to <strong>{scheduled.display_name}</strong> scheduled for{' '}
                {dateText(balance.scheduledChangeDate)}.
              </p>
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  void act(
                    '/stripe/cancel-scheduled-downgrade',
                    undefined,
                    'Failed to cancel scheduled downgrade.',
                    'Downgrade cancelled',
                  )
                }
              >
                Cancel downgrade
              </Button>
            </div>
          ) : null}
          {balance.cancelAtPeriodEnd ? (
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border-l-4 border-amber-500 bg-surface-2 p-3 text-sm">
              <p>Your subscription is scheduled to end at the close of the billing period.</p>
              <Button
                size="sm"
                disabled={busy}
                onClick={() =>
                  void act('/stripe/resubscribe', undefined, 'Failed to resume subscription.', 'Subscription resumed')
                }
              >
                Resubscribe
              </Button>
            </div>
          ) : plan.planCode !== 'free' ? (
            <div className="text-right">
              <Button
                size="sm"
                variant="ghost"
                disabled={busy}
                onClick={() =>
                  void act(
                    '/stripe/cancel-subscription',
                    { cancelAtPeriodEnd: true },
                    'Failed to schedule cancellation.',
                    'Cancellation scheduled',
                  )
                }
              >
                Cancel subscription
              </Button>
            </div>
          ) : null}
        </Card>
      ) : null}

      <AllowancesCard />

      <UsageBreakdownCard />

      {canManageBilling ? (
        <Card>
          <h2 className="mb-3 text-lg font-semibold">Redeem a promo code</h2>
          <PromoForm onBanner={setBanner} onRedeemed={() => void refetch()} />
        </Card>
      ) : null}

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">Usage logs</h2>
        <UsageChart logs={data?.usageLogs ?? []} />
        {(data?.usageLogs.length ?? 0) > 0 ? (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          <section className="relative overflow-x-auto" tabIndex={0} aria-label="Usage log table">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Usage logs</caption>
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Time
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Model
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Source
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    Tokens
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Credits
                  </th>
                </tr>
              </thead>
              <tbody>
                {data?.usageLogs.slice(0, 100).map((log) => (
                  <tr key={log.id} className="border-t border-border">
                    <td className="py-2 pr-4 whitespace-nowrap">{new Date(log.timestamp).toLocaleString('en-US')}</td>
                    <td className="py-2 pr-4">{log.model}</td>
                    <td className="py-2 pr-4">{log.source}</td>
                    <td className="py-2 pr-4 text-right">{formatCreditCount(log.usage_total)}</td>
                    <td className="py-2 text-right">
                      {log.cost.toLocaleString('en-US', { maximumFractionDigits: 4 })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ) : null}
      </Card>
      {managing && canManageBilling ? <ManagePlanDialog open onOpenChange={setManaging} /> : null}
    </div>
  );
};
