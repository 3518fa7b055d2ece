import type { TContactProfile, TTeamInboxThread } from '@switchboard/core';
import { timeAgoLabel } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input, Label, Textarea } from '../../components/ui/input';
import { api } from '../../lib/api';
import { inboxBase } from './api';
import { CHANNEL_NAMES } from './channel-names';

const KIND_LABEL = { phone: 'Phone number', username: 'Instagram account', visitor: 'Visitor' } as const;

/** The person behind a conversation: name and notes the team keeps, and every conversation they had. */
export const ContactPanel = ({
  subaccountId,
  threadId,
  canEdit,
  threadLink,
  onOpen,
}: {
  subaccountId: string;
  threadId: string;
  canEdit: boolean;
  threadLink: (threadId: string) => string;
  /** Called with the conversation chosen in the list (it may lie outside the inbox's filters). */
  onOpen?: (thread: TTeamInboxThread) => void;
}) => {
  const client = useQueryClient();
  const url = `${inboxBase(subaccountId)}/threads/${threadId}/contact`;
  const profile = useQuery({
    queryKey: ['contact-profile', subaccountId, threadId],
    queryFn: () => api<TContactProfile>(url),
  });
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  useEffect(() => {
    setName(profile.data?.name ?? '');
    setNotes(profile.data?.notes ?? '');
  }, [profile.data]);
  const save = useMutation({
    mutationFn: () => api<TContactProfile>(url, { method: 'PATCH', body: { name, notes } }),
    onSuccess: (data) => {
      client.setQueryData(['contact-profile', subaccountId, threadId], data);
      void client.invalidateQueries({ queryKey: ['team-inbox', subaccountId] });
    },
  });
  const data = profile.data;
  if (!data)
    return <Card className="text-sm text-muted">{profile.isLoading ? 'Loading contact...' : 'No contact.'}</Card>;
  const editable = canEdit && Boolean(data.contactIdentifier);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const changed = name !== (data.name ?? '') || notes !== data.notes;

  return (
    <Card className="space-y-3" aria-label="Contact">
      <h2 className="font-semibold">Contact</h2>
      <p className="text-sm">
        <span className="text-muted">{KIND_LABEL[data.kind]}: </span>
        <span className="break-all">{data.contactIdentifier ?? 'No identifier'}</span>
      </p>
      {editable ? (
        <form onSubmit={submit} className="space-y-2">
          <div>
            <Label htmlFor={`contact-name-${threadId}`}>Name</Label>
            <Input
              id={`contact-name-${threadId}`}
              value={name}
              maxLength={120}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div>
            <Label htmlFor={`contact-notes-${threadId}`}>Notes</Label>
            <Textarea
              id={`contact-notes-${threadId}`}
              value={notes}
              maxLength={4000}
              onChange={(e) => setNotes(e.target.value)}
              className="min-h-20"
            />
          </div>
          <Button type="submit" size="sm" disabled={!changed || save.isPending}>
            Save contact
          </Button>
        </form>
      ) : (
        <>
          <p className="text-sm">
            <span className="text-muted">Name: </span>
            {data.name ?? 'Not known'}
          </p>
          {data.notes ? <p className="text-sm whitespace-pre-wrap">{data.notes}</p> : null}
        </>
      )}
      <div>
        <h3 className="text-sm font-semibold">Conversations ({data.threads.length})</h3>
        <ul className="mt-1 space-y-1 text-sm">
          {data.threads.map((thread) => (
            <li key={thread.threadId}>
              <Link
                to={threadLink(thread.threadId)}
                onClick={() => onOpen?.(thread)}
                aria-current={thread.threadId === threadId ? 'true' : undefined}
                className="underline decoration-primary decoration-2"
              >
                {CHANNEL_NAMES[thread.channel]}
                {thread.connectionName ? ` · ${thread.connectionName}` : ''}
              </Link>{' '}
              <span className="text-muted">{timeAgoLabel(Date.parse(thread.lastMessageAt))}</span>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
};
