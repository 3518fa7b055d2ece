import { formatCreditCount, type TBillingOverview, ZLowBalanceAlertsRequest } from '@switchboard/core';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { errorText } from './billing-api';
import { useOverviewRefresh } from './billing-overview-api';

/** '20, 5' into [20, 5]; anything that is not a number stays as NaN for the schema to name. */
const parseList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim().replace(/%$/, ''))
    .filter((part) => part !== '')
    .map(Number);

/** Low-balance alerts: percents of the period's credits at which the owner is emailed, once each per period. */
export const LowBalanceCard = ({ overview, canManage }: { overview: TBillingOverview; canManage: boolean }) => {
  const refresh = useOverviewRefresh();
  const saved = overview.lowBalanceAlerts.thresholds;
  const [text, setText] = useState(saved.join(', '));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ZLowBalanceAlertsRequest.safeParse({ thresholds: parseList(text) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Use percentages from 1 to 99');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const answer = await api<{ thresholds: number[] }>('/api/billing/low-balance-alerts', {
        method: 'PUT',
        body: parsed.data,
        silent: true,
      });
      setText(answer.thresholds.join(', '));
      await refresh();
      toast.success(answer.thresholds.length ? 'Low-balance alerts saved' : 'Low-balance alerts are off');
    } catch (thrown) {
      setError(errorText(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <h3 className="font-semibold">Low-balance alerts</h3>
      <p className="mt-1 text-sm text-muted">
        The account owner is emailed when the balance falls to a percentage of this period's credits. Each threshold is
        mailed once per billing period.
      </p>
      <p className="mt-2 text-sm">
        {saved.length === 0
          ? 'Alerts are off.'
          : `Alerts at ${saved
              .map((percent) => `${percent}% (${formatCreditCount((overview.periodCredits * percent) / 100)} credits)`)
              .join(' and ')}.`}
      </p>
      <form onSubmit={save} className="mt-3 flex flex-wrap items-end gap-2" noValidate>
        <div>
          <Label htmlFor="low-balance-thresholds">Thresholds (% of the period's credits, comma-separated)</Label>
          <Input
            id="low-balance-thresholds"
            className="w-56"
            placeholder="20, 5"
            value={text}
            disabled={!canManage}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'low-balance-error' : undefined}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        {canManage ? (
          <Button type="submit" variant="secondary" disabled={busy}>
            Save alerts
          </Button>
        ) : null}
      </form>
      <FieldError id="low-balance-error">{error}</FieldError>
    </Card>
  );
};
