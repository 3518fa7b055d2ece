import { formatMinor, UPGRADE_DIALOG } from '@switchboard/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/card';
import { Dialog } from '../../components/ui/dialog';
import { api } from '../../lib/api';
import { useSession } from '../session/session';
import { useBillingRefresh } from './billing-api';
import { startCheckout } from './checkout';
import { IntervalToggle } from './pricing-plans';
import { useSubscriptionDetails } from './pricing-view';

type Phase = 'calculating' | 'confirming' | 'processing' | 'success' | 'error';

interface Quote {
  creditAmount: number;
  chargeAmount: number;
  totalDueNow: number;
  daysRemaining: number;
  prorationDate?: number;
  estimated: boolean;
}

const FRIENDLY: Record<string, string> = {
  card_declined: 'Your card was declined. Please use a different card.',
  insufficient_funds: 'Your card has insufficient funds.',
  payment_method_required: 'A payment method is required. Add one in Settings (/settings).',
  authentication_required: 'Your bank requires authentication. Please complete verification.',
  expired_card: 'Your card has expired. Please update your payment method.',
};

const upgradeError = (error: unknown) => {
  const err = error as { reason?: string };
  return (err?.reason && FRIENDLY[err.reason]) || 'Failed to process upgrade. Please try again.';
};

/**
 * The evaluation flow's 'Upgrade to Unlock' dialog (For AI Entrepreneurs: 79 a month or 462 a
 * year), with its 'Confirm Plan Upgrade' step: calculating, confirming, processing, success or error.
 */
export const UpgradeDialog = ({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) => {
  const { user } = useSession();
  const navigate = useNavigate();
  const refresh = useBillingRefresh();
  const details = useSubscriptionDetails();
  const [interval, setInterval] = useState<'month' | 'year'>('month');
  const [phase, setPhase] = useState<Phase | null>(null);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const priceId = interval === 'month' ? UPGRADE_DIALOG.monthlyPriceId : UPGRADE_DIALOG.yearlyPriceId;
  const newCents = (interval === 'month' ? UPGRADE_DIALOG.monthlyPrice : UPGRADE_DIALOG.yearlyPrice) * 100;

  const begin = async () => {
    if (!user) {
      navigate('/auth/signin');
      return;
    }
    if (!details.data?.hasSubscription) {
      await startCheckout({ priceId, signedIn: true, navigate, successPath: '/connect?upgrade_success=true' });
      return;
    }
    setPhase('calculating');
    try {
      const answer = await api<{ proration: Quote }>('/stripe/preview-upgrade', {
        body: { newPriceId: priceId },
        silent: true,
      });
      setQuote({ ...answer.proration, estimated: false });
    } catch {
      const current = details.data?.subscription?.amount ?? 0;
      const credit = Math.round(current * 0.99);
      setQuote({
        creditAmount: credit,
        chargeAmount: newCents,
        totalDueNow: Math.max(0, newCents - credit),
        daysRemaining: 364,
        estimated: true,
      });
    }
    setPhase('confirming');
  };

  const confirm = async () => {
    setPhase('processing');
    try {
      const answer = await api<{ success: boolean; error?: string }>('/stripe/upgrade-subscription', {
        body: { newPriceId: priceId },
        silent: true,
      });
      if (!answer.success) throw new Error(answer.error ?? 'Failed to process upgrade. Please try again.');
      setPhase('success');
      await refresh();
      setTimeout(() => onOpenChange(false), 2_000);
      setTimeout(() => window.location.reload(), 2_000);
    } catch (thrown) {
      setError(upgradeError(thrown));
      setPhase('error');
    }
  };

  return (
    <>
      <Dialog open={open && phase === null} onOpenChange={onOpenChange} title="Upgrade to Unlock" className="max-w-md">
        <div className="space-y-4 text-center">
          <IntervalToggle value={interval} onChange={setInterval} />
          {interval === 'month' ? (
            <p>
              <span className="text-3xl font-bold">${UPGRADE_DIALOG.monthlyPrice}</span>
              <span className="text-muted"> /month</span>
            </p>
          ) : (
            <div>
              <p>
                <span className="text-3xl font-bold">${UPGRADE_DIALOG.yearlyPerMonth.toFixed(2)}</span>
                <span className="text-muted"> /month</span>
              </p>
              <p className="text-sm text-muted">
                ${UPGRADE_DIALOG.yearlyPrice} billed yearly · {UPGRADE_DIALOG.yearlySavings} ·{' '}
                <span className="line-through">${UPGRADE_DIALOG.yearlyAnchor}</span>
              </p>
            </div>
          )}
          <p className="text-sm">
            Unlimited sub-accounts, unlimited connections, marketplace access and advanced prompt testing.
          </p>
          <Button className="w-full" onClick={() => void begin()}>
            Upgrade
          </Button>
        </div>
      </Dialog>
      <Dialog
        open={open && phase !== null}
        onOpenChange={(next) => {
          if (!next) {
            setPhase(null);
            onOpenChange(false);
          }
        }}
        title="Confirm Plan Upgrade"
        dismissible={phase !== 'processing' && phase !== 'success'}
        hideClose={phase === 'processing' || phase === 'success'}
      >
        <div className="space-y-3 text-sm">
          {phase === 'calculating' ? <Spinner label="Calculating" /> : null}
          {quote && (phase === 'confirming' || phase === 'processing') ? (
            <dl className="space-y-1">
              <div className="flex justify-between">
                <dt className="text-muted">Credit for unused time</dt>
                <dd>-{formatMinor(quote.creditAmount)}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-muted">New plan</dt>
                <dd>{formatMinor(quote.chargeAmount)}</dd>
              </div>
              <div className="flex justify-between font-semibold">
                <dt>Due now</dt>
                <dd>{formatMinor(quote.totalDueNow)}</dd>
              </div>
              <p className="text-xs text-muted">
                {quote.daysRemaining} days remaining{quote.estimated ? ' (estimate)' : ''}
              </p>
            </dl>
          ) : null}
          {phase === 'processing' ? <Spinner label="Processing" /> : null}
          {phase === 'success' ? <p role="status">Your plan was upgraded.</p> : null}
          {phase === 'error' ? (
            <p role="alert" className="text-danger">
              {error}
            </p>
          ) : null}
          {phase === 'confirming' ? (
            <Button className="w-full" onClick={() => void confirm()}>
              Confirm upgrade
            </Button>
          ) : null}
        </div>
      </Dialog>
    </>
  );
};
