import { SANDBOX_NOTICE, type TChannelConnection, type TMessagingChannel, type TSmsSettings } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useParams, useSearchParams } from 'react-router';
import { Card, Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import type { ConnectContext } from '../connection/connection-layout';
import { usePortalContext } from '../portal/api';
import { Inbox } from '../widget/inbox-page';
import { CampaignsTab } from './campaigns-tab';
import { ConnectForm } from './connect-form';
import { ContactsTab } from './contacts-tab';
import { logTabLabel, SandboxPhone } from './sandbox-phone';
import { SectionTabs } from './section-tabs';
import { SettingsTab } from './settings-tab';
import { CHANNEL_NAMES, useChannelEvents, useChannels } from './use-channel';

const TABS = [
  ['campaigns', 'Campaigns'],
  ['contacts', 'Contacts'],
  ['conversations', 'Conversations'],
  ['phone', 'Sandbox phone'],
  ['settings', 'Settings'],
] as const;
type Tab = (typeof TABS)[number][0];

/** A connection in error (refused credentials; a sandbox where this server runs none): why, and where to fix it. */
const ErrorNotice = ({ connection }: { connection: TChannelConnection }) =>
  connection.status === 'error' ? (
    <Card role="status" className="mb-5 border-amber-500/60">
      <h2 className="font-semibold">Connection error</h2>
      <p className="mt-1 text-sm">
        {connection.statusCode ?? 'Error'}: {connection.statusMessage ?? 'The connection does not send.'}
      </p>
      <p className="mt-1 text-sm text-muted">Next: Update Credentials in Settings.</p>
    </Card>
  ) : null;

/** A connection that sends but whose inbound webhooks will be refused (a Twilio API key without the auth token). */
export const WebhookWarning = ({ connection }: { connection: TChannelConnection }) =>
  connection.webhookWarning ? (
    <Card role="alert" className="mb-5 border-amber-500/60">
      <h2 className="font-semibold">Inbound messages are refused</h2>
      <p className="mt-1 text-sm">{connection.webhookWarning}</p>
    </Card>
  ) : null;

/** /{connectId}/sms/campaigns and /{connectId}/whatsapp/campaigns. */
export const MessagingRoute = ({ type }: { type: TMessagingChannel }) => {
  const { connectId = '' } = useParams();
  const context = useOutletContext<ConnectContext>();
  const [params] = useSearchParams();
  const channels = useChannels(context.subaccountId, type);
  const settings = useQuery({
    queryKey: ['sms-settings', connectId],
    queryFn: () => api<TSmsSettings>(`/api/sms/${connectId}/settings`, { silent: true }),
  });
  const list = channels.data?.connections ?? [];
  const connection: TChannelConnection | undefined =
    list.find((item) => item.connectionId === connectId || item.connectionId === params.get('connection')) ?? list[0];
  useChannelEvents(connection?.connectionId ?? null);
  const sandboxAvailable = channels.data?.sandboxAvailable ?? false;
  // A client (the portal) runs campaigns and contacts where the agency allows; the connection's
  // settings and the sandbox phone stay the agency's, and replying follows the inbox switch.
  const isClient = context.role === 'client';
  const portal = usePortalContext(isClient ? context.subaccountId : null);
  // Without the sandbox on this server there is no sandbox phone to show.
  // A sandbox connection's phone (where this server runs the sandbox); a real one's message log.
  const real = Boolean(connection && connection.transport !== 'sandbox');
  const tabs = TABS.filter(
    ([key]) => (key !== 'phone' || sandboxAvailable || real) && !(isClient && (key === 'phone' || key === 'settings')),
  ).map(([key, name]) => [key, key === 'phone' ? logTabLabel(connection, name) : name] as const);
  const tab = (tabs.find(([key]) => key === params.get('tab'))?.[0] ?? 'campaigns') as Tab;
  const canEdit = isClient ? Boolean(portal.data?.access.campaigns) : context.role !== 'viewer';
  const canReply = isClient ? Boolean(portal.data?.access.inbox) : canEdit;

  return (
    <div className="mx-auto max-w-7xl">
      <header className="mb-5 flex flex-wrap items-center gap-3">
        {settings.data?.logoUrl ? (
          <img src={settings.data.logoUrl} alt="" className="h-9 w-9 rounded-lg object-contain" />
        ) : null}
        <div className="min-w-0 flex-1">
          <p className="text-xs uppercase tracking-wide text-muted">{settings.data?.companyName ?? 'SMS Dashboard'}</p>
          <h1 className="text-2xl font-semibold">{CHANNEL_NAMES[type]}</h1>
        </div>
        {connection ? (
          <span
            className={cn(
              'rounded-full px-3 py-1 text-xs font-semibold',
              connection.transport === 'sandbox'
                ? 'bg-amber-500/15 text-amber-900 dark:text-amber-200'
                : 'bg-primary/15 text-foreground',
            )}
          >
            {connection.transport === 'sandbox'
              ? 'Sandbox — no real messages are sent'
              : `Twilio · ${connection.sender.phoneNumber ?? connection.sender.messagingServiceSid}`}
          </span>
        ) : null}
        {isClient ? null : (
          <Link to={`/${connectId}/dashboard`} className="text-sm underline">
            Dashboard
          </Link>
        )}
      </header>
      {channels.isLoading ? <Spinner label="Loading the connection" /> : null}
      {!channels.isLoading && !connection ? (
        canEdit && !isClient ? (
          <ConnectForm subaccountId={context.subaccountId} type={type} sandboxAvailable={sandboxAvailable} />
        ) : (
          <p className="text-sm text-muted">
            No {CHANNEL_NAMES[type]} is connected yet.{' '}
            {isClient ? 'Ask your agency to connect one.' : 'Ask an admin or member to connect one.'}
          </p>
        )
      ) : null}
      {connection ? (
        <>
          <ErrorNotice connection={connection} />
          <WebhookWarning connection={connection} />
          <SectionTabs label={`${CHANNEL_NAMES[type]} sections`} tabs={tabs} current={tab} />
          {tab === 'campaigns' ? <CampaignsTab connection={connection} canEdit={canEdit} /> : null}
          {tab === 'contacts' ? <ContactsTab connection={connection} canEdit={canEdit} /> : null}
          {tab === 'conversations' ? (
            <Inbox
              connectionId={connection.connectionId}
              canReply={canReply}
              canAttach
              whatsapp={type === 'whatsapp'}
              notice={connection.transport === 'sandbox' ? SANDBOX_NOTICE : undefined}
            />
          ) : null}
          {tab === 'phone' ? <SandboxPhone connection={connection} canEdit={canEdit} /> : null}
          {tab === 'settings' ? (
            <SettingsTab
              connection={connection}
              connectId={connectId}
              canEdit={canEdit}
              role={context.role}
              sandboxAvailable={sandboxAvailable}
            />
          ) : null}
        </>
      ) : null}
    </div>
  );
};
