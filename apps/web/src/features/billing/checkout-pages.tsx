import { returnPathOn, safeReturnPath } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { ApiError, api } from '../../lib/api';
import { storage } from '../../lib/storage';
import { CHECKOUT_RETURN_URL_KEY } from '../auth/sign-in-dialog';
import { errorText } from './billing-api';
import { sandboxCheckoutLines } from './sandbox-checkout-lines';

interface SandboxCheckout {
  id: string;
  status: string;
  mode: 'subscription' | 'payment';
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  couponId: string | null;
}

/** Said on every sandbox checkout page: no real payment is taken there. */
export const SANDBOX_NOTICE = 'Sandbox payments: this server takes no real payments and no card is charged.';

const CenteredPage = ({ children }: { children: React.ReactNode }) => (
  <main className="flex min-h-screen items-center justify-center bg-background p-4 text-foreground">
    <div className="w-full max-w-md">{children}</div>
  </main>
);

/** The sandbox provider's checkout page: pay or decline on demand, no card needed. */
export const SandboxCheckoutPage = () => {
  const { checkoutId = '' } = useParams();
  const [result, setResult] = useState<{ status: string; message: string; redirectUrl: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checkout = useQuery({
    queryKey: ['billing', 'sandbox', checkoutId],
    retry: false,
    queryFn: () =>
      api<SandboxCheckout>(`/api/billing/sandbox/checkouts/${encodeURIComponent(checkoutId)}`, { silent: true }),
  });
  const lines = checkout.data ? sandboxCheckoutLines(checkout.data) : [];

  const complete = async (outcome: 'pay' | 'decline') => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ status: string; message: string; redirectUrl: string }>(
        `/api/billing/sandbox/checkouts/${encodeURIComponent(checkoutId)}/complete`,
        { body: { outcome }, silent: true },
      );
      setResult(answer);
      if (answer.status === 'paid') setTimeout(() => window.location.assign(answer.redirectUrl), 1_500);
    } catch (thrown) {
      setError(errorText(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CenteredPage>
      <Card className="space-y-4">
        <PageHeading title="Sandbox checkout" description="Test payments: no card is charged." />
        <p role="note" className="rounded-lg border border-danger/60 bg-surface-2 p-3 text-sm">
          {SANDBOX_NOTICE}
        </p>
        {checkout.isLoading ? <Spinner label="Loading checkout" /> : null}
        {checkout.error ? (
          <p role="alert" className="text-sm text-danger">
            {checkout.error instanceof ApiError && checkout.error.status === 404
              ? 'Checkout not found'
              : errorText(checkout.error)}
          </p>
        ) : null}
        {checkout.data && lines.length > 0 ? (
          <dl className="space-y-1 rounded-lg border border-border p-3 text-sm">
            {lines.map((line) => (
              <div key={line.label} className="flex justify-between gap-3">
                <dt className="text-muted">{line.label}</dt>
                <dd className="text-right font-medium">{line.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {result ? (
          <p role={result.status === 'paid' ? 'status' : 'alert'} className="text-sm">
            {result.message}
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : null}
        {checkout.data && checkout.data.status === 'open' && result?.status !== 'paid' ? (
          <div className="flex flex-wrap gap-2">
            <Button disabled={busy} onClick={() => void complete('pay')}>
              Pay now
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => void complete('decline')}>
              Decline card
            </Button>
          </div>
        ) : null}
        {checkout.data && checkout.data.status === 'expired' && !result ? (
          <p role="alert" className="text-sm">
            This checkout has expired. Start a new one from the pricing page.
          </p>
        ) : null}
        {checkout.data && checkout.data.status === 'complete' && !result ? (
          <p className="text-sm">This checkout is already complete.</p>
        ) : null}
        {result?.status === 'declined' ? (
          <a className="text-sm font-medium underline decoration-primary decoration-2" href={result.redirectUrl}>
            Back to pricing
          </a>
        ) : null}
      </Card>
    </CenteredPage>
  );
};

/** The sandbox stands in for the payment provider's customer portal. */
export const SandboxPortalPage = () => {
  const [params] = useSearchParams();
  const back = returnPathOn(params.get('returnUrl'), window.location.origin, '/usage');
  return (
    <CenteredPage>
      <Card className="space-y-3">
        <PageHeading
          title="Billing portal (sandbox)"
          description="With Stripe, this is Stripe's customer portal: cards, billing details and invoices."
        />
        <p role="note" className="rounded-lg border border-danger/60 bg-surface-2 p-3 text-sm">
          {SANDBOX_NOTICE}
        </p>
        <p className="text-sm">
          The sandbox keeps no real cards: every purchase uses its test card. Its invoices are listed in Settings, under
          Billing, and your plan is changed from the pricing page or the Usage page.
        </p>
        <a className="text-sm font-medium underline decoration-primary decoration-2" href={back}>
          Return to Switchboard
        </a>
      </Card>
    </CenteredPage>
  );
};

/** /success after checkout: credits arrive with the payment; a saved return URL is offered. */
export const SuccessPage = () => {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const email = params.get('email');
  const returnUrl = params.get('returnUrl') ?? storage.get<string | null>(CHECKOUT_RETURN_URL_KEY, null);
  void queryClient.invalidateQueries({ queryKey: ['usage', 'summary'] });
  return (
    <div className="mx-auto max-w-lg">
      <Card className="space-y-4 text-center">
        <CheckCircle2 className="mx-auto text-primary" size={40} aria-hidden="true" />
        <PageHeading title="Thank you" description="Your checkout is complete." />
        {email ? <p className="text-sm text-muted">A receipt goes to {email}.</p> : null}
        <div className="flex flex-wrap justify-center gap-2">
          <Link
            className="inline-flex h-10 items-center rounded-lg bg-primary px-4 text-sm font-medium text-primary-foreground"
            to="/usage"
          >
            View credits
          </Link>
          <Link
            className="inline-flex h-10 items-center rounded-lg border border-border px-4 text-sm font-medium"
            to={safeReturnPath(returnUrl, '/agents/create')}
            onClick={() => storage.remove(CHECKOUT_RETURN_URL_KEY)}
          >
            Continue
          </Link>
        </div>
      </Card>
    </div>
  );
};
