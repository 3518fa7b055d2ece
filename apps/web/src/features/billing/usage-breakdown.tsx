import { type TUsageBreakdownRow, USAGE_GROUPS } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input, Label, Select } from '../../components/ui/input';
import { api } from '../../lib/api';
import { useSession } from '../session/session';
import { errorText, useBillingAccess } from './billing-api';

type Group = (typeof USAGE_GROUPS)[number];
const AGENCY_LABELS: Record<Group, string> = {
  day: 'Day',
  subaccount: 'Client',
  agent: 'Agent',
  channel: 'Channel',
  model: 'Model',
};
// A client's login reads its own sub-accounts (the server leaves the others out).
const CLIENT_LABELS: Record<Group, string> = { ...AGENCY_LABELS, subaccount: 'Sub-account' };

interface Breakdown {
  from: string;
  to: string;
  groupBy: Group;
  rows: TUsageBreakdownRow[];
}

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

/** A CSV cell: quoted, with quotes doubled, and formulas neutralised for spreadsheets. */
const cell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
};

const downloadCsv = (data: Breakdown, labels: Record<Group, string>) => {
  const header = [labels[data.groupBy], 'Calls', 'Input tokens', 'Output tokens', 'Credits', 'Charged'];
  const lines = [
    header,
    ...data.rows.map((row) => [row.label, row.calls, row.inputTokens, row.outputTokens, row.credits, row.charged]),
  ];
  const blob = new Blob([`${lines.map((line) => line.map(cell).join(',')).join('\n')}\n`], { type: 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `usage-by-${data.groupBy}-${data.from}-to-${data.to}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
};

/** Usage aggregated by the server (day, client, agent, channel, model): chart, table and CSV export. */
export const UsageBreakdownCard = () => {
  const { user, currentSubaccount } = useSession();
  const labels = useBillingAccess().canManageBilling ? AGENCY_LABELS : CLIENT_LABELS;
  const [groupBy, setGroupBy] = useState<Group>('subaccount');
  const [from, setFrom] = useState(day(29));
  const [to, setTo] = useState(day(0));
  const breakdown = useQuery({
    queryKey: ['usage', 'breakdown', currentSubaccount?.id, groupBy, from, to],
    enabled: Boolean(user && currentSubaccount && from && to),
    retry: false,
    queryFn: () =>
      api<Breakdown>(`/api/usage/breakdown?${new URLSearchParams({ groupBy, from, to }).toString()}`, { silent: true }),
  });
  const rows = breakdown.data?.rows ?? [];
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">
        Usage by {labels.subaccount.toLowerCase()}, agent, channel, model or day
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <Label htmlFor="breakdown-group">Group by</Label>
          <Select id="breakdown-group" value={groupBy} onChange={(event) => setGroupBy(event.target.value as Group)}>
            {USAGE_GROUPS.map((group) => (
              <option key={group} value={group}>
                {labels[group]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="breakdown-from">From</Label>
          <Input id="breakdown-from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div>
          <Label htmlFor="breakdown-to">To</Label>
          <Input id="breakdown-to" type="date" value={to} onChange={(event) => setTo(event.target.value)} />
        </div>
        <Button
          variant="secondary"
          disabled={!breakdown.data || rows.length === 0}
          onClick={() => breakdown.data && downloadCsv(breakdown.data, labels)}
        >
          Export CSV
        </Button>
      </div>
      {breakdown.error ? (
        <p role="alert" className="text-sm text-danger">
          {errorText(breakdown.error)}
        </p>
      ) : null}
      {breakdown.data && rows.length === 0 ? <p className="text-sm text-muted">No usage in these dates.</p> : null}
      {rows.length > 0 ? (
        <>
          <figure
            aria-label={`Credits by ${labels[groupBy].toLowerCase()}`}
            className="h-56 w-full min-w-0 overflow-hidden"
          >
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={rows} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                <XAxis dataKey="label" stroke="var(--muted)" fontSize={12} />
                <YAxis stroke="var(--muted)" fontSize={12} width={48} />
                <Tooltip
                  contentStyle={{
                    background: 'var(--surface)',
                    border: '1px solid var(--border)',
                    color: 'var(--foreground)',
                  }}
                />
                <Bar dataKey="credits" fill="var(--color-primary)" />
              </BarChart>
            </ResponsiveContainer>
          </figure>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <section className="relative overflow-x-auto" tabIndex={0} aria-label="Usage breakdown table">
            <table className="w-full text-sm">
              <caption className="sr-only">
                Usage by {labels[groupBy].toLowerCase()}, {breakdown.data?.from} to {breakdown.data?.to}
              </caption>
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-2 pr-4 text-left font-medium">
                    {labels[groupBy]}
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    Calls
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    Tokens
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Credits
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.key ?? 'none'} className="border-t border-border">
                    <th scope="row" className="py-2 pr-4 text-left font-normal">
                      {row.label}
                    </th>
                    <td className="py-2 pr-4 text-right">{row.calls.toLocaleString('en-US')}</td>
                    <td className="py-2 pr-4 text-right">
                      {(row.inputTokens + row.outputTokens).toLocaleString('en-US')}
                    </td>
                    <td className="py-2 text-right">
                      {row.credits.toLocaleString('en-US', { maximumFractionDigits: 4 })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : null}
    </Card>
  );
};
