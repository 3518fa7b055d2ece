import { type TClientBillingStatus, upgradePathFor } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';
import { MarginTable } from './margin-table';
import { PlansEditor } from './plans-editor';
import { clientBillingKey, StripeConnect } from './stripe-connect';

/**
 * Client billing for the account's manager: the agency's own Stripe, the plans it sells to its
 * clients, and what each client earned it this month. Plans with white-label sub-accounts only.
 */
export const ClientBillingCard = ({ accountId, accountName }: { accountId: string; accountName: string }) => {
  const status = useQuery({
    queryKey: clientBillingKey(accountId),
    queryFn: () =>
      api<TClientBillingStatus>(`/api/accounts/${encodeURIComponent(accountId)}/client-billing`, { silent: true }),
  });
  return (
    <Card className="space-y-5">
      <div>
        <h2 className="text-lg font-semibold">Client billing</h2>
        <p className="text-xs text-muted">{accountName}</p>
        <p className="text-sm text-muted">
          Sell your own monthly plans to your clients, charged on your Stripe account. A client's monthly credits follow
          its plan.
        </p>
      </div>
      {status.isLoading ? <Spinner label="Loading client billing" /> : null}
      {status.isError ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-danger">{status.error instanceof Error ? status.error.message : 'Could not load'}</span>
          <Button variant="secondary" size="sm" onClick={() => void status.refetch()}>
            Retry
          </Button>
        </div>
      ) : null}
      {status.data && !status.data.included ? (
        <p className="text-sm">
          Your plan does not include client billing (white-label sub-accounts).{' '}
          <Link
            to={upgradePathFor('whitelabel_subaccounts')}
            className="font-medium underline decoration-primary decoration-2"
          >
            See the plans that do
          </Link>
        </p>
      ) : null}
      {status.data?.included ? (
        <>
          <StripeConnect accountId={accountId} status={status.data} />
          <div className="border-t border-border pt-4">
            <PlansEditor accountId={accountId} />
          </div>
          <div className="border-t border-border pt-4">
            <MarginTable accountId={accountId} />
          </div>
        </>
      ) : null}
    </Card>
  );
};
