import { ERROR_CODES, isErrorCode, SANDBOX_NOTICE, type TChannelConnection } from '@switchboard/core';
import { useEffect } from 'react';
import { Link, useOutletContext, useParams, useSearchParams } from 'react-router';
import { Card, Spinner } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import type { ConnectContext } from '../connection/connection-layout';
import { Inbox } from '../widget/inbox-page';
import { InstagramConnectForm } from './instagram-connect-form';
import { InstagramPagePicker, useInstagramPageChoice } from './instagram-page-picker';
import { InstagramSettings } from './instagram-settings';
import { logTabLabel, SandboxPhone } from './sandbox-phone';
import { SectionTabs } from './section-tabs';
import { useChannelEvents, useChannels } from './use-channel';

const TABS = [
  ['conversations', 'Conversations'],
  ['phone', 'Sandbox'],
  ['settings', 'Settings'],
] as const;
type Tab = (typeof TABS)[number][0];

/** What the connection's state asks of the agency, when it is not simply live. */
const StateNotice = ({ connection, choosing }: { connection: TChannelConnection; choosing: boolean }) => {
  if (connection.status === 'live' || choosing) return null;
  const pending = connection.status === 'pending_connection';
  const code = connection.statusCode;
  const actions: readonly string[] = isErrorCode(code) ? (ERROR_CODES[code].actions ?? []) : [];
  return (
    <Card role="status" className="mb-5 border-amber-500/60">
      <h2 className="font-semibold">{pending ? 'Pending connection' : 'Connection error'}</h2>
      <p className="mt-1 text-sm">
        {pending
          ? 'The sign-in with Meta has not finished. Start “Connect with Meta” again or enter a page access token in Settings.'
          : `${code ?? 'Error'}: ${connection.statusMessage ?? 'Meta refused the connection.'}`}
      </p>
      {actions.length ? <p className="mt-1 text-sm text-muted">Next: {actions.join(', ')} in Settings.</p> : null}
    </Card>
  );
};

/** /{connectId}/link3: the Instagram Agent. */
export const InstagramRoute = () => {
  const { connectId = '' } = useParams();
  const context = useOutletContext<ConnectContext>();
  const [params] = useSearchParams();
  const channels = useChannels(context.subaccountId, 'instagram');
  const list = channels.data?.connections ?? [];
  const connection = list.find((item) => item.connectionId === connectId) ?? list[0];
  useChannelEvents(connection?.connectionId ?? null);
  const sandboxAvailable = channels.data?.sandboxAvailable ?? false;
  // Without the sandbox on this server there is no sandbox to write to.
  // A sandbox connection's phone (where this server runs the sandbox); a real one's message log.
  const real = Boolean(connection && connection.transport !== 'sandbox');
  const tabs = TABS.filter(([key]) => key !== 'phone' || sandboxAvailable || real).map(
    ([key, name]) => [key, key === 'phone' ? logTabLabel(connection, name) : name] as const,
  );
  const tab = (tabs.find(([key]) => key === params.get('tab'))?.[0] ??
    (connection?.transport === 'sandbox' && sandboxAvailable ? 'phone' : 'conversations')) as Tab;
  const canEdit = context.role !== 'viewer';
  const choice = useInstagramPageChoice(
    connection?.connectionId ?? '',
    Boolean(canEdit && connection?.status === 'pending_connection'),
  );
  const outcome = params.get('connected') ? 'connected' : params.get('error') ? 'failed' : null;
  useEffect(() => {
    if (outcome === 'connected') toast.success('Instagram account connected');
    if (outcome === 'failed') toast.error('The Meta sign-in did not finish. See the connection state below.');
  }, [outcome]);

  return (
    <div className="mx-auto max-w-7xl">
      <header className="mb-5 flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-xs uppercase tracking-wide text-muted">{connection?.connectionName ?? 'Instagram'}</p>
          <h1 className="text-2xl font-semibold">Instagram Agent</h1>
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
              : `Meta · @${connection.instagram?.username ?? connection.instagram?.accountId ?? 'not connected'}`}
          </span>
        ) : null}
        <Link to={`/${connectId}/dashboard`} className="text-sm underline">
          Dashboard
        </Link>
      </header>
      {channels.isLoading ? <Spinner label="Loading the connection" /> : null}
      {!channels.isLoading && !connection ? (
        canEdit ? (
          <InstagramConnectForm subaccountId={context.subaccountId} sandboxAvailable={sandboxAvailable} />
        ) : (
          <p className="text-sm text-muted">
            No Instagram Agent is connected yet. Ask an admin or member to connect one.
          </p>
        )
      ) : null}
      {connection ? (
        <>
          <StateNotice connection={connection} choosing={Boolean(choice.data)} />
          {choice.data && connection.status === 'pending_connection' ? (
            <InstagramPagePicker connection={connection} choice={choice.data} />
          ) : null}
          <SectionTabs
            label="Instagram Agent sections"
            tabs={tabs}
            current={tab}
            clears={['connected', 'error', 'choose']}
          />
          {tab === 'conversations' ? (
            <Inbox
              connectionId={connection.connectionId}
              canReply={canEdit}
              notice={connection.transport === 'sandbox' ? SANDBOX_NOTICE : undefined}
            />
          ) : null}
          {tab === 'phone' ? <SandboxPhone connection={connection} canEdit={canEdit} /> : null}
          {tab === 'settings' ? (
            <InstagramSettings connection={connection} canEdit={canEdit} sandboxAvailable={sandboxAvailable} />
          ) : null}
        </>
      ) : null}
    </div>
  );
};
