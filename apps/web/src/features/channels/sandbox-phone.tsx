import {
  SANDBOX_NOTICE,
  type TChannelConnection,
  type TChannelMessage,
  type TChannelMessageList,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { showErrorDialog } from '../errors/error-dialog';

/** What actually carries a connection's messages, as its log is labelled: only a sandbox says Sandbox. */
export const transportLabel = (connection: Pick<TChannelConnection, 'transport'>) =>
  connection.transport === 'sandbox' ? 'Sandbox' : connection.transport === 'meta' ? 'Meta' : 'Twilio';

/** The tab of the messages: the sandbox phone for a sandbox connection, the message log for a real one. */
export const logTabLabel = (connection: Pick<TChannelConnection, 'transport'> | undefined, sandboxName: string) =>
  connection && connection.transport !== 'sandbox' ? 'Message log' : sandboxName;

const DEFAULT_PHONE = '+15555550123';
const DEFAULT_USERNAME = 'sandbox.visitor';

const PAGE = 500;

/**
 * The connection's messages: the latest page live (the sandbox phone's inbox and the numbers that
 * have one), and older pages loaded on demand, each before the oldest message shown.
 */
const useMessages = (connectionId: string) => {
  const latest = useQuery({
    queryKey: ['channel', connectionId, 'messages'],
    queryFn: () => api<TChannelMessageList>(`/api/channels/${connectionId}/messages?limit=${PAGE}`, { silent: true }),
  });
  const [older, setOlder] = useState<{ messages: TChannelMessage[]; hasMore: boolean } | null>(null);
  const recent = latest.data?.messages ?? [];
  const all = useMemo(() => {
    const shown = new Set(recent.map((message) => message.messageId));
    return [...(older?.messages ?? []).filter((message) => !shown.has(message.messageId)), ...recent];
  }, [older, recent]);
  const loadOlder = useMutation({
    mutationFn: () =>
      api<TChannelMessageList>(
        `/api/channels/${connectionId}/messages?limit=${PAGE}&before=${encodeURIComponent(all[0]?.messageId ?? '')}`,
        { silent: true },
      ),
    onSuccess: (page) =>
      setOlder((before) => ({ messages: [...page.messages, ...(before?.messages ?? [])], hasMore: page.hasMore })),
    onError: (failure) => showErrorDialog(failure),
  });
  const hasMore = older ? older.hasMore : (latest.data?.hasMore ?? false);
  return { all, hasMore, loadOlder, isLoading: latest.isLoading };
};

/**
 * The sandbox phone: text the agent as any number, see every message to that number arrive, reply,
 * STOP. For an Instagram agent it is an Instagram-style chat: write as any username.
 */
export const SandboxPhone = ({ connection, canEdit }: { connection: TChannelConnection; canEdit: boolean }) => {
  const client = useQueryClient();
  const messages = useMessages(connection.connectionId);
  const instagram = connection.type === 'instagram';
  const [phone, setPhone] = useState(instagram ? DEFAULT_USERNAME : DEFAULT_PHONE);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { all } = messages;
  const numbers = useMemo(() => {
    const seen = new Map<string, TChannelMessage>();
    for (const message of all) seen.set(message.contactPhone, message);
    return [...seen.entries()].sort((a, b) => b[1].createdAt.localeCompare(a[1].createdAt));
  }, [all]);
  const contact = instagram ? phone.trim().replace(/^@/, '') : phone;
  const thread = all.filter((message) => message.contactPhone === contact);
  const bottom = useRef<HTMLLIElement | null>(null);
  const count = thread.length;
  useEffect(() => {
    if (count) bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);
  const send = useMutation({
    mutationFn: (body: string) =>
      api(`/api/channels/${connection.connectionId}/sandbox/inbound`, {
        body: { from: instagram ? contact : phone.trim(), body },
        silent: true,
      }),
    onSuccess: () => {
      setDraft('');
      void client.invalidateQueries({ queryKey: ['channel', connection.connectionId] });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 422) setError(failure.message);
      else showErrorDialog(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (draft.trim()) send.mutate(draft.trim());
  };
  const sandbox = connection.transport === 'sandbox';

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[280px_minmax(0,420px)_1fr]">
      <Card className="p-0">
        <h2 className="border-b border-border px-4 py-3 font-semibold">{instagram ? 'Chats' : 'Numbers'}</h2>
        {sandbox ? (
          <p
            role="note"
            className="border-b border-border px-4 py-2 text-xs font-semibold text-amber-900 dark:text-amber-200"
          >
            {SANDBOX_NOTICE}
          </p>
        ) : null}
        {!numbers.length ? <p className="p-4 text-sm text-muted">No messages yet.</p> : null}
        <ul
          aria-label={instagram ? 'Accounts with messages' : 'Numbers with messages'}
          className="max-h-[60vh] overflow-y-auto"
        >
          {numbers.map(([number, last]) => (
            <li key={number}>
              <button
                type="button"
                onClick={() => setPhone(number)}
                aria-current={number === contact ? 'true' : undefined}
                className={cn(
                  'w-full border-b border-border px-4 py-2 text-left text-sm hover:bg-surface-2',
                  number === contact && 'bg-surface-2',
                )}
              >
                <span className="block font-medium">{instagram ? `@${number}` : number}</span>
                <span className="block truncate text-xs text-muted">{last.body || '[attachment]'}</span>
              </button>
            </li>
          ))}
        </ul>
      </Card>
      <section
        aria-label={
          sandbox ? (instagram ? 'Instagram sandbox' : 'Sandbox phone') : `Message log (${transportLabel(connection)})`
        }
        className="mx-auto w-full max-w-[400px] rounded-[2.5rem] border-4 border-border bg-surface p-3 shadow-lg"
      >
        <div className="flex items-center justify-between px-3 pb-2 text-xs text-muted">
          <span>9:41</span>
          <span
            className={cn(
              'rounded px-2 py-0.5 font-semibold',
              sandbox ? 'bg-amber-500/15 text-amber-900 dark:text-amber-200' : 'bg-primary/15 text-foreground',
            )}
            data-testid="log-transport"
          >
            {transportLabel(connection)}
          </span>
          <span>100%</span>
        </div>
        {instagram ? (
          <div className="mb-2 flex items-center gap-3 border-b border-border px-3 pb-2">
            <span
              aria-hidden="true"
              className="flex h-9 w-9 items-center justify-center rounded-full bg-gradient-to-tr from-amber-400 via-pink-500 to-purple-600 text-sm font-bold text-white"
            >
              {(connection.instagram?.username ?? connection.connectionName).slice(0, 1).toUpperCase()}
            </span>
            <span className="min-w-0">
              <span className="block truncate text-sm font-semibold">
                {connection.instagram?.username ?? connection.connectionName}
              </span>
              <span className="block text-xs text-muted">Active now</span>
            </span>
          </div>
        ) : null}
        <div className="px-3 pb-2">
          <Label htmlFor="sandbox-from">
            {sandbox
              ? instagram
                ? 'Writing as (Instagram username)'
                : 'Texting as'
              : instagram
                ? 'Conversation with (Instagram username)'
                : 'Conversation with'}
          </Label>
          <Input
            id="sandbox-from"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            inputMode={instagram ? 'text' : 'tel'}
            autoCapitalize="none"
          />
          {instagram ? null : (
            <p className="mt-1 text-xs text-muted">
              To {connection.sender.phoneNumber ?? connection.sender.messagingServiceSid}
            </p>
          )}
        </div>
        <ol
          aria-label={`Messages with ${instagram ? `@${contact}` : phone}`}
          aria-live="polite"
          className="h-[380px] space-y-2 overflow-y-auto rounded-2xl bg-background p-3"
        >
          {messages.hasMore ? (
            <li className="text-center">
              <Button
                size="sm"
                variant="ghost"
                disabled={messages.loadOlder.isPending}
                onClick={() => messages.loadOlder.mutate()}
              >
                {messages.loadOlder.isPending ? 'Loading…' : 'Show earlier messages'}
              </Button>
            </li>
          ) : null}
          {!thread.length ? (
            <li className="text-center text-xs text-muted">
              {instagram ? 'Send the agent a message to start.' : 'Text the agent to start.'}
            </li>
          ) : null}
          {thread.map((message) => (
            <li
              key={message.messageId}
              className={cn('flex', message.direction === 'inbound' ? 'justify-end' : 'justify-start')}
            >
              <div
                className={cn(
                  'max-w-[80%] rounded-2xl px-3 py-2 text-sm',
                  message.direction === 'inbound'
                    ? 'bg-primary text-primary-foreground'
                    : 'bg-surface-2 text-foreground',
                )}
              >
                <p className="whitespace-pre-wrap break-words">{message.body || '[attachment]'}</p>
                {message.mediaUrls.map((url, index) => (
                  <a
                    key={url}
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="mt-1 block text-xs font-medium underline"
                  >
                    Attachment {message.mediaUrls.length > 1 ? index + 1 : ''}
                  </a>
                ))}
                {message.direction === 'outbound' ? (
                  <p className="mt-1 text-[11px] opacity-80">
                    {message.campaignId ? 'Campaign · ' : ''}
                    {message.status}
                    {message.errorCode ? ` (${message.errorCode})` : ''}
                  </p>
                ) : null}
              </div>
            </li>
          ))}
          <li ref={bottom} aria-hidden="true" />
        </ol>
        {sandbox && canEdit ? (
          <form onSubmit={submit} className="mt-2 flex gap-2 px-1">
            <label htmlFor="sandbox-text" className="sr-only">
              Message
            </label>
            <Input
              id="sandbox-text"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              placeholder={instagram ? 'Message...' : 'iMessage'}
              maxLength={1600}
            />
            <Button type="submit" disabled={send.isPending || !draft.trim()}>
              Send
            </Button>
            {instagram ? null : (
              <Button type="button" variant="secondary" onClick={() => send.mutate('STOP')} disabled={send.isPending}>
                STOP
              </Button>
            )}
          </form>
        ) : null}
        <FieldError>{error}</FieldError>
      </section>
      <Card>
        <h2 className="font-semibold">{sandbox ? 'How the sandbox works' : 'How this log works'}</h2>
        <p className="mt-2 text-sm text-muted">
          {instagram
            ? sandbox
              ? 'Nothing leaves this app. Write to the agent as any Instagram username, as a customer would in a direct message; the agent’s answers and your team’s replies from Conversations arrive here live.'
              : 'This connection answers through Meta: send a direct message to the Instagram account from the Instagram app. Every message in and out shows here live.'
            : sandbox
              ? 'Nothing leaves this app. Text the agent as any number; campaign messages and the agent’s answers arrive here live. STOP opts the number out of every campaign and the agent until it texts START.'
              : 'This connection sends through Twilio: text its number from a real phone. Every message in and out shows here live.'}
        </p>
        {instagram || !sandbox ? null : (
          <p className="mt-2 text-sm text-muted">
            Twilio’s test numbers +15005550001 (invalid) and +15005550009 (not a mobile) fail in the sandbox as they
            would on Twilio.
          </p>
        )}
      </Card>
    </div>
  );
};
