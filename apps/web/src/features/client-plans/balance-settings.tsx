import { type TClientBalanceSettings, type TClientPlanView, ZClientBalanceSettingsRequest } from '@switchboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { clientPlanKey } from './client-plan-api';
import { formatMinor } from './format';

const parsePercents = (typed: string) =>
  typed
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((part) => Number(part.replace('%', '')));

/** Low-balance alerts and automatic top-up of the client (its admins). */
export const BalanceSettings = ({
  subaccountId,
  balance,
  capped,
}: {
  subaccountId: string;
  balance: TClientBalanceSettings;
  /** The plan stops at its included credits (top-up makes sense). */
  capped: boolean;
}) => {
  const id = useId();
  const queryClient = useQueryClient();
  const [percents, setPercents] = useState(balance.thresholds.join(', '));
  const [enabled, setEnabled] = useState(balance.topUpEnabled);
  const [credits, setCredits] = useState(balance.topUpCredits?.toString() ?? '');
  const [below, setBelow] = useState(balance.topUpBelowCredits?.toString() ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: unknown) =>
      api<TClientPlanView>(`/api/subaccounts/${encodeURIComponent(subaccountId)}/client-plan/balance`, {
        method: 'PUT',
        body,
        silent: true,
      }),
    onSuccess: (view) => {
      setError(null);
      queryClient.setQueryData(clientPlanKey(subaccountId), view);
      toast.success('Saved');
    },
    onError: (thrown) => setError(thrown instanceof Error ? thrown.message : 'Could not be saved'),
  });
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Alerts and top-up</h2>
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = ZClientBalanceSettingsRequest.safeParse({
            thresholds: parsePercents(percents),
            topUpEnabled: enabled,
            topUpCredits: credits.trim() ? Number(credits) : null,
            topUpBelowCredits: below.trim() ? Number(below) : null,
          });
          if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the values');
          save.mutate(parsed.data);
        }}
      >
        <div>
          <Label htmlFor={`${id}-percents`}>Email the admins when this much of the month's credits is left (%)</Label>
          <Input
            id={`${id}-percents`}
            value={percents}
            onChange={(event) => setPercents(event.target.value)}
            placeholder="50, 20, 5"
            inputMode="numeric"
          />
        </div>
        {capped ? (
          <fieldset className="space-y-3">
            <legend className="sr-only">Automatic top-up</legend>
            <label className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={enabled}
                onChange={(event) => setEnabled(event.target.checked)}
                className="accent-[var(--primary)]"
              />
              Buy more credits automatically with the saved card
            </label>
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <Label htmlFor={`${id}-credits`}>Credits to buy</Label>
                <Input
                  id={`${id}-credits`}
                  value={credits}
                  onChange={(event) => setCredits(event.target.value)}
                  inputMode="numeric"
                  placeholder="500"
                />
              </div>
              <div>
                <Label htmlFor={`${id}-below`}>When fewer credits than this are left</Label>
                <Input
                  id={`${id}-below`}
                  value={below}
                  onChange={(event) => setBelow(event.target.value)}
                  inputMode="numeric"
                  placeholder="100"
                />
              </div>
            </div>
            {balance.topUpPriceMinor !== null && balance.currency ? (
              <p className="text-sm text-muted">
                Each top-up costs {formatMinor(balance.topUpPriceMinor, balance.currency)}, at most once an hour.
              </p>
            ) : null}
            {balance.topUpLastResult ? (
              <p className="text-sm" role="status">
                Last top-up: {balance.topUpLastResult}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <FieldError id={`${id}-error`}>{error}</FieldError>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </form>
    </Card>
  );
};
