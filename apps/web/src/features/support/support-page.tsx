import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  type TTicket,
  type TTicketListResponse,
  ZCreateTicketRequest,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import { HELP_ARTICLES, searchArticles } from './articles';
import { Markdown } from './markdown';
import { ReplyBox, TicketThread } from './ticket-thread';

const TICKETS_KEY = ['support-tickets'] as const;

/** /support: searchable help articles, a contact form that opens a ticket, and the ticket list. */
export const SupportPage = () => {
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState('');
  const results = useMemo(() => searchArticles(query), [query]);
  const open = HELP_ARTICLES.find((article) => article.slug === params.get('article')) ?? null;
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 lg:grid-cols-[1fr_380px]">
      <section aria-labelledby="help-heading" className="space-y-4">
        <h2 id="help-heading" className="text-lg font-semibold">
          Help articles
        </h2>
        <div>
          <Label htmlFor="help-search">Search help articles</Label>
          <Input
            id="help-search"
            type="search"
            value={query}
            placeholder="e.g. deploy widget, promo code, PostgreSQL"
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        {results.length === 0 ? <p className="text-sm text-muted">No article matches “{query}”.</p> : null}
        <ul className="grid gap-2 sm:grid-cols-2">
          {results.map((article) => (
            <li key={article.slug}>
              <button
                type="button"
                aria-pressed={open?.slug === article.slug}
                onClick={() => setParams({ article: article.slug })}
                className={cn(
                  'h-full w-full rounded-lg border p-3 text-left text-sm',
                  open?.slug === article.slug
                    ? 'border-primary bg-surface-2'
                    : 'border-border bg-surface hover:bg-surface-2',
                )}
              >
                <span className="block font-semibold">{article.title}</span>
                <span className="block text-muted">{article.summary}</span>
              </button>
            </li>
          ))}
        </ul>
        {open ? (
          <Card>
            <article aria-labelledby="article-title">
              <h2 id="article-title" className="mb-2 text-xl font-semibold">
                {open.title}
              </h2>
              <Markdown source={open.body} />
            </article>
          </Card>
        ) : null}
      </section>
      <aside className="space-y-4" aria-label="Contact support">
        <ContactForm />
        <TicketList />
      </aside>
    </div>
  );
};

const useTickets = () =>
  useQuery({ queryKey: TICKETS_KEY, queryFn: () => api<TTicketListResponse>('/api/support/tickets?limit=50') });

const ContactForm = () => {
  const queryClient = useQueryClient();
  const tickets = useTickets();
  const [form, setForm] = useState({ category: 'question', subject: '', message: '' });
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (body: unknown) => api<TTicket>('/api/support/tickets', { body }),
    onSuccess: (ticket) => {
      toast.success(`Ticket ${ticket.id} sent`);
      setForm({ category: 'question', subject: '', message: '' });
      void queryClient.invalidateQueries({ queryKey: TICKETS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZCreateTicketRequest.safeParse(form);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the form');
      return;
    }
    setError(null);
    send.mutate(parsed.data);
  };
  return (
    <Card>
      <form onSubmit={submit} noValidate className="space-y-3">
        <h2 className="text-lg font-semibold">Contact support</h2>
        {tickets.data ? (
          <p className="text-sm text-muted">
            {tickets.data.prioritySupport
              ? 'Your plan includes priority support: your tickets are answered first.'
              : 'We answer by email and under Your tickets. Priority support comes with the Enterprise plan.'}
          </p>
        ) : null}
        <div>
          <Label htmlFor="ticket-category">Topic</Label>
          <Select
            id="ticket-category"
            value={form.category}
            onChange={(event) => setForm({ ...form, category: event.target.value })}
          >
            {TICKET_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {TICKET_CATEGORY_LABELS[category]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="ticket-subject">Subject</Label>
          <Input
            id="ticket-subject"
            maxLength={150}
            value={form.subject}
            onChange={(event) => setForm({ ...form, subject: event.target.value })}
          />
        </div>
        <div>
          <Label htmlFor="ticket-message">Message</Label>
          <Textarea
            id="ticket-message"
            rows={5}
            maxLength={5000}
            value={form.message}
            onChange={(event) => setForm({ ...form, message: event.target.value })}
          />
        </div>
        <p className="text-xs text-muted">
          We include your agency, sub-account and role so we can help faster. We reply to your account's email.
        </p>
        <FieldError>{error}</FieldError>
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send ticket'}
        </Button>
      </form>
    </Card>
  );
};

const STATUS_LABELS: Record<TTicket['status'], string> = { open: 'Open', answered: 'Answered', closed: 'Closed' };

const TicketList = () => {
  const queryClient = useQueryClient();
  const tickets = useTickets();
  return (
    <Card>
      <h2 className="mb-2 text-lg font-semibold">Your tickets</h2>
      {tickets.isLoading ? <Spinner label="Loading tickets" /> : null}
      {tickets.isError ? <p className="text-sm text-danger">Your tickets could not be loaded.</p> : null}
      {tickets.data && tickets.data.tickets.length === 0 ? <p className="text-sm text-muted">No tickets yet.</p> : null}
      <ul className="space-y-2">
        {tickets.data?.tickets.map((ticket) => (
          <li key={ticket.id} className="rounded-lg border border-border p-3 text-sm">
            <details>
              <summary className="cursor-pointer list-none">
                <p className="font-medium break-words">{ticket.subject}</p>
                <p className="mt-1 flex flex-wrap gap-2 text-xs text-muted">
                  <span className="rounded-full bg-surface-2 px-2 py-0.5 text-foreground">
                    {STATUS_LABELS[ticket.status]}
                  </span>
                  {ticket.priority === 'priority' ? (
                    <span className="rounded-full bg-surface-2 px-2 py-0.5 text-foreground">Priority</span>
                  ) : null}
                  <span>{TICKET_CATEGORY_LABELS[ticket.category]}</span>
                  <span>{new Date(ticket.createdAt).toLocaleDateString('en-US')}</span>
                  <span>{ticket.id}</span>
                  {ticket.messages.length > 0 ? (
                    <span>
                      {ticket.messages.length} {ticket.messages.length === 1 ? 'reply' : 'replies'}
                    </span>
                  ) : null}
                </p>
              </summary>
              <div className="mt-3 space-y-3">
                <TicketThread
                  first={{ body: ticket.message, createdAt: ticket.createdAt }}
                  messages={ticket.messages}
                  viewer="customer"
                />
                <ReplyBox
                  id={`answer-${ticket.id}`}
                  url={`/api/support/tickets/${ticket.id}/replies`}
                  label="Your answer"
                  button="Send answer"
                  onSent={() => {
                    toast.success('Answer sent');
                    void queryClient.invalidateQueries({ queryKey: TICKETS_KEY });
                  }}
                />
              </div>
            </details>
          </li>
        ))}
      </ul>
    </Card>
  );
};
