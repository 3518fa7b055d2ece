import {
  INBOX_CHANNELS,
  type TInboxChannel,
  type TInboxLabel,
  type TInboxTranscript,
  type TTeamInboxThread,
  timeAgoLabel,
} from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useOutletContext, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import type { ConnectContext } from '../connection/connection-layout';
import { usePortalContext } from '../portal/api';
import { Transcript } from '../widget/transcript';
import { type TeamInboxFilters, useAssignees, useInboxEvents, useLabels, useTeamThreads } from './api';
import { CHANNEL_NAMES } from './channel-names';
import { ContactPanel } from './contact-panel';
import { InboxSettingsDialog } from './inbox-settings';
import { LabelChip } from './labels';
import { ThreadPanel } from './thread-panel';

/** The filters of the list, read from the address (so a filtered inbox can be shared and reloaded). */
export const filtersFrom = (params: URLSearchParams): TeamInboxFilters => {
  const channel = params.get('channel');
  return {
    channel: (INBOX_CHANNELS as readonly string[]).includes(channel ?? '') ? (channel as TInboxChannel) : undefined,
    label: params.get('label') || undefined,
    assignee: params.get('assignee') || undefined,
  };
};

/** /{connectId}/inbox: every channel's conversations of the sub-account, for the team. */
export const TeamInboxRoute = () => {
  const context = useOutletContext<ConnectContext>();
  const portal = usePortalContext(context.role === 'client' ? context.subaccountId : null);
  const canAct = context.role === 'client' ? Boolean(portal.data?.access.inbox) : context.role !== 'viewer';
  return <TeamInbox subaccountId={context.subaccountId} canAct={canAct} />;
};

