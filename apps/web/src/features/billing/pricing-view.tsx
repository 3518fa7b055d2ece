import type { TPricingVariant } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../components/ui/dialog';
import { api } from '../../lib/api';
import { useSession } from '../session/session';
import { useBillingAccess } from './billing-api';
import { startCheckout } from './checkout';
import { ManagePlanDialog } from './manage-plan-dialog';
import type { PlanChoice } from './plan-card';
import { PricingPlans } from './pricing-plans';

interface SubscriptionDetails {
  hasSubscription: boolean;
  subscription: { amount: number; priceId: string | null } | null;
}

export const useSubscriptionDetails = () => {
  const { user, currentSubaccount } = useSession();
  const { canManageBilling } = useBillingAccess();
  return useQuery({
    queryKey: ['billing', 'subscription', currentSubaccount?.id],
    enabled: Boolean(user && currentSubaccount && canManageBilling),
    retry: false,
    queryFn: () => api<SubscriptionDetails>('/stripe/subscription-details', { silent: true }),
  });
};

/** The pricing title and cards: checkout for a new subscription, the plan modal for a change. */
export const PricingView = ({
  variant = 'default',
  promoCode,
  unlock,
}: {
  variant?: TPricingVariant;
  promoCode?: string;
  /** What an 'Upgrade to Unlock' link came for: the plan that unlocks it is highlighted. */
  unlock?: string | null;
}) => {
  const { user, currentSubaccount } = useSession();
  const { account, canManageBilling } = useBillingAccess();
  // A client's login sees the plans but cannot buy for the agency: only its manager can.
  const agencyChooses = Boolean(user && currentSubaccount && !canManageBilling);
  const navigate = useNavigate();
  const details = useSubscriptionDetails();
  const [processing, setProcessing] = useState(false);
  const [change, setChange] = useState<PlanChoice | null>(null);
  const currentPriceId = details.data?.subscription?.priceId ?? null;

  const choose = async (choice: PlanChoice) => {
    if (user && details.data?.hasSubscription) {
      setChange(choice);
      return;
    }
    setProcessing(true);
    try {
      await startCheckout({
        priceId: choice.priceId,
        signedIn: Boolean(user),
        navigate,
        couponId: choice.couponId,
        promoCode,
      });
    } finally {
      setProcessing(false);
    }
  };

  return (
    <div className="mx-auto max-w-7xl px-4 text-center">
      <h2 id="pricing-title" className="text-3xl font-bold">
        <span className="sm:hidden">Simple Pricing</span>
        <span className="hidden sm:inline">Simple, transparent pricing</span>
      </h2>
      <p className="mx-auto mt-2 mb-8 max-w-xl text-muted">
        Every account starts on the free plan. Pick a credit pack when you need more.
      </p>
      {agencyChooses ? (
        <p role="note" className="mx-auto mb-6 max-w-xl rounded-lg border border-border p-3 text-sm">
          {account ? `${account.name}'s` : "Your agency's"} plan and credits are bought by its owner or an admin of all
          its sub-accounts.
        </p>
      ) : null}
      <PricingPlans
        variant={variant}
        promoCode={promoCode}
        unlock={unlock}
        currentPriceId={currentPriceId}
        processing={processing || agencyChooses}
        onChoose={(choice) => void choose(choice)}
      />
      {change ? (
        <ManagePlanDialog open initialChoice={change} onOpenChange={(open) => (open ? null : setChange(null))} />
      ) : null}
    </div>
  );
};

/** The pricing modal (secretModal variant), e.g. for a signed-in user without a plan. */
export const PricingDialog = ({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) => (
  <Dialog open={open} onOpenChange={onOpenChange} title="Choose a plan" className="max-w-4xl">
    <PricingView variant="secretModal" />
  </Dialog>
);
