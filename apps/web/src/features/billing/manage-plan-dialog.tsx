import {
  findTier,
  formatMinor,
  MISSING_PRICE_ID,
  planChangeType,
  type TProrationPreview,
  type TUsageResponse,
} from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { api } from '../../lib/api';
import { useSession } from '../session/session';
import { usageKey, useBillingRefresh } from './billing-api';
import { startCheckout } from './checkout';
import type { PlanChoice } from './plan-card';
import { PlanConfirmSummary } from './plan-confirm';
import { currentPosition } from './plan-position';
import { PricingPlans } from './pricing-plans';
import { useSubscriptionDetails } from './pricing-view';
import { type Banner, failureBanner, StatusBanner } from './status-banner';

interface UpgradeAnswer {
  proration: { amountCharged: number; creditAmount: number; chargeAmount: number; currency: string };
  message: string;
  requiresAction: boolean;
}

/** The two-step 'Manage your plan' modal: pick a tier, then confirm the change. */
export const ManagePlanDialog = ({
  open,
  onOpenChange,
  initialChoice = null,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialChoice?: PlanChoice | null;
}) => {
  const { user } = useSession();
  const navigate = useNavigate();
  const refresh = useBillingRefresh();
  const details = useSubscriptionDetails();
  const usage = useQuery({
    queryKey: usageKey,
    queryFn: () => api<TUsageResponse>('/api/openrouter/usage', { silent: true }),
    enabled: open,
    staleTime: 60_000,
  });
  const [choice, setChoice] = useState<PlanChoice | null>(initialChoice);
  const [banner, setBanner] = useState<Banner | null>(null);
  const [processing, setProcessing] = useState(false);
  const current = currentPosition(usage.data?.balance);
  const target = choice?.priceId ? findTier(choice.priceId) : undefined;
  const hasSubscription = Boolean(details.data?.hasSubscription);
  const type = target
    ? planChangeType(hasSubscription ? current : null, {
        planCode: target.plan_code,
        tierCode: target.tier_code,
        creditLimit: target.credit_limit,
      })
    : 'none';
  const wantsPreview = Boolean(open && choice?.priceId && hasSubscription && (type === 'upgrade' || type === 'switch'));
  const preview = useQuery({
    queryKey: ['billing', 'preview', choice?.priceId],
    enabled: wantsPreview,
    retry: false,
    staleTime: 0,
    queryFn: async () =>
      (
        await api<{ proration: TProrationPreview }>('/stripe/preview-upgrade', {
          body: { newPriceId: choice?.priceId, renewCycle: true },
          silent: true,
        })
      ).proration,
  });

  const close = (next: boolean) => {
    if (!next) {
      setChoice(null);
      setBanner(null);
      setProcessing(false);
    }
    onOpenChange(next);
  };

  const confirm = async () => {
    if (!choice?.priceId) {
      setBanner({ type: 'error', title: MISSING_PRICE_ID });
      return;
    }
    setProcessing(true);
    setBanner(null);
    try {
      if (!hasSubscription) {
        await startCheckout({ priceId: choice.priceId, signedIn: Boolean(user), navigate, couponId: choice.couponId });
        close(false);
        return;
      }
      if (type === 'downgrade') {
        const answer = await api<{ message: string }>('/stripe/schedule-downgrade', {
          body: { newPriceId: choice.priceId },
          silent: true,
        });
        await refresh();
        setBanner({ type: 'success', title: 'Downgrade scheduled', description: answer.message });
        return;
      }
      const answer = await api<UpgradeAnswer>('/stripe/upgrade-subscription', {
        body: { newPriceId: choice.priceId, renewCycle: true, prorationDate: preview.data?.prorationDate },
        silent: true,
      });
      await refresh();
      if (answer.requiresAction) {
        setBanner({
          type: 'warning',
          title: 'Action required to finish upgrade',
          description: 'Complete the verification or update your payment method in the billing portal.',
        });
        return;
      }
      const charged = answer.proration.amountCharged;
      const credit = Math.max(0, answer.proration.creditAmount - answer.proration.chargeAmount);
      const description =
        charged > 0 || credit === 0
          ? `We charged ${formatMinor(charged, answer.proration.currency)} immediately.`
          : `A credit of ${formatMinor(credit, answer.proration.currency)} will apply to the next invoice.`;
      setBanner({ type: 'success', title: 'Plan updated', description });
    } catch (error) {
      setBanner(failureBanner(error, 'Unable to update plan. Please try again.'));
    } finally {
      setProcessing(false);
    }
  };

  const done = banner?.type === 'success';
  return (
    <Dialog open={open} onOpenChange={close} title="Manage your plan" className="max-w-5xl">
      <div className="space-y-4">
        {banner ? <StatusBanner banner={banner} /> : null}
        {!choice ? (
          <>
            <p className="text-sm text-muted">Step 1 of 2</p>
            <PricingPlans
              variant="secretModal"
              currentPriceId={hasSubscription ? current.priceId : null}
              onChoose={(next) => {
                setBanner(null);
                setChoice(next);
              }}
            />
            <p className="text-center text-sm text-muted">Select a plan to continue and view billing details</p>
          </>
        ) : (
          <>
            <p className="text-sm text-muted">Step 2 of 2</p>
            {choice.priceId ? (
              <PlanConfirmSummary
                type={type}
                current={current}
                priceId={choice.priceId}
                preview={preview.data ?? null}
                previewLoading={wantsPreview && preview.isFetching}
                balance={usage.data?.balance ?? null}
              />
            ) : null}
            {preview.error ? (
              <StatusBanner banner={failureBanner(preview.error, 'Unable to calculate proration. Please try again.')} />
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setChoice(null)} disabled={processing}>
                Back
              </Button>
              {done ? (
                <Button onClick={() => close(false)}>Done</Button>
              ) : (
                <Button
                  onClick={() => void confirm()}
                  disabled={
                    processing ||
                    type === 'none' ||
                    !choice.tierCode ||
                    ((type === 'upgrade' || type === 'switch') &&
                      hasSubscription &&
                      (preview.isFetching || !preview.data))
                  }
                >
                  {processing ? 'Processing...' : type === 'downgrade' ? 'Schedule downgrade' : 'Confirm change'}
                </Button>
              )}
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
};
