import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';

/** The answers of the affiliate payout routes (their schemas: apps/server/src/features/affiliate/payouts.ts). */
interface PayableAffiliate {
  affiliateUserId: string;
  name: string;
  email: string;
  amount: number;
  currency: string;
  count: number;
}
interface Payout {
  id: string;
  name: string;
  email: string;
  amount: number;
  currency: string;
  reference: string;
  paidBy: string;
  createdAt: string;
}

const money = (minor: number, currency: string) =>
  (minor / 100).toLocaleString('en-US', { style: 'currency', currency: currency.toUpperCase() });

const PAYABLE_KEY = ['operator', 'payable'] as const;
const PAYOUTS_KEY = ['operator', 'payouts'] as const;

/** The Payouts section: what is payable per affiliate, its CSV, marking it paid, and the payouts made. */
export const PayoutsSection = () => {
  const queryClient = useQueryClient();
  const payable = useQuery({
    queryKey: PAYABLE_KEY,
    queryFn: () => api<{ affiliates: PayableAffiliate[] }>('/api/operator/affiliate/payable', { silent: true }),
  });
  const payouts = useQuery({
    queryKey: PAYOUTS_KEY,
    queryFn: () => api<{ payouts: Payout[] }>('/api/operator/affiliate/payouts', { silent: true }),
  });
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const markPaid = useMutation({
    mutationFn: (body: { reference: string; affiliateUserIds?: string[] }) =>
      api<{ payouts: Payout[] }>('/api/operator/affiliate/payouts', { body }),
    onSuccess: (answer) => {
      toast.success(answer.payouts.length ? `${answer.payouts.length} marked paid` : 'Nothing left to pay');
      setReference('');
      void queryClient.invalidateQueries({ queryKey: PAYABLE_KEY });
      void queryClient.invalidateQueries({ queryKey: PAYOUTS_KEY });
    },
  });
  const pay = (event: FormEvent, affiliateUserIds?: string[]) => {
    event.preventDefault();
    if (!reference.trim()) {
      setError('Enter the reference of the transfer');
      return;
    }
    setError(null);
    markPaid.mutate({ reference: reference.trim(), ...(affiliateUserIds ? { affiliateUserIds } : {}) });
  };
  const rows = payable.data?.affiliates ?? [];
  return (
    <div className="space-y-4">
      <Card className="space-y-3 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">Payable commissions</h2>
          <a
            href="/api/operator/affiliate/payable.csv"
            download
            className="inline-flex h-8 items-center gap-2 rounded-lg border border-border px-3 text-sm hover:bg-surface-2"
          >
            <Download size={16} aria-hidden="true" /> Download CSV
          </a>
        </div>
        <p className="text-sm text-muted">
          Pay each affiliate outside the product (bank or PayPal transfer), then mark it paid with the transfer's
          reference.
        </p>
        {payable.isLoading ? <Spinner label="Loading payable commissions" /> : null}
        {payable.isError ? <p className="text-sm text-danger">The payable commissions could not be loaded.</p> : null}
        {payable.data && rows.length === 0 ? <p className="text-sm text-muted">Nothing is payable now.</p> : null}
        {rows.length > 0 ? (
          <form onSubmit={(event) => pay(event)} noValidate className="space-y-3">
            <ul className="divide-y divide-border rounded-lg border border-border">
              {rows.map((row) => (
                <li key={row.affiliateUserId} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
                  <span className="min-w-0">
                    <span className="block font-medium break-words">{row.name || row.email}</span>
                    <span className="block break-all text-xs text-muted">
                      {row.email} · {row.count} {row.count === 1 ? 'commission' : 'commissions'}
                    </span>
                  </span>
                  <span className="flex items-center gap-2">
                    <span className="font-semibold">{money(row.amount, row.currency)}</span>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={markPaid.isPending}
                      onClick={(event) => pay(event, [row.affiliateUserId])}
                    >
                      Mark paid
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <div className="flex-1">
                <Label htmlFor="payout-reference">Transfer reference</Label>
                <Input
                  id="payout-reference"
                  maxLength={200}
                  value={reference}
                  onChange={(event) => setReference(event.target.value)}
                />
              </div>
              <Button type="submit" disabled={markPaid.isPending}>
                {markPaid.isPending ? 'Saving...' : 'Mark all paid'}
              </Button>
            </div>
            <FieldError>{error}</FieldError>
          </form>
        ) : null}
      </Card>
      <Card className="space-y-3 p-4">
        <h2 className="text-lg font-semibold">Payouts made</h2>
        {payouts.isLoading ? <Spinner label="Loading payouts" /> : null}
        {payouts.isError ? <p className="text-sm text-danger">The payouts could not be loaded.</p> : null}
        {payouts.data && payouts.data.payouts.length === 0 ? (
          <p className="text-sm text-muted">No payouts yet.</p>
        ) : null}
        <ul className="divide-y divide-border text-sm">
          {payouts.data?.payouts.map((payout) => (
            <li key={payout.id} className="flex flex-wrap justify-between gap-2 py-2">
              <span className="min-w-0">
                <span className="block break-words">{payout.name || payout.email}</span>
                <span className="block break-all text-xs text-muted">
                  {payout.reference} · {new Date(payout.createdAt).toLocaleDateString('en-US')} · {payout.paidBy}
                </span>
              </span>
              <span className="font-semibold">{money(payout.amount, payout.currency)}</span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
};
