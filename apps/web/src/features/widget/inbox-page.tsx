import type { TInboxThreadList, TInboxTranscript } from '@switchboard/core';
import { contactLabel, timeAgoLabel } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useOutletContext, useParams } from 'react-router';
import { Card } from '../../components/ui/card';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import type { ConnectContext } from '../connection/connection-layout';
import { usePortalContext } from '../portal/api';
import { ConnectionHeader, ConnectionState } from './connection-header';
import { NoConnection } from './no-connection';
import { Transcript } from './transcript';
import { useConnection, useSubaccountConnections } from './use-connection';

/** /{connectId}/conversations: a widget's conversations, live. */
export const InboxRoute = () => {
  const { connectId = '' } = useParams();
  const context = useOutletContext<ConnectContext>();
  const isConnection = connectId.startsWith('con_');
  const connection = useConnection(connectId);
  const list = useSubaccountConnections(context.subaccountId, 'website-widget', !isConnection);
  // A client replies only where the agency turned the inbox on.
  const portal = usePortalContext(context.role === 'client' ? context.subaccountId : null);
  if (!isConnection) {
    if (list.isLoading) return <ConnectionState loading found />;
    const first = list.data?.connections[0];
    return first ? (
      <Navigate to={`/${first.connectionId}/conversations`} replace />
    ) : (
      <NoConnection connectId={connectId} type="website-widget" />
    );
  }
  if (!connection.data) return <ConnectionState loading={connection.isLoading} found={false} />;
  return (
    <div className="mx-auto max-w-7xl">
      <ConnectionHeader connection={connection.data} />
      <Inbox
        connectionId={connection.data.connectionId}
        canReply={context.role === 'client' ? Boolean(portal.data?.access.inbox) : context.role !== 'viewer'}
      />
    </div>
  );
};

export const Inbox = ({
  connectionId,
  canReply,
  canAttach = false,
  whatsapp = false,
  notice,
}: {
  connectionId: string;
  canReply: boolean;
  /** SMS and WhatsApp: a reply can carry an image or a PDF. */
  canAttach?: boolean;
  /** A WhatsApp connection: its threads show the 24-hour window and offer templates once it closed. */
  whatsapp?: boolean;
  /** Said above the conversations (a sandbox connection: nothing was sent). */
  notice?: string;
}) => {
  const client = useQueryClient();
  const [selected, setSelected] = useState<string | null>(null);
  const [limit, setLimit] = useState(25);
  const threads = useQuery({
    queryKey: ['inbox', connectionId, limit],
    queryFn: () => api<TInboxThreadList>(`/api/connections/${connectionId}/conversations?limit=${limit}`),
    placeholderData: (previous) => previous,
  });

  // Live: every new message or take-over of this widget's conversations refreshes the list and the open transcript.
  useEffect(() => {
    const source = new EventSource(`/api/connections/${connectionId}/conversations/events`);
    source.addEventListener('thread', (event) => {
      const { threadId } = JSON.parse((event as MessageEvent).data) as { threadId: string };
      void client.invalidateQueries({ queryKey: ['inbox', connectionId] });
      void client.invalidateQueries({ queryKey: ['transcript', connectionId, threadId] });
    });
    return () => source.close();
  }, [client, connectionId]);

  const items = threads.data?.threads ?? [];
  const current = selected ?? items[0]?.threadId ?? null;
  const transcript = useQuery({
    queryKey: ['transcript', connectionId, current],
    queryFn: () => api<TInboxTranscript>(`/api/connections/${connectionId}/conversations/${current}`),
    enabled: Boolean(current),
  });

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[320px_minmax(0,1fr)]" data-testid="inbox-layout">
      {notice ? (
        <p
          role="note"
          className="rounded-lg bg-amber-500/15 px-3 py-2 text-sm font-semibold text-amber-900 lg:col-span-2 dark:text-amber-200"
        >
          {notice}
        </p>
      ) : null}
      <Card className="p-0">
        <h2 className="border-b border-border px-4 py-3 font-semibold">Conversations</h2>
        {threads.isLoading ? <p className="p-4 text-sm text-muted">Loading conversations...</p> : null}
        {!threads.isLoading && items.length === 0 ? (
          <p className="p-4 text-sm text-muted">No conversations yet. They appear here live as visitors chat.</p>
        ) : null}
        <ul aria-label="Conversations" className="max-h-[70vh] overflow-y-auto">
          {items.map((thread) => (
            <li key={thread.threadId}>
              <button
                type="button"
                aria-current={current === thread.threadId ? 'true' : undefined}
                onClick={() => setSelected(thread.threadId)}
                className={cn(
                  'block w-full border-b border-border px-4 py-3 text-left hover:bg-surface-2',
                  current === thread.threadId && 'bg-surface-2',
                )}
              >
                <span className="flex justify-between gap-2 text-sm font-medium">
                  <span className="truncate">
                    {contactLabel(thread).title}
                    {contactLabel(thread).detail ? (
                      <span className="ml-1 font-normal text-muted">{contactLabel(thread).detail}</span>
                    ) : null}
                  </span>
                  <span className="shrink-0 text-xs text-muted">{timeAgoLabel(Date.parse(thread.lastMessageAt))}</span>
                </span>
                <span className="block truncate text-sm text-muted">{thread.lastMessage}</span>
                <span className="text-xs text-muted">
                  {thread.messageCount} messages{thread.handledByUserId ? ' · Taken over' : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {threads.data?.hasMore && limit < 100 ? (
          <button
            type="button"
            className="w-full px-4 py-3 text-sm underline hover:bg-surface-2"
            onClick={() => setLimit((value) => Math.min(100, value + 25))}
          >
            Show more conversations
          </button>
        ) : null}
      </Card>
      {current && transcript.data ? (
        <Transcript
          connectionId={connectionId}
          transcript={transcript.data}
          canReply={canReply}
          canAttach={canAttach}
          whatsapp={whatsapp}
        />
      ) : (
        <Card className="text-sm text-muted">Choose a conversation to read its transcript.</Card>
      )}
    </div>
  );
};
