import { useOutletContext } from 'react-router';
import { PageHeading } from '../../components/ui/card';
import type { ConnectContext } from '../connection/connection-layout';
import { WebhooksCard } from '../webhooks/webhooks-card';
import { AppearanceCard } from './appearance-card';
import { ProviderKeysCard } from './provider-keys-card';

/** /{connectId}/ai-settings, labelled Settings: this sub-account's settings. */
export const AiSettingsPage = () => {
  const context = useOutletContext<ConnectContext>();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeading title="Settings" description="Settings of this account." />
      <AppearanceCard readOnly={context.role !== 'admin'} />
      {context.role !== 'admin' ? <p className="text-sm text-muted">Only admins can change these settings.</p> : null}
      {context.role === 'admin' ? <ProviderKeysCard connectId={context.connectId} /> : null}
      {context.role === 'admin' ? <WebhooksCard connectId={context.connectId} /> : null}
    </div>
  );
};
