import {
  cardPrice,
  creditsLine,
  formatPerMonth,
  formatPrice,
  PLAN_BUTTON_TEXT,
  type TPricingPlan,
  type TPricingVariant,
} from '@switchboard/core';
import { Check } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Label, Select } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { storage } from '../../lib/storage';

export type Interval = 'month' | 'year';

export interface PlanChoice {
  plan: TPricingPlan;
  priceId: string | null;
  tierCode: string;
  interval: Interval;
  couponId: string | null;
}

/** The price, its unit, the like-for-like anchor struck through, and the billing note. */
const CardPriceLine = ({ price }: { price: ReturnType<typeof cardPrice> }) => {
  const show = (value: number) => (price.unit === '/month' ? formatPerMonth(value) : formatPrice(value));
  return (
    <>
      <p>
        <span className="text-3xl font-bold">{show(price.amount)}</span>
        <span className="text-sm text-muted"> {price.unit}</span>
        {price.anchor && price.anchor > price.amount ? (
          <span className="ml-2 text-sm text-muted line-through">{show(price.anchor)}</span>
        ) : null}
      </p>
      {price.note ? <p className="text-xs text-muted">{price.note}</p> : null}
    </>
  );
};

const tierKey = (family: string, interval: Interval) => `pricing:tier:${family}:${interval}`;

export const PlanCard = ({
  plan,
  interval,
  variant,
  buttonText,
  currentPriceId,
  processing,
  unlocks = null,
  onChoose,
}: {
  plan: TPricingPlan;
  /** What this plan unlocks when the page was opened by 'Upgrade to Unlock': the card is highlighted. */
  unlocks?: string | null;
  interval: Interval;
  variant: TPricingVariant;
  buttonText: string;
  currentPriceId?: string | null;
  processing: boolean;
  onChoose: (choice: PlanChoice) => void;
}) => {
  const variantData = interval === 'year' ? (plan.yearly ?? plan.monthly) : plan.monthly;
  const packs = variantData?.creditPacks ?? [];
  const [tierCode, setTierCode] = useState(() => {
    const saved = storage.get<string | null>(tierKey(plan.planFamily, interval), null);
    return packs.some((pack) => pack.tierCode === saved) ? (saved as string) : (packs[0]?.tierCode ?? '');
  });
  const pack = packs.find((item) => item.tierCode === tierCode) ?? packs[0];
  const yearly = interval === 'year' && Boolean(plan.yearly);
  const isCurrent = Boolean(pack?.stripePriceId && pack.stripePriceId === currentPriceId);
  const pickerId = `tier-${variant}-${plan.planFamily}-${interval}`;
  const cardRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (unlocks) cardRef.current?.scrollIntoView({ block: 'center' });
  }, [unlocks]);

  const choose = (next: string) => {
    setTierCode(next);
    storage.set(tierKey(plan.planFamily, interval), next);
  };

  return (
    <article
      ref={cardRef}
      aria-label={plan.name}
      className={cn(
        'relative flex flex-col rounded-2xl border bg-surface p-6 text-left',
        plan.isFeatured ? 'border-primary shadow-lg' : 'border-border',
        unlocks ? 'ring-4 ring-primary' : null,
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-lg font-semibold">{plan.name}</h3>
        {plan.isFeatured ? (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-foreground">
            Most Popular
          </span>
        ) : null}
        {unlocks ? (
          <span className="rounded-full border border-primary px-2 py-0.5 text-xs font-semibold text-foreground">
            Unlocks {unlocks}
          </span>
        ) : null}
        {plan.highlight ? (
          <span className="rounded-full border border-primary px-2 py-0.5 text-xs font-semibold text-foreground">
            {plan.highlight}
          </span>
        ) : null}
      </div>
      <p className="mt-2 min-h-10 text-sm text-muted">{plan.description}</p>

      <div className="mt-4">
        {plan.fromPrice ? (
          <p>
            <span className="text-3xl font-bold">{formatPrice(plan.fromPrice)}+</span>
            <span className="text-sm text-muted"> /month</span>
          </p>
        ) : pack ? (
          <CardPriceLine price={cardPrice(pack, { yearlyAsMonthly: yearly })} />
        ) : null}
      </div>

      {packs.length > 0 ? (
        <div className="mt-4">
          <Label htmlFor={pickerId}>Credits</Label>
          <Select id={pickerId} value={pack?.tierCode ?? ''} onChange={(event) => choose(event.target.value)}>
            {packs.map((item) => (
              <option key={item.tierCode} value={item.tierCode}>
                {item.label}
                {item.savings ? ` · ${item.savings}` : ''}
              </option>
            ))}
          </Select>
          {pack ? <p className="mt-1 text-xs text-muted">{creditsLine(pack)}</p> : null}
        </div>
      ) : null}

      {plan.highlightedBenefits.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-2">
          {plan.highlightedBenefits.map((benefit) => (
            <li key={benefit} className="rounded-full border border-primary px-2 py-0.5 text-xs font-semibold">
              {benefit}
            </li>
          ))}
        </ul>
      ) : null}
      {plan.features.length > 0 ? (
        <ul className="mt-4 space-y-2 text-sm">
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <Check size={16} className="mt-0.5 shrink-0 text-primary" aria-hidden="true" />
              {feature}
            </li>
          ))}
        </ul>
      ) : null}

      <div className="mt-6 flex-1" />
      {plan.ctaHref ? (
        <a
          href={plan.ctaHref}
          target="_blank"
          rel="noreferrer"
          className="inline-flex h-10 items-center justify-center rounded-lg border border-border bg-surface px-4 text-sm font-medium hover:bg-surface-2"
        >
          {plan.buttonText ?? PLAN_BUTTON_TEXT.contact}
        </a>
      ) : !pack?.stripePriceId ? (
        <Button disabled>{PLAN_BUTTON_TEXT.withoutPrice}</Button>
      ) : (
        <Button
          disabled={isCurrent || processing}
          onClick={() =>
            onChoose({
              plan,
              priceId: pack.stripePriceId,
              tierCode: pack.tierCode,
              interval,
              couponId: variantData?.couponId ?? null,
            })
          }
        >
          {isCurrent ? PLAN_BUTTON_TEXT.current : (plan.buttonText ?? buttonText)}
        </Button>
      )}
    </article>
  );
};
