import { Link, useOutletContext } from 'react-router';
import { Card, PageHeading } from '../../components/ui/card';
import { useBillingAccess } from '../billing/billing-api';
import type { ConnectContext } from '../connection/connection-layout';
import { WebhooksCard } from '../webhooks/webhooks-card';
import { AppearanceCard } from './appearance-card';
import { ProviderKeysCard } from './provider-keys-card';

/** /{connectId}/ai-settings, labelled Settings: this sub-account's settings. */
export const AiSettingsPage = () => {
  const context = useOutletContext<ConnectContext>();
  // The agency's billing and its AI provider keys (it pays for their calls) are shown to its
  // manager only; a client's login has its usage on /usage.
  const { canManageBilling } = useBillingAccess(context.accountId);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeading title="Settings" description="Settings of this account." />
      <AppearanceCard readOnly={context.role !== 'admin'} />
      {context.role !== 'admin' ? <p className="text-sm text-muted">Only admins can change these settings.</p> : null}
      {context.role === 'admin' && canManageBilling ? <ProviderKeysCard connectId={context.connectId} /> : null}
      {context.role === 'admin' ? <WebhooksCard connectId={context.connectId} /> : null}
      {canManageBilling ? (
        <Card>
          <h2 className="font-semibold">Billing</h2>
          <p className="mt-1 text-sm text-muted">
            The agency's plan, payment method, invoices, credit packs and low-balance alerts.
          </p>
          <Link
            className="mt-3 inline-block text-sm font-medium underline decoration-primary decoration-2"
            to="/settings#billing"
          >
            Open billing
          </Link>
        </Card>
      ) : null}
    </div>
  );
};
