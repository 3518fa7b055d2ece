import { formatCreditsShort, ZSetAllowanceRequest } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { useSession } from '../session/session';
import { errorText, useBillingAccess } from './billing-api';

interface AllowanceRow {
  subaccountId: string;
  name: string;
  locked: boolean;
  monthlyCredits: number | null;
  usedThisMonth: number;
  reached: boolean;
}

const allowancesKey = ['billing', 'allowances'] as const;

/** A client's own view of its allowance: the figure, no field (the agency sets it). */
const AllowanceText = ({ row }: { row: AllowanceRow }) => (
  <td className="py-2 pr-4">{row.monthlyCredits === null ? 'No limit' : formatCreditsShort(row.monthlyCredits)}</td>
);

/** One client's allowance: its use this month, the allowance field (the agency's) and its state. */
const AllowanceLine = ({ row, canEdit, queryKey }: { row: AllowanceRow; canEdit: boolean; queryKey: unknown[] }) => {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(row.monthlyCredits === null ? '' : String(row.monthlyCredits));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = `allowance-${row.subaccountId}`;

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ZSetAllowanceRequest.safeParse({ monthlyCredits: value.trim() === '' ? null : Number(value) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter a number of credits');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const answer = await api<{ subaccounts: AllowanceRow[] }>(
        `/api/billing/allowances/${encodeURIComponent(row.subaccountId)}`,
        { method: 'PUT', body: parsed.data, silent: true },
      );
      queryClient.setQueryData(queryKey, answer);
      toast.success(
        parsed.data.monthlyCredits === null ? `${row.name}: no monthly limit` : `${row.name}: allowance saved`,
      );
    } catch (thrown) {
      setError(errorText(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr className="border-t border-border align-top">
      <th scope="row" className="py-2 pr-4 text-left font-medium">
        {row.name}
        {row.locked ? <span className="ml-2 text-xs text-muted">Locked</span> : null}
      </th>
      <td className="py-2 pr-4 text-right whitespace-nowrap">{formatCreditsShort(row.usedThisMonth)}</td>
      {canEdit ? (
        <td className="py-2 pr-4">
          <form onSubmit={save} className="flex flex-wrap items-start gap-2">
            <div>
              <Label htmlFor={inputId} className="sr-only">
                Monthly credit allowance for {row.name}
              </Label>
              <Input
                id={inputId}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                placeholder="No limit"
                className="w-32"
                value={value}
                onChange={(event) => setValue(event.target.value)}
              />
              <FieldError>{error}</FieldError>
            </div>
            <Button type="submit" variant="secondary" disabled={busy}>
              Save
            </Button>
          </form>
        </td>
      ) : (
        <AllowanceText row={row} />
      )}
      <td className="py-2 text-sm">
        {row.reached ? (
          <span className="font-medium text-danger">Stopped: allowance used</span>
        ) : row.monthlyCredits === null ? (
          <span className="text-muted">No limit</span>
        ) : (
          <span>Active</span>
        )}
      </td>
    </tr>
  );
};

/**
 * Credits per client (the agency's resale): an optional monthly credit allowance per sub-account.
 * A client that has used its allowance stops; its website visitors read 'This assistant is
 * unavailable right now' while the agency's other clients go on.
 */
export const AllowancesCard = () => {
  const { user, currentSubaccount } = useSession();
  // The agency's manager sees and sets every client's allowance; a client's login sees its own.
  const { canManageBilling: canEdit } = useBillingAccess();
  const queryKey = [...allowancesKey, currentSubaccount?.accountId];
  const allowances = useQuery({
    queryKey,
    enabled: Boolean(user && currentSubaccount),
    queryFn: () => api<{ month: string; subaccounts: AllowanceRow[] }>('/api/billing/allowances', { silent: true }),
  });
  const title = canEdit ? 'Credits per client' : 'Your credit allowance';
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">{title}</h2>
      {canEdit ? (
        <p className="text-sm text-muted">
          Give each client (sub-account) a monthly credit allowance. A client that uses its allowance stops answering
          (its visitors read "This assistant is unavailable right now") until next month or until you raise it; your
          other clients go on. Leave the field empty for no limit.
        </p>
      ) : (
        <p className="text-sm text-muted">
          The monthly credits the agency allows your sub-accounts, and what they have used this month. At the allowance
          their agents stop answering until next month or until the agency raises it.
        </p>
      )}
      {allowances.isLoading ? <p className="text-sm text-muted">Loading clients...</p> : null}
      {allowances.error ? (
        <p role="alert" className="text-sm text-danger">
          {errorText(allowances.error)}
        </p>
      ) : null}
      {allowances.data ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section className="relative overflow-x-auto" tabIndex={0} aria-label={title}>
          <table className="w-full text-sm">
            <caption className="sr-only">Monthly credit allowance per client, {allowances.data.month}</caption>
            <thead className="text-muted">
              <tr>
                <th scope="col" className="py-2 pr-4 text-left font-medium">
                  {canEdit ? 'Client' : 'Sub-account'}
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Used this month
                </th>
                <th scope="col" className="py-2 pr-4 text-left font-medium">
                  Monthly allowance
                </th>
                <th scope="col" className="py-2 text-left font-medium">
                  State
                </th>
              </tr>
            </thead>
            <tbody>
              {allowances.data.subaccounts.map((row) => (
                <AllowanceLine
                  key={`${row.subaccountId}-${row.monthlyCredits}`}
                  row={row}
                  canEdit={canEdit}
                  queryKey={queryKey}
                />
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </Card>
  );
};
