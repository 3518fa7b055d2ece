import {
  TICKET_CATEGORY_LABELS,
  TICKET_STATUSES,
  type TOperatorTicket,
  type TOperatorTicketDetail,
  type TOperatorTicketList,
  type TTicket,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import { ReplyBox, TicketThread } from '../support/ticket-thread';
import { formatCredits } from '../workspace/credits';

const PAGE_SIZE = 25;
const TICKETS_KEY = ['operator', 'tickets'] as const;

export const STATUS_LABELS: Record<TTicket['status'], string> = {
  open: 'Open',
  answered: 'Answered',
  closed: 'Closed',
};

const badge = 'rounded-full px-2 py-0.5 text-xs font-medium';

/** A ticket's status and priority badges. */
export const TicketBadges = ({ status, priority }: { status: TTicket['status']; priority: boolean }) => (
  <>
    <span
      className={cn(badge, status === 'open' ? 'bg-primary text-primary-foreground' : 'bg-surface-2 text-foreground')}
    >
      {STATUS_LABELS[status]}
    </span>
    {priority ? <span className={cn(badge, 'border-2 border-primary text-foreground')}>Priority</span> : null}
  </>
);

/** One row of the ticket list. */
export const TicketRow = ({
  ticket,
  selected,
  onOpen,
}: {
  ticket: TOperatorTicket;
  selected: boolean;
  onOpen: () => void;
}) => (
  <li>
    <button
      type="button"
      onClick={onOpen}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'w-full rounded-lg border p-3 text-left text-sm hover:bg-surface-2',
        selected ? 'border-primary' : 'border-border',
      )}
    >
      <span className="flex flex-wrap items-center gap-2">
        <TicketBadges status={ticket.status} priority={ticket.prioritySupport} />
        <span className="font-medium break-words">{ticket.subject}</span>
      </span>
      <span className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted">
        <span className="break-all">{ticket.email}</span>
        <span>{ticket.accountName}</span>
        <span>{ticket.plan}</span>
        <span>{new Date(ticket.createdAt).toLocaleDateString('en-US')}</span>
        {ticket.messageCount > 0 ? <span>{ticket.messageCount} in thread</span> : null}
      </span>
    </button>
  </li>
);

/** The Tickets section: the list (open first, then priority, then oldest) beside the chosen ticket. */
export const TicketsSection = () => {
  const [params, setParams] = useSearchParams();
  const status = TICKET_STATUSES.find((value) => value === params.get('status'));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const selected = params.get('ticket');
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
  const list = useQuery({
    queryKey: [...TICKETS_KEY, status ?? 'all', page],
    queryFn: () =>
      api<TOperatorTicketList>(
        `/api/operator/tickets?page=${page}&limit=${PAGE_SIZE}${status ? `&status=${status}` : ''}`,
        { silent: true },
      ),
  });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <Card className="space-y-3 p-4">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 className="text-lg font-semibold">Tickets</h2>
          <div className="w-40">
            <Label htmlFor="ticket-status-filter">Status</Label>
            <Select
              id="ticket-status-filter"
              value={status ?? ''}
              onChange={(event) => set({ status: event.target.value || null, page: null })}
            >
              <option value="">All</option>
              {TICKET_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {STATUS_LABELS[value]}
                </option>
              ))}
            </Select>
          </div>
        </div>
        {list.isLoading ? <Spinner label="Loading tickets" /> : null}
        {list.isError ? <p className="text-sm text-danger">The tickets could not be loaded.</p> : null}
        {list.data && list.data.tickets.length === 0 ? <p className="text-sm text-muted">No tickets.</p> : null}
        <ul className="space-y-2">
          {list.data?.tickets.map((ticket) => (
            <TicketRow
              key={ticket.id}
              ticket={ticket}
              selected={ticket.id === selected}
              onOpen={() => set({ ticket: ticket.id })}
            />
          ))}
        </ul>
        {pages > 1 ? (
          <div className="flex items-center justify-between gap-2 text-sm">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => set({ page: String(page - 1) })}>
              Previous
            </Button>
            <span className="text-muted">
              Page {page} of {pages}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={page >= pages}
              onClick={() => set({ page: String(page + 1) })}
            >
              Next
            </Button>
          </div>
        ) : null}
      </Card>
      {selected ? <TicketDetail ticketId={selected} onClose={() => set({ ticket: null })} /> : null}
    </div>
  );
};

const TicketDetail = ({ ticketId, onClose }: { ticketId: string; onClose: () => void }) => {
  const queryClient = useQueryClient();
  const key = ['operator', 'ticket', ticketId];
  const detail = useQuery({
    queryKey: key,
    queryFn: () =>
      api<TOperatorTicketDetail>(`/api/operator/tickets/${encodeURIComponent(ticketId)}`, { silent: true }),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: TICKETS_KEY });
  };
  const setStatus = useMutation({
    mutationFn: (status: 'open' | 'closed') =>
      api<TOperatorTicketDetail>(`/api/operator/tickets/${encodeURIComponent(ticketId)}`, {
        method: 'PATCH',
        body: { status },
      }),
    onSuccess: (answer) => {
      toast.success(answer.ticket.status === 'closed' ? 'Ticket closed' : 'Ticket opened again');
      refresh();
    },
  });
  if (detail.isLoading) return <Spinner label="Loading ticket" />;
  if (!detail.data) {
    return (
      <Card className="space-y-2 p-4">
        <p className="text-sm text-danger">This ticket could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={onClose}>
          Back to the list
        </Button>
      </Card>
    );
  }
  const { ticket, account, context, messages } = detail.data;
  return (
    <Card className="space-y-4 p-4" aria-label={`Ticket ${ticket.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold break-words">{ticket.subject}</h2>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">
            <TicketBadges status={ticket.status} priority={ticket.prioritySupport} />
            <span>{TICKET_CATEGORY_LABELS[ticket.category]}</span>
            <span>{ticket.id}</span>
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={setStatus.isPending}
            onClick={() => setStatus.mutate(ticket.status === 'closed' ? 'open' : 'closed')}
          >
            {ticket.status === 'closed' ? 'Open again' : 'Close ticket'}
          </Button>
          <Button variant="ghost" size="sm" onClick={onClose}>
            Back
          </Button>
        </div>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 rounded-lg bg-surface-2 p-3 text-xs sm:grid-cols-2">
        {[
          ['From', ticket.email],
          ['Agency', `${account.name} (${account.ownerEmail})`],
          ['Plan', account.plan],
          ['Credits', formatCredits(account.credits)],
          ['Sub-account', `${context.subaccountName} · ${context.role}`],
          ['Page', context.page ?? 'not given'],
        ].map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="inline text-muted">{label}: </dt>
            <dd className="inline break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <TicketThread
        first={{ body: ticket.message, createdAt: ticket.createdAt }}
        messages={messages}
        viewer="operator"
        customer={ticket.email}
      />
      <ReplyBox
        id={`reply-${ticket.id}`}
        url={`/api/operator/tickets/${encodeURIComponent(ticket.id)}/replies`}
        label="Reply to the customer"
        button="Send reply"
        onSent={() => {
          toast.success(`Reply mailed to ${ticket.email}`);
          refresh();
        }}
      />
    </Card>
  );
};
