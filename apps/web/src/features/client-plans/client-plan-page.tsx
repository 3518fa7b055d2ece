import type { TClientPlan, TClientPlanView } from '@switchboard/core';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { useConnectContext } from '../connection/connection-layout';
import { BalanceSettings } from './balance-settings';
import { useCancelPlan, useChoosePlan, useClientPlan } from './client-plan-api';
import { formatCreditPrice, formatDate, formatMinor, SandboxBadge } from './format';

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment due',
  unpaid: 'Unpaid',
  incomplete: 'Incomplete',
};

/** Credits used this month against the plan's included credits. */
export const UsageBar = ({ used, included }: { used: number; included: number | null }) => {
  const share = included ? Math.min(1, used / included) : 0;
  const label = included
    ? `${Math.round(used).toLocaleString('en-US')} of ${included.toLocaleString('en-US')} credits used this month`
    : `${Math.round(used).toLocaleString('en-US')} credits used this month`;
  return (
    <div className="space-y-1">
      <p className="text-sm">{label}</p>
      {included ? (
        <div
          role="progressbar"
          aria-label="Credits used this month"
          aria-valuemin={0}
          aria-valuemax={included}
          aria-valuenow={Math.min(Math.round(used), included)}
          className="h-2 w-full overflow-hidden rounded-full bg-surface-2"
        >
          <div
            className={cn(
              'h-full rounded-full',
              share >= 1 ? 'bg-danger' : share >= 0.8 ? 'bg-amber-500' : 'bg-primary',
            )}
            style={{ width: `${share * 100}%` }}
          />
        </div>
      ) : null}
    </div>
  );
};

const PlanOffer = ({
  plan,
  current,
  canChoose,
  busy,
  onChoose,
}: {
  plan: TClientPlan;
  current: boolean;
  canChoose: boolean;
  busy: boolean;
  onChoose: () => void;
}) => (
  <li className={cn('flex flex-col gap-2 rounded-lg border p-4', current ? 'border-primary' : 'border-border')}>
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <h3 className="font-semibold">{plan.name}</h3>
      <span className="font-medium">
        {formatMinor(plan.priceMinor, plan.currency)}
        <span className="text-sm text-muted"> / month</span>
      </span>
    </div>
    <p className="text-sm text-muted">
      {plan.includedCredits.toLocaleString('en-US')} credits a month
      {plan.extraCreditPriceMinor !== null
        ? `, then ${formatCreditPrice(plan.extraCreditPriceMinor, plan.currency)} per extra credit`
        : ', no extra credits'}
    </p>
    {current ? (
      <p className="text-sm font-medium">Your current plan</p>
    ) : canChoose ? (
      <Button className="self-start" size="sm" disabled={busy} onClick={onChoose}>
        Choose {plan.name}
      </Button>
    ) : null}
  </li>
);

export const ClientPlanView = ({ view }: { view: TClientPlanView }) => {
  const choose = useChoosePlan(view.subaccountId);
  const cancel = useCancelPlan(view.subaccountId);
  const [params] = useSearchParams();
  const subscription = view.subscription;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <PageHeading title="Plan" description="Your plan, your credits this month and your invoices." />
        {view.sandbox || subscription?.sandbox ? <SandboxBadge /> : null}
      </div>
      {params.get('checkout') === 'success' ? (
        <p role="status" className="rounded-lg border border-border p-3 text-sm">
          Thank you. Your plan starts as soon as the payment is confirmed.
        </p>
      ) : null}
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">Current plan</h2>
        {subscription ? (
          <div className="space-y-1 text-sm">
            <p>
              <span className="font-medium">{subscription.plan.name}</span> ·{' '}
              {formatMinor(subscription.plan.priceMinor, subscription.plan.currency)} / month ·{' '}
              {STATUS_LABELS[subscription.status] ?? subscription.status}
            </p>
            <p className="text-muted">
              {subscription.cancelAtPeriodEnd ? 'Ends on ' : 'Renews on '}
              {formatDate(subscription.currentPeriodEnd)}
            </p>
          </div>
        ) : (
          <p className="text-sm text-muted">No plan yet. Choose one below.</p>
        )}
        <UsageBar used={view.usage.used} included={view.usage.included} />
        {subscription && view.canManage && !subscription.cancelAtPeriodEnd ? (
          <Button variant="secondary" size="sm" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
            Cancel at the end of the period
          </Button>
        ) : null}
      </Card>
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">{subscription ? 'Change plan' : 'Choose a plan'}</h2>
        {!view.paymentsAvailable ? (
          <p className="text-sm text-muted">This agency has not connected Stripe yet.</p>
        ) : null}
        {view.sandbox ? (
          <p className="text-sm text-muted">Sandbox: checkout takes no real payment and no card is charged.</p>
        ) : null}
        {view.plans.length === 0 ? <p className="text-sm text-muted">No plans are offered yet.</p> : null}
        <ul className="grid gap-3 sm:grid-cols-2">
          {view.plans.map((plan) => (
            <PlanOffer
              key={plan.id}
              plan={plan}
              current={subscription?.plan.id === plan.id && !subscription.cancelAtPeriodEnd}
              canChoose={view.canManage && view.paymentsAvailable}
              busy={choose.isPending}
              onChoose={() => choose.mutate(plan.id)}
            />
          ))}
        </ul>
        {!view.canManage ? (
          <p className="text-sm text-muted">Ask an admin of this account to change the plan.</p>
        ) : null}
      </Card>
      {view.canManage && subscription ? (
        <BalanceSettings
          subaccountId={view.subaccountId}
          balance={view.balance}
          capped={subscription.plan.extraCreditPriceMinor === null}
        />
      ) : null}
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">Invoices</h2>
        {view.invoices.length === 0 ? (
          <p className="text-sm text-muted">No invoices yet.</p>
        ) : (
          <ul className="divide-y divide-border text-sm">
            {view.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {formatDate(invoice.paidAt ?? invoice.periodStart)}
                  {invoice.kind === 'overage' ? ' · Extra credits' : invoice.kind === 'topup' ? ' · Top-up' : ''}
                  {invoice.sandbox ? ' · Sandbox' : ''}
                </span>
                <span className="flex items-center gap-3">
                  <span className="font-medium">{formatMinor(invoice.amountMinor, invoice.currency)}</span>
                  <span className="text-muted">{invoice.status === 'paid' ? 'Paid' : invoice.status}</span>
                  {invoice.url ? (
                    <a
                      href={invoice.url}
                      target="_blank"
                      rel="noreferrer"
                      className="underline decoration-primary decoration-2"
                    >
                      View
                    </a>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
};

/** /{subaccountId}/plan: the client's plan with its agency. */
export const ClientPlanPage = () => {
  const context = useConnectContext();
  const view = useClientPlan(context.data?.subaccountId);
  if (view.isError) {
    return (
      <p role="alert" className="p-6 text-sm text-danger">
        {view.error instanceof Error ? view.error.message : 'The plan could not be loaded'}
      </p>
    );
  }
  if (!view.data) return <Spinner label="Loading the plan" />;
  return <ClientPlanView view={view.data} />;
};
