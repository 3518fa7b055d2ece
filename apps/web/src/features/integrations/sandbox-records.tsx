import type { TSandboxRecord } from '@switchboard/core';
import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';

const text = (value: unknown) => (typeof value === 'string' && value ? value : '—');

/** One sandbox app's records as a titled list, or the sentence saying there are none yet. */
const RecordList = ({
  title,
  records,
  empty,
  line,
}: {
  title: string;
  records: TSandboxRecord[];
  empty: string;
  line: (record: TSandboxRecord) => ReactNode;
}) => (
  <Card className="min-w-0 space-y-2">
    <h3 className="font-semibold">{title}</h3>
    {records.length ? (
      <ul aria-label={title} className="space-y-1 text-sm">
        {records.map((record) => (
          <li key={record.id} className="break-words rounded-md border border-border px-2 py-1">
            {line(record)}
          </li>
        ))}
      </ul>
    ) : (
      <p className="text-sm text-muted">{empty}</p>
    )}
  </Card>
);

/** What agents did in the sandbox apps: calendar bookings, CRM contacts and outbox emails. */
export const SandboxRecords = ({ records }: { records: TSandboxRecord[] }) => {
  const of = (kind: TSandboxRecord['kind']) => records.filter((record) => record.kind === kind);
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
      <RecordList
        title="Calendar bookings"
        records={of('booking')}
        empty="No bookings yet."
        line={({ data }) => (
          <>
            <span className="font-medium">
              {text(data.date)} at {text(data.time)}
            </span>{' '}
            · {text(data.attendee)}
            {data.email ? ` (${text(data.email)})` : ''}
          </>
        )}
      />
      <RecordList
        title="CRM contacts"
        records={of('contact')}
        empty="No contacts yet."
        line={({ data }) => (
          <>
            <span className="font-medium">{text(data.name)}</span> · {text(data.email)}
          </>
        )}
      />
      <RecordList
        title="Email outbox"
        records={of('email')}
        empty="No emails sent yet."
        line={({ data }) => (
          <>
            <span className="font-medium">{text(data.subject)}</span> to {text(data.to)}
          </>
        )}
      />
    </div>
  );
};
