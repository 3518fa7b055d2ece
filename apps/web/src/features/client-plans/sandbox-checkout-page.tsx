import type { TClientSandboxCheckout } from '@switchboard/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';
import { formatMinor, SandboxBadge } from './format';

/** The sandbox checkout of a client plan (an agency without Stripe): pay or cancel on demand. */
export const ClientSandboxCheckoutPage = () => {
  const { checkoutId = '' } = useParams();
  const path = `/api/client-billing/sandbox/checkouts/${encodeURIComponent(checkoutId)}`;
  const checkout = useQuery({
    queryKey: ['client-sandbox-checkout', checkoutId],
    retry: false,
    queryFn: () => api<TClientSandboxCheckout>(path, { silent: true }),
  });
  const finish = useMutation({
    mutationFn: (outcome: 'pay' | 'cancel') =>
      api<TClientSandboxCheckout>(`${path}/${outcome}`, { method: 'POST', silent: true }),
    onSuccess: (done) => {
      window.location.assign(`/${done.subaccountId}/plan${done.status === 'complete' ? '?checkout=success' : ''}`);
    },
  });
  const data = checkout.data;
  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-4 text-foreground">
      <Card className="w-full max-w-md space-y-4">
        <div className="flex items-center justify-between gap-2">
          <h1 className="text-xl font-semibold">Checkout</h1>
          <SandboxBadge />
        </div>
        <p className="text-sm text-muted">Sandbox: no real payment is taken and no card is charged.</p>
        {checkout.isLoading ? <Spinner label="Loading the checkout" /> : null}
        {checkout.isError ? (
          <p role="alert" className="text-sm text-danger">
            This checkout was not found.
          </p>
        ) : null}
        {data ? (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted">Plan</dt>
              <dd>{data.planName}</dd>
              <dt className="text-muted">Price</dt>
              <dd>{formatMinor(data.priceMinor, data.currency)} / month</dd>
              <dt className="text-muted">Credits</dt>
              <dd>{data.includedCredits.toLocaleString('en-US')} a month</dd>
            </dl>
            {data.status === 'open' ? (
              <div className="flex flex-wrap gap-2">
                <Button disabled={finish.isPending} onClick={() => finish.mutate('pay')}>
                  Pay (Sandbox)
                </Button>
                <Button variant="secondary" disabled={finish.isPending} onClick={() => finish.mutate('cancel')}>
                  Cancel
                </Button>
              </div>
            ) : (
              <p role="status" className="text-sm">
                This checkout is {data.status === 'complete' ? 'paid' : 'no longer open'}.
              </p>
            )}
            {finish.isError ? (
              <p role="alert" className="text-sm text-danger">
                {finish.error instanceof Error ? finish.error.message : 'The checkout could not be completed'}
              </p>
            ) : null}
          </>
        ) : null}
      </Card>
    </main>
  );
};
