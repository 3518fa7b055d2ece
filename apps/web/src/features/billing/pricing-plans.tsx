import {
  ANNUAL_DISCOUNT_BADGE,
  buildPricingPlans,
  defaultButtonText,
  isMonthlyOnly,
  planUnlocking,
  showsIntervalToggle,
  type TPricingVariant,
  type TUnlockable,
  unlockLabel,
} from '@switchboard/core';
import { useMemo, useState } from 'react';
import { Spinner } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { usePlanCatalog } from './billing-api';
import { type Interval, PlanCard, type PlanChoice } from './plan-card';

export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this server. Plans cannot be bought yet.';
export const SANDBOX_PRICING_NOTICE = 'Sandbox payments: checkout here is a test and no card is charged.';

const GRID: Record<TPricingVariant, string> = {
  default: 'sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4',
  secret: 'sm:grid-cols-2 lg:grid-cols-3',
  secretModal: 'sm:grid-cols-2',
  promotional: 'mx-auto max-w-sm',
  discount: 'sm:grid-cols-2 lg:grid-cols-3',
};

export const IntervalToggle = ({ value, onChange }: { value: Interval; onChange: (next: Interval) => void }) => (
  <fieldset className="inline-flex rounded-full border border-border bg-surface p-1">
    <legend className="sr-only">Billing period</legend>
    {(['month', 'year'] as const).map((interval) => (
      <button
        key={interval}
        type="button"
        aria-pressed={value === interval}
        onClick={() => onChange(interval)}
        className={cn(
          'rounded-full px-4 py-1.5 text-sm font-medium',
          value === interval ? 'bg-primary text-primary-foreground' : 'text-foreground hover:bg-surface-2',
        )}
      >
        {interval === 'month' ? 'Monthly' : 'Annually'}
        {interval === 'year' ? (
          <span className="ml-2 rounded-full border border-current px-1.5 py-0.5 text-xs font-semibold">
            {ANNUAL_DISCOUNT_BADGE}
          </span>
        ) : null}
      </button>
    ))}
  </fieldset>
);

/** The plan cards of a pricing variant with the Monthly/Annually toggle. */
export const PricingPlans = ({
  variant,
  promoCode,
  unlock,
  currentPriceId,
  processing = false,
  onChoose,
}: {
  variant: TPricingVariant;
  promoCode?: string | null;
  unlock?: string | null;
  currentPriceId?: string | null;
  processing?: boolean;
  onChoose: (choice: PlanChoice) => void;
}) => {
  const catalog = usePlanCatalog();
  const forcedMonthly = isMonthlyOnly(variant);
  const [interval, setInterval] = useState<Interval>('month');
  const plans = useMemo(
    () =>
      catalog.data
        ? buildPricingPlans(catalog.data.plans, variant, { salesUrl: catalog.data.salesUrl, promoCode })
        : [],
    [catalog.data, variant, promoCode],
  );
  if (catalog.isLoading) return <Spinner label="Loading plans" />;
  if (catalog.error)
    return (
      <p role="alert" className="text-sm text-danger">
        {catalog.error.message}
      </p>
    );
  if (plans.length === 0) return <p className="text-sm text-muted">No plans available.</p>;
  const period = forcedMonthly ? 'month' : interval;
  const payments = catalog.data?.payments;
  const unlocking = unlockLabel(unlock);
  const unlockFamily = unlocking ? planUnlocking(unlock as TUnlockable) : null;
  const unlockPlan = plans.find((plan) => plan.planFamily === unlockFamily);
  return (
    <div>
      {unlocking && unlockPlan ? (
        <p role="status" className="mx-auto mb-6 max-w-xl rounded-lg border border-primary p-3 text-sm">
          {unlockPlan.name} unlocks {unlocking}. It is highlighted below.
        </p>
      ) : null}
      {payments === 'none' ? (
        <p role="alert" className="mx-auto mb-6 max-w-xl rounded-lg border border-danger/60 bg-surface-2 p-3 text-sm">
          {PAYMENTS_NOT_CONFIGURED}
        </p>
      ) : null}
      {payments === 'sandbox' ? (
        <p role="note" className="mx-auto mb-6 max-w-xl rounded-lg border border-border p-3 text-sm text-muted">
          {SANDBOX_PRICING_NOTICE}
        </p>
      ) : null}
      {showsIntervalToggle(plans, variant) ? (
        <div className="mb-8 flex justify-center">
          <IntervalToggle value={interval} onChange={setInterval} />
        </div>
      ) : null}
      <div className={cn('grid gap-4', GRID[variant])}>
        {plans.map((plan) => (
          <PlanCard
            key={`${plan.planFamily}-${period}`}
            plan={plan}
            interval={period}
            variant={variant}
            buttonText={defaultButtonText(variant)}
            currentPriceId={currentPriceId}
            processing={processing || payments === 'none'}
            unlocks={plan.planFamily === unlockFamily ? unlocking : null}
            onChoose={onChoose}
          />
        ))}
      </div>
    </div>
  );
};