export const TeamInbox = ({ subaccountId, canAct }: { subaccountId: string; canAct: boolean }) => {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const [limit, setLimit] = useState(25);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // A conversation opened from a contact's profile may lie outside the filtered page.
  const [pinned, setPinned] = useState<TTeamInboxThread | null>(null);
  useInboxEvents(subaccountId);
  const threads = useTeamThreads(subaccountId, filters, limit);
  const labels = useLabels(subaccountId);
  const people = useAssignees(subaccountId);
  const labelList = labels.data?.labels ?? [];
  const items = threads.data?.threads ?? [];
  const selectedId = params.get('thread');
  const current =
    items.find((thread) => thread.threadId === selectedId) ??
    (selectedId && pinned?.threadId === selectedId ? pinned : null) ??
    (selectedId ? null : items[0]) ??
    null;

  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'thread') next.delete('thread');
    setParams(next, { replace: key !== 'thread' });
  };
  const threadLink = (threadId: string) => {
    const next = new URLSearchParams(params);
    next.set('thread', threadId);
    return `?${next.toString()}`;
  };
  const anyFilter = Boolean(filters.channel || filters.label || filters.assignee);

  return (
    <div className="mx-auto max-w-7xl">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <PageHeading
          title="Inbox"
          description="Conversations of every channel. Assign them, label them, answer them."
        />
        <Button variant="secondary" onClick={() => setSettingsOpen(true)}>
          Labels and replies
        </Button>
      </div>
      <fieldset className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-3" aria-label="Filters">
        <div>
          <Label htmlFor="filter-channel">Channel</Label>
          <Select
            id="filter-channel"
            value={filters.channel ?? ''}
            onChange={(e) => setParam('channel', e.target.value)}
          >
            <option value="">All channels</option>
            {INBOX_CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {CHANNEL_NAMES[channel]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="filter-label">Label</Label>
          <Select id="filter-label" value={filters.label ?? ''} onChange={(e) => setParam('label', e.target.value)}>
            <option value="">Any label</option>
            {labelList.map((label) => (
              <option key={label.labelId} value={label.labelId}>
                {label.name}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="filter-assignee">Assigned to</Label>
          <Select
            id="filter-assignee"
            value={filters.assignee ?? ''}
            onChange={(e) => setParam('assignee', e.target.value)}
          >
            <option value="">Anyone</option>
            <option value="me">Me</option>
            <option value="none">Nobody</option>
            {(people.data?.assignees ?? []).map((person) => (
              <option key={person.userId} value={person.userId}>
                {person.name ?? person.email}
              </option>
            ))}
          </Select>
        </div>
      </fieldset>
      <div
        className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[320px_minmax(0,1fr)_300px]"
        data-testid="team-inbox-layout"
      >
        <Card className="p-0">
          <h2 className="border-b border-border px-4 py-3 font-semibold">Conversations</h2>
          {threads.isLoading ? <p className="p-4 text-sm text-muted">Loading conversations...</p> : null}
          {!threads.isLoading && items.length === 0 ? (
            <p className="p-4 text-sm text-muted">
              {anyFilter ? 'No conversation matches these filters.' : 'No conversations yet.'}
            </p>
          ) : null}
          <ul aria-label="Conversations" className="max-h-[70vh] overflow-y-auto">
            {items.map((thread) => (
              <ThreadRow
                key={thread.threadId}
                thread={thread}
                labels={labelList}
                selected={current?.threadId === thread.threadId}
                onSelect={() => setParam('thread', thread.threadId)}
              />
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
        {current ? (
          <>
            <ThreadTranscript thread={current} canAct={canAct} />
            <div className="space-y-4">
              <ThreadPanel subaccountId={subaccountId} thread={current} labels={labelList} canAct={canAct} />
              <ContactPanel
                subaccountId={subaccountId}
                threadId={current.threadId}
                canEdit={canAct}
                threadLink={threadLink}
                onOpen={setPinned}
              />
            </div>
          </>
        ) : (
          <Card className="text-sm text-muted lg:col-span-2">Choose a conversation to read it.</Card>
        )}
      </div>
      <InboxSettingsDialog
        subaccountId={subaccountId}
        open={settingsOpen}
        onOpenChange={setSettingsOpen}
        canEdit={canAct}
      />
    </div>
  );
};

const ThreadRow = ({
  thread,
  labels,
  selected,
  onSelect,
}: {
  thread: TTeamInboxThread;
  labels: TInboxLabel[];
  selected: boolean;
  onSelect: () => void;
}) => (
  <li>
    <button
      type="button"
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      className={cn(
        'block w-full border-b border-border px-4 py-3 text-left hover:bg-surface-2',
        selected && 'bg-surface-2',
      )}
    >
      <span className="flex justify-between gap-2 text-sm font-medium">
        <span className="truncate">{thread.contactName ?? thread.contactIdentifier ?? 'Visitor'}</span>
        <span className="shrink-0 text-xs text-muted">{timeAgoLabel(Date.parse(thread.lastMessageAt))}</span>
      </span>
      <span className="block truncate text-sm text-muted">{thread.lastMessage}</span>
      <span className="mt-1 flex flex-wrap items-center gap-1 text-xs text-muted">
        <span>{CHANNEL_NAMES[thread.channel]}</span>
        {thread.assignedUserId ? <span>· Assigned</span> : null}
        {thread.handledByUserId ? <span>· Taken over</span> : null}
        {labels
          .filter((label) => thread.labelIds.includes(label.labelId))
          .map((label) => (
            <LabelChip key={label.labelId} label={label} />
          ))}
      </span>
    </button>
  </li>
);

const ThreadTranscript = ({ thread, canAct }: { thread: TTeamInboxThread; canAct: boolean }) => {
  const connectionId = thread.connectionId;
  const transcript = useQuery({
    queryKey: ['transcript', connectionId, thread.threadId],
    queryFn: () => api<TInboxTranscript>(`/api/connections/${connectionId}/conversations/${thread.threadId}`),
    enabled: Boolean(connectionId),
  });
  if (!connectionId)
    return <Card className="text-sm text-muted">This conversation’s channel was deleted; its contact stays.</Card>;
  if (!transcript.data) return <Card className="text-sm text-muted">Loading the conversation...</Card>;
  return (
    <Transcript
      connectionId={connectionId}
      transcript={transcript.data}
      canReply={canAct}
      canAttach={thread.channel === 'sms' || thread.channel === 'whatsapp'}
      whatsapp={thread.channel === 'whatsapp'}
    />
  );
};
