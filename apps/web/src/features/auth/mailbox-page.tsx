import type { TOutboxMessage } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';

/** Lists mail kept in the outbox when no SMTP server is configured (development only). */
export const MailboxPage = () => {
  const query = useQuery({
    queryKey: ['dev-mailbox'],
    queryFn: () => api<{ messages: TOutboxMessage[] }>('/api/dev/mailbox', { silent: true }),
    refetchInterval: 3000,
  });
  return (
    <main className="mx-auto max-w-3xl p-4 sm:p-8">
      <PageHeading
        title="Dev mailbox"
        description="Mail the server would have sent. Shown only while no SMTP server is configured."
      />
      {query.isLoading ? <Spinner /> : null}
      {query.isError ? <p className="text-danger">The dev mailbox is not available on this server.</p> : null}
      {query.data?.messages.length === 0 ? <p className="text-muted">No mail yet.</p> : null}
      <ul className="space-y-3">
        {query.data?.messages.map((message) => (
          <li key={message.id}>
            <Card>
              <div className="flex flex-wrap justify-between gap-2 text-sm text-muted">
                <span>To: {message.to}</span>
                <time dateTime={message.createdAt}>{new Date(message.createdAt).toLocaleString()}</time>
              </div>
              <h2 className="mt-1 font-medium">{message.subject}</h2>
              <p className="mt-2 text-sm whitespace-pre-line break-words text-muted">{message.text}</p>
              {message.link ? (
                <a
                  className="mt-3 inline-block font-medium underline decoration-primary decoration-2"
                  href={message.link}
                >
                  Open link
                </a>
              ) : null}
            </Card>
          </li>
        ))}
      </ul>
    </main>
  );
};
