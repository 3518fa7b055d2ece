import {
  CLIENT_PLAN_CURRENCIES,
  type TClientPlan,
  type TClientPlanList,
  ZCreateClientPlanRequest,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/card';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { formatCreditPrice, formatMinor } from './format';

/** A price typed in major units (49.90) in minor units (4990); NaN when it is not a number. */
export const toMinor = (typed: string, decimals = 2): number => {
  const value = Number(typed.trim().replace(',', '.'));
  if (typed.trim() === '' || !Number.isFinite(value)) return Number.NaN;
  return Number((value * 100).toFixed(decimals));
};

const PlanRow = ({ plan, onRemove, busy }: { plan: TClientPlan; onRemove: () => void; busy: boolean }) => (
  <li className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
    <span className="min-w-0">
      <span className="font-medium">{plan.name}</span> · {formatMinor(plan.priceMinor, plan.currency)} / month ·{' '}
      {plan.includedCredits.toLocaleString('en-US')} credits
      {plan.extraCreditPriceMinor !== null
        ? ` · ${formatCreditPrice(plan.extraCreditPriceMinor, plan.currency)} per extra credit`
        : ' · hard cap'}
      <span className="text-muted">
        {' '}
        · {plan.subscribers} {plan.subscribers === 1 ? 'client' : 'clients'}
      </span>
    </span>
    <Button variant="ghost" size="sm" disabled={busy} onClick={onRemove} aria-label={`Remove the plan ${plan.name}`}>
      {plan.subscribers > 0 ? 'Archive' : 'Delete'}
    </Button>
  </li>
);

/** The plans the agency sells to its clients: the list, a new plan, archive or delete. */
export const PlansEditor = ({ accountId }: { accountId: string }) => {
  const queryClient = useQueryClient();
  const id = useId();
  const base = `/api/accounts/${encodeURIComponent(accountId)}/client-plans`;
  const key = ['client-plans', accountId];
  const plans = useQuery({ queryKey: key, queryFn: () => api<TClientPlanList>(base, { silent: true }) });
  const [form, setForm] = useState({ name: '', price: '', credits: '', extra: '', currency: 'usd' });
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: unknown) => api<TClientPlan>(base, { method: 'POST', body, silent: true }),
    onSuccess: () => {
      setForm({ name: '', price: '', credits: '', extra: '', currency: form.currency });
      setError(null);
      void queryClient.invalidateQueries({ queryKey: key });
      toast.success('Plan added');
    },
    onError: (thrown) => setError(thrown instanceof Error ? thrown.message : 'The plan could not be added'),
  });
  const remove = useMutation({
    mutationFn: (planId: string) =>
      api<{ outcome: string }>(`${base}/${encodeURIComponent(planId)}`, { method: 'DELETE' }),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: key });
      toast.success(answer.outcome === 'archived' ? 'Plan archived: its clients keep it' : 'Plan deleted');
    },
  });
  const field = (name: keyof typeof form) => ({
    id: `${id}-${name}`,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  return (
    <section className="space-y-3" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-semibold">
        Plans for your clients
      </h3>
      {plans.isLoading ? <Spinner label="Loading the plans" /> : null}
      {plans.data && plans.data.plans.length === 0 ? <p className="text-sm text-muted">No plans yet.</p> : null}
      <ul className="divide-y divide-border">
        {plans.data?.plans.map((plan) => (
          <PlanRow key={plan.id} plan={plan} busy={remove.isPending} onRemove={() => remove.mutate(plan.id)} />
        ))}
      </ul>
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = ZCreateClientPlanRequest.safeParse({
            name: form.name,
            priceMinor: toMinor(form.price),
            currency: form.currency,
            includedCredits: Number(form.credits),
            extraCreditPriceMinor: form.extra.trim() ? toMinor(form.extra, 4) : null,
          });
          if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the plan');
          create.mutate(parsed.data);
        }}
      >
        <div>
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input {...field('name')} placeholder="Pro" />
        </div>
        <div>
          <Label htmlFor={`${id}-price`}>Monthly price</Label>
          <div className="flex gap-2">
            <Input {...field('price')} inputMode="decimal" placeholder="99.00" />
            <Select
              aria-label="Currency"
              value={form.currency}
              onChange={(event) => setForm({ ...form, currency: event.target.value })}
            >
              {CLIENT_PLAN_CURRENCIES.map((currency) => (
                <option key={currency} value={currency}>
                  {currency.toUpperCase()}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <div>
          <Label htmlFor={`${id}-credits`}>Credits included each month</Label>
          <Input {...field('credits')} inputMode="numeric" placeholder="1000" />
        </div>
        <div>
          <Label htmlFor={`${id}-extra`}>Price per extra credit (empty: stop at the included credits)</Label>
          <Input {...field('extra')} inputMode="decimal" placeholder="0.05" />
        </div>
        <div className="sm:col-span-2">
          <FieldError id={`${id}-error`}>{error}</FieldError>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding...' : 'Add plan'}
          </Button>
        </div>
      </form>
    </section>
  );
};
