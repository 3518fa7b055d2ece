import type { TBillingOverview } from '@switchboard/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { Dialog } from '../../components/ui/dialog';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { useSession } from '../session/session';
import { errorText, useBillingAccess } from './billing-api';
import { longDate, SANDBOX_BILLING_NOTICE, useBillingOverview, useOverviewRefresh } from './billing-overview-api';
import { openBillingPortal } from './checkout';
import { CreditPacksCard } from './credit-packs-card';
import { InvoicesTable } from './invoices-table';
import { LowBalanceCard } from './low-balance-card';
import { noRenewalText, priceText } from './plan-texts';

const paymentMethodText = (overview: TBillingOverview) => {
  const method = overview.paymentMethod;
  if (!method) return 'No payment method saved yet. One is saved with your first purchase.';
  if (overview.provider === 'sandbox') return `Sandbox test card ending ${method.last4} (no real card)`;
  const brand = method.brand.charAt(0).toUpperCase() + method.brand.slice(1);
  const expiry = method.expMonth && method.expYear ? `, expires ${method.expMonth}/${method.expYear}` : '';
  return `${brand} ending ${method.last4}${expiry}`;
};

/** Cancellation at the period end, behind a confirmation that states the exact end date. */
const CancelDialog = ({ endDate, onClose }: { endDate: string; onClose: () => void }) => {
  const refresh = useOverviewRefresh();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await api('/stripe/cancel-subscription', { body: { cancelAtPeriodEnd: true }, silent: true });
      await refresh();
      toast.success(`Your subscription ends on ${longDate(endDate)}.`);
      onClose();
    } catch (thrown) {
      setError(errorText(thrown, 'Failed to schedule cancellation.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => (open || busy ? undefined : onClose())} title="Cancel your subscription?">
      <div className="space-y-3 text-sm">
        <p>
          Your subscription ends on <strong>{longDate(endDate)}</strong>. You keep your plan and its credits until then,
          and nothing is charged after it.
        </p>
        <p>You can resume the subscription any time before that date.</p>
        {error ? (
          <p role="alert" className="text-danger">
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            Keep subscription
          </Button>
          <Button
            variant="secondary"
            className="border-danger text-danger"
            disabled={busy}
            onClick={() => void confirm()}
          >
            Cancel on {longDate(endDate)}
          </Button>
        </div>
      </div>
    </Dialog>
  );
};

const PlanCardContent = ({ overview, canManage }: { overview: TBillingOverview; canManage: boolean }) => {
  const refresh = useOverviewRefresh();
  const [cancelling, setCancelling] = useState(false);
  const [busy, setBusy] = useState(false);
  const subscribed = overview.plan.status !== 'free';

  const resume = async () => {
    setBusy(true);
    try {
      await api('/stripe/resubscribe', { body: {}, silent: true });
      await refresh();
      toast.success('Your subscription continues.');
    } catch (thrown) {
      toast.error(errorText(thrown, 'Failed to resume subscription.'));
    } finally {
      setBusy(false);
    }
  };
  const portal = async () => {
    setBusy(true);
    try {
      await openBillingPortal('/settings');
    } catch (thrown) {
      toast.error(errorText(thrown));
      setBusy(false);
    }
  };

  return (
    <>
      <dl className="grid gap-2 text-sm sm:grid-cols-[160px_1fr]">
        <dt className="text-muted">Current plan</dt>
        <dd className="font-medium">{overview.plan.displayName}</dd>
        <dt className="text-muted">Price</dt>
        <dd>{priceText(overview.plan)}</dd>
        <dt className="text-muted">{overview.cancelAtPeriodEnd ? 'Ends on' : 'Renews on'}</dt>
        <dd>
          {overview.cancelAtPeriodEnd
            ? longDate(overview.periodEnd)
            : overview.renewalDate
              ? longDate(overview.renewalDate)
              : noRenewalText(overview.plan)}
        </dd>
        <dt className="text-muted">Payment method</dt>
        <dd>{paymentMethodText(overview)}</dd>
      </dl>
      {overview.cancelAtPeriodEnd ? (
        <p role="status" className="mt-3 rounded-lg border border-border bg-surface-2 p-3 text-sm">
          Your subscription is cancelled and ends on {longDate(overview.periodEnd)}. Resume it before then to keep your
          plan.
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <Link
          to="/pricing"
          className="inline-flex h-10 items-center rounded-lg border border-border px-4 text-sm font-medium hover:bg-surface-2"
        >
          {subscribed ? 'Change plan' : 'See plans'}
        </Link>
        {canManage && overview.provider !== 'none' && overview.paymentMethod ? (
          <Button variant="secondary" disabled={busy} onClick={() => void portal()}>
            Manage billing{overview.provider === 'sandbox' ? ' (sandbox)' : ''}
          </Button>
        ) : null}
        {canManage && subscribed && overview.cancelAtPeriodEnd ? (
          <Button disabled={busy} onClick={() => void resume()}>
            Resume subscription
          </Button>
        ) : null}
        {canManage && subscribed && !overview.cancelAtPeriodEnd && overview.periodEnd ? (
          <Button variant="secondary" disabled={busy} onClick={() => setCancelling(true)}>
            Cancel subscription
          </Button>
        ) : null}
      </div>
      {cancelling && overview.periodEnd ? (
        <CancelDialog endDate={overview.periodEnd} onClose={() => setCancelling(false)} />
      ) : null}
    </>
  );
};

/** For a client's login: the agency's billing is its manager's; its own usage is on /usage. */
const ManagedByAgency = ({ accountName }: { accountName: string | null }) => (
  <section id="billing" aria-labelledby="billing-title" className="space-y-2">
    <h2 id="billing-title" className="text-xl font-semibold">
      Billing
    </h2>
    <Card>
      <p className="text-sm">
        {accountName ? `${accountName}'s` : "Your agency's"} plan, payment method, invoices and credits are managed by
        its owner or an admin of all its sub-accounts. The usage and credit allowance of your sub-accounts are on the{' '}
        <Link className="font-medium underline decoration-primary decoration-2" to="/usage">
          Usage
        </Link>{' '}
        page.
      </p>
    </Card>
  </section>
);

/** The Billing section of /settings, for the account of the current sub-account (its manager's). */
export const BillingSection = () => {
  const { currentSubaccount } = useSession();
  const { account, canManageBilling } = useBillingAccess();
  const overview = useBillingOverview();
  const [params] = useSearchParams();
  const purchased = params.get('purchase') === 'success';
  const { hash } = useLocation();
  const sectionRef = useRef<HTMLElement>(null);
  const loaded = Boolean(overview.data);
  // '/settings#billing' (the Usage page's Buy credits, a sub-account's Settings) opens here.
  useEffect(() => {
    if (loaded && hash === '#billing') sectionRef.current?.scrollIntoView({ block: 'start' });
  }, [loaded, hash]);
  if (!currentSubaccount) return null;
  if (!canManageBilling) return <ManagedByAgency accountName={account?.name ?? null} />;
  const canManage = canManageBilling;
  const data = overview.data;
  return (
    <section id="billing" ref={sectionRef} aria-labelledby="billing-title" className="scroll-mt-4 space-y-4">
      <div>
        <h2 id="billing-title" className="text-xl font-semibold">
          Billing
        </h2>
        <p className="text-sm text-muted">
          {account ? `${account.name}: ` : ''}plan, payment method, invoices and credits.
        </p>
      </div>
      {purchased ? (
        <p role="status" className="rounded-lg border border-primary p-3 text-sm">
          Payment received: the credits are added to your balance.
        </p>
      ) : null}
      {overview.isLoading ? <Spinner label="Loading billing" /> : null}
      {overview.error ? (
        <p role="alert" className="text-sm text-danger">
          {errorText(overview.error)}
        </p>
      ) : null}
      {data ? (
        <>
          {data.provider === 'sandbox' ? (
            <p role="note" className="rounded-lg border border-danger/60 bg-surface-2 p-3 text-sm">
              {SANDBOX_BILLING_NOTICE}
            </p>
          ) : null}
          {data.provider === 'none' ? (
            <p role="note" className="rounded-lg border border-border p-3 text-sm">
              Payments are not configured on this server. Plans and credits cannot be bought yet.
            </p>
          ) : null}
          <Card>
            <h3 className="mb-3 font-semibold">Plan</h3>
            <PlanCardContent overview={data} canManage={canManage} />
          </Card>
          <Card>
            <h3 className="mb-3 font-semibold">Invoices</h3>
            <InvoicesTable overview={data} />
          </Card>
          <CreditPacksCard overview={data} canManage={canManage} />
          <LowBalanceCard overview={data} canManage={canManage} />
        </>
      ) : null}
    </section>
  );
};
