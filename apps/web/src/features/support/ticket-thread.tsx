import { type TTicketMessage, ZTicketReplyRequest } from '@switchboard/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Label, Textarea } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';

/** Who wrote a message, as the reader of the thread calls them. */
const authorName = (author: TTicketMessage['author'], viewer: 'customer' | 'operator', customer: string) => {
  if (author === 'operator') return viewer === 'operator' ? 'Operator' : 'Switchboard support';
  return viewer === 'customer' ? 'You' : customer;
};

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A ticket's conversation: its first message, then the replies and answers, oldest first. */
export const TicketThread = ({
  first,
  messages,
  viewer,
  customer = 'Customer',
}: {
  first: { body: string; createdAt: string };
  messages: TTicketMessage[];
  viewer: 'customer' | 'operator';
  customer?: string;
}) => (
  <ol className="space-y-2" aria-label="Conversation">
    {[{ id: 'first', author: 'customer' as const, ...first }, ...messages].map((message) => (
      <li
        key={message.id}
        className={cn(
          'rounded-lg border border-border p-3 text-sm',
          message.author === 'operator' ? 'bg-surface-2' : 'bg-surface',
        )}
      >
        <p className="mb-1 flex flex-wrap justify-between gap-2 text-xs text-muted">
          <span className="font-medium text-foreground">{authorName(message.author, viewer, customer)}</span>
          <span>{when(message.createdAt)}</span>
        </p>
        <p className="whitespace-pre-wrap break-words">{message.body}</p>
      </li>
    ))}
  </ol>
);

/** A new id for the message being written; the same id is sent again when the send is retried. */
const newClientId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

/**
 * The box to write on a ticket. Each message gets an id once (clientId), kept until it is sent, so
 * a double click or a retry after a lost answer stores it once.
 */
export const ReplyBox = ({
  id,
  url,
  label,
  button,
  onSent,
}: {
  id: string;
  url: string;
  label: string;
  button: string;
  onSent: (message: TTicketMessage) => void;
}) => {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const clientId = useRef(newClientId());
  const send = useMutation({
    mutationFn: (body: unknown) => api<TTicketMessage>(url, { body }),
    onSuccess: (message) => {
      setText('');
      clientId.current = newClientId();
      onSent(message);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const parsed = ZTicketReplyRequest.safeParse({ message: text, clientId: clientId.current });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the message');
      return;
    }
    setError(null);
    send.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        rows={3}
        maxLength={5000}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          // A changed message is a new message.
          if (!send.isPending) clientId.current = newClientId();
        }}
      />
      <FieldError>{error}</FieldError>
      <Button type="submit" size="sm" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : button}
      </Button>
    </form>
  );
};
