import type { TClientMargin } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Spinner } from '../../components/ui/card';
import { Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatCreditPrice, formatMinor } from './format';

const thisMonth = () => new Date().toISOString().slice(0, 7);

const Money = ({ minor, currency }: { minor: number | null; currency: string }) =>
  minor === null ? (
    <span className="text-muted">—</span>
  ) : (
    <span className={cn(minor < 0 && 'text-danger')}>{formatMinor(minor, currency)}</span>
  );

/** Revenue, platform cost and margin per client for a month, with its CSV. */
export const MarginTable = ({ accountId }: { accountId: string }) => {
  const id = useId();
  const [month, setMonth] = useState(thisMonth);
  const base = `/api/accounts/${encodeURIComponent(accountId)}/client-billing`;
  const margin = useQuery({
    queryKey: ['client-margin', accountId, month],
    queryFn: () => api<TClientMargin>(`${base}/margin?month=${month}`, { silent: true }),
    enabled: /^\d{4}-\d{2}$/.test(month),
  });
  const data = margin.data;
  return (
    <section className="space-y-3" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h3 id={`${id}-title`} className="font-semibold">
          Revenue and margin
        </h3>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <Label htmlFor={`${id}-month`}>Month</Label>
            <Input
              id={`${id}-month`}
              type="month"
              value={month}
              onChange={(event) => setMonth(event.target.value)}
              className="w-40"
            />
          </div>
          <a
            href={`${base}/margin.csv?month=${month}`}
            download
            className="inline-flex h-10 items-center rounded-lg border border-border px-4 text-sm hover:bg-surface-2"
          >
            Download CSV
          </a>
        </div>
      </div>
      {margin.isLoading ? <Spinner label="Loading the margin" /> : null}
      {data ? (
        <>
          <p className="text-xs text-muted">
            Platform cost: credits used × {formatCreditPrice(data.creditPriceMinor, 'usd')} a credit (
            {data.creditPriceSource}).
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <section className="relative overflow-x-auto" tabIndex={0} aria-label="Margin per client">
            <table className="w-full min-w-[520px] text-sm">
              <caption className="sr-only">Revenue, platform cost and margin per client in {data.month}</caption>
              <thead>
                <tr className="border-b border-border text-left text-muted">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Client
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Revenue
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Credits
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Platform cost
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Margin
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr key={`${row.subaccountId}-${row.currency}`} className="border-b border-border">
                    <th scope="row" className="py-2 pr-3 text-left font-normal">
                      {row.name}
                      {row.planName ? <span className="text-muted"> · {row.planName}</span> : null}
                    </th>
                    <td className="py-2 pr-3 text-right">
                      <Money minor={row.revenueMinor} currency={row.currency} />
                    </td>
                    <td className="py-2 pr-3 text-right">{Math.round(row.creditsUsed).toLocaleString('en-US')}</td>
                    <td className="py-2 pr-3 text-right">
                      <Money minor={row.platformCostMinor} currency="usd" />
                    </td>
                    <td className="py-2 text-right font-medium">
                      <Money minor={row.marginMinor} currency={row.currency} />
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="font-medium">
                  <th scope="row" className="py-2 pr-3 text-left">
                    Total
                  </th>
                  <td className="py-2 pr-3 text-right">
                    <Money minor={data.totals.revenueMinor} currency="usd" />
                  </td>
                  <td />
                  <td className="py-2 pr-3 text-right">
                    <Money minor={data.totals.platformCostMinor} currency="usd" />
                  </td>
                  <td className="py-2 text-right">
                    <Money minor={data.totals.marginMinor} currency="usd" />
                  </td>
                </tr>
              </tfoot>
            </table>
          </section>
        </>
      ) : null}
    </section>
  );
};
