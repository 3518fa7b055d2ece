import type { TAffiliateSummary } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';

const usd = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });

const STATUS_LABELS = { pending: 'Pending', payable: 'Payable', paid: 'Paid' } as const;

/** /affiliate: the user's referral link, referred sign-ups and the commission ledger. */
export const AffiliatePage = () => {
  const summary = useQuery({ queryKey: ['affiliate'], queryFn: () => api<TAffiliateSummary>('/api/affiliate') });
  if (summary.isLoading) return <Spinner label="Loading affiliate program" />;
  const data = summary.data;
  if (!data) return <p className="text-sm text-muted">The affiliate program could not be loaded.</p>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(data.link);
      toast.success('Referral link copied');
    } catch {
      toast.error('Copy the link by hand: the browser refused the clipboard.');
    }
  };
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">Your referral link</h2>
        <p className="text-sm text-muted">
          Share it with agencies. When an agency signs up through it within {data.holdDays} days of visiting and pays,
          you earn {Math.round(data.rate * 100)}% of every invoice it pays. A commission becomes payable {data.holdDays}{' '}
          days after the payment.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <Label htmlFor="referral-link">Referral link</Label>
            <Input id="referral-link" readOnly value={data.link} onFocus={(event) => event.target.select()} />
          </div>
          <Button variant="secondary" onClick={() => void copy()}>
            <Copy size={16} aria-hidden="true" /> Copy link
          </Button>
        </div>
      </Card>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        {[
          ['Referred sign-ups', String(data.signups)],
          ['Paying referrals', String(data.paidReferrals)],
          ['Pending', usd(data.pending)],
          ['Payable', usd(data.payable)],
          ['Paid out', usd(data.paid)],
        ].map(([label, value]) => (
          <Card key={label} className="p-4">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="mt-1 text-xl font-semibold">{value}</dd>
          </Card>
        ))}
      </dl>
      <Card className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">Commissions</h2>
          <a className="text-sm underline" href="/api/affiliate/commissions.csv" download>
            Export CSV
          </a>
        </div>
        {data.commissions.length === 0 ? (
          <p className="text-sm text-muted">No commissions yet.</p>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          <section className="relative overflow-x-auto" tabIndex={0} aria-label="Commission ledger table">
            <table className="w-full text-sm">
              <caption className="sr-only">Commission ledger</caption>
              <thead>
                <tr className="text-left text-muted">
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Invoice
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    Commission
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Payable from
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.commissions.map((row) => (
                  <tr key={row.id} className="border-t border-border">
                    <td className="py-1 pr-3">{new Date(row.createdAt).toLocaleDateString('en-US')}</td>
                    <td className="py-1 pr-3">{usd(row.invoiceAmount)}</td>
                    <td className="py-1 pr-3 text-right">{usd(row.amount)}</td>
                    <td className="py-1 pr-3">{STATUS_LABELS[row.status]}</td>
                    <td className="py-1">{new Date(row.payableAt).toLocaleDateString('en-US')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </Card>
    </div>
  );
};
