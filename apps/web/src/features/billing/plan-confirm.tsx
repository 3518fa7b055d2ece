import {
  downgradeLosses,
  findTier,
  formatCreditCount,
  formatMinor,
  overUsageWarning,
  PLAN_ALREADY_ACTIVE,
  type TPlanChangeType,
  type TProrationPreview,
  type TUsageBalance,
} from '@switchboard/core';
import { Spinner } from '../../components/ui/card';
import type { currentPosition } from './plan-position';

const dateText = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }) : '—';

const Row = ({ label, value }: { label: string; value: string }) => (
  <div className="flex justify-between gap-4 py-1 text-sm">
    <dt className="text-muted">{label}</dt>
    <dd className="font-medium">{value}</dd>
  </div>
);

/** Step 2 of the plan modal: what changes, the proration preview or what a downgrade loses. */
export const PlanConfirmSummary = ({
  type,
  current,
  priceId,
  preview,
  previewLoading,
  balance,
}: {
  type: TPlanChangeType;
  current: ReturnType<typeof currentPosition>;
  priceId: string;
  preview: TProrationPreview | null;
  previewLoading: boolean;
  balance: TUsageBalance | null;
}) => {
  const target = findTier(priceId);
  if (!target) return null;
  const losses =
    type === 'downgrade'
      ? downgradeLosses(current, { creditLimit: target.credit_limit, capabilities: target.capabilities })
      : [];
  const warning = type === 'downgrade' ? overUsageWarning(balance?.usageUsed ?? 0, target.credit_limit) : null;
  return (
    <div className="space-y-4 text-left">
      <dl className="rounded-lg border border-border p-3">
        <Row
          label="Current plan"
          value={`${current.displayName} · ${formatCreditCount(current.creditLimit)} credits`}
        />
        <Row label="New plan" value={`${target.display_name} · ${formatCreditCount(target.credit_limit)} credits`} />
        <Row
          label="Price"
          value={`${formatMinor(Math.round(target.price * 100))} / ${target.interval === 'year' ? 'year' : 'month'}`}
        />
      </dl>
      {type === 'none' ? <p className="text-sm">{PLAN_ALREADY_ACTIVE}</p> : null}
      {type === 'upgrade' || type === 'switch' ? (
        previewLoading ? (
          <Spinner label="Calculating proration" />
        ) : preview ? (
          <dl className="rounded-lg border border-border p-3" aria-label="Proration preview">
            <Row label="Credit for unused time" value={`-${formatMinor(preview.creditAmount, preview.currency)}`} />
            <Row label="New plan charge" value={formatMinor(preview.chargeAmount, preview.currency)} />
            <Row label="Total due now" value={formatMinor(preview.totalDueNow, preview.currency)} />
            <Row label="Days remaining in period" value={String(preview.daysRemaining)} />
            <Row label="Next billing date" value={dateText(preview.nextBillingDate)} />
            {preview.billingCycleReset ? (
              <p className="pt-1 text-xs text-muted">Your billing cycle restarts today.</p>
            ) : null}
          </dl>
        ) : null
      ) : null}
      {type === 'downgrade' ? (
        <div className="space-y-2 text-sm">
          <p>Your plan changes at the end of the billing period. You keep your current allowance until renewal.</p>
          {losses.length > 0 ? (
            <>
              <p className="font-medium">You will lose:</p>
              <ul className="list-disc space-y-1 pl-5">
                {losses.map((loss) => (
                  <li key={loss}>{loss}</li>
                ))}
              </ul>
            </>
          ) : null}
          {warning ? (
            <p role="alert" className="rounded-lg border-l-4 border-amber-500 bg-surface-2 p-2">
              {warning}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
};
