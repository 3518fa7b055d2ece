import { formatCreditCount, formatPrice, type TBillingOverview, ZAutoRechargeRequest } from '@switchboard/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { errorText } from './billing-api';
import { useOverviewRefresh } from './billing-overview-api';
import { startCheckout } from './checkout';

/** Auto-recharge: below a balance, buy the chosen pack with the saved payment method (at most hourly). */
const AutoRechargeForm = ({ overview, canManage }: { overview: TBillingOverview; canManage: boolean }) => {
  const refresh = useOverviewRefresh();
  const packs = overview.creditPacks.filter((pack) => pack.priceId);
  const saved = overview.autoRecharge;
  const [enabled, setEnabled] = useState(saved.enabled);
  const [threshold, setThreshold] = useState(saved.thresholdCredits === null ? '' : String(saved.thresholdCredits));
  const [packPriceId, setPackPriceId] = useState(saved.packPriceId ?? packs[0]?.priceId ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ZAutoRechargeRequest.safeParse({
      enabled,
      thresholdCredits: threshold.trim() === '' ? null : Number(threshold),
      packPriceId: packPriceId || null,
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await api('/api/billing/auto-recharge', { method: 'PUT', body: parsed.data, silent: true });
      await refresh();
      toast.success(parsed.data.enabled ? 'Auto-recharge is on' : 'Auto-recharge is off');
    } catch (thrown) {
      setErrors({ form: errorText(thrown) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={save} className="mt-4 space-y-3 border-t border-border pt-4" noValidate>
      <h4 className="font-medium">Auto-recharge</h4>
      <p className="text-sm text-muted">
        When the balance falls below your threshold, the pack is bought with your saved payment method: at most once an
        hour.{overview.provider === 'sandbox' ? ' Sandbox: recharges are simulated and no card is charged.' : ''}
      </p>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={enabled}
          disabled={!canManage}
          onChange={(event) => setEnabled(event.target.checked)}
        />
        Recharge automatically
      </label>
      <div className="flex flex-wrap gap-3">
        <div>
          <Label htmlFor="recharge-threshold">When the balance falls below (credits)</Label>
          <Input
            id="recharge-threshold"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            className="w-40"
            value={threshold}
            disabled={!canManage}
            aria-invalid={Boolean(errors.thresholdCredits)}
            aria-describedby={errors.thresholdCredits ? 'recharge-threshold-error' : undefined}
            onChange={(event) => setThreshold(event.target.value)}
          />
          <FieldError id="recharge-threshold-error">{errors.thresholdCredits}</FieldError>
        </div>
        <div>
          <Label htmlFor="recharge-pack">Buy</Label>
          <Select
            id="recharge-pack"
            value={packPriceId}
            disabled={!canManage}
            onChange={(event) => setPackPriceId(event.target.value)}
          >
            {packs.map((pack) => (
              <option key={pack.priceId} value={pack.priceId ?? ''}>
                {formatCreditCount(pack.credits)} credits for {formatPrice(pack.price)}
              </option>
            ))}
          </Select>
          <FieldError>{errors.packPriceId}</FieldError>
        </div>
      </div>
      <FieldError>{errors.form}</FieldError>
      {saved.lastResult ? <p className="text-sm text-muted">Last recharge: {saved.lastResult}</p> : null}
      {canManage ? (
        <Button type="submit" variant="secondary" disabled={busy}>
          Save auto-recharge
        </Button>
      ) : null}
    </form>
  );
};

/** One-time credit packs (checkout in payment mode), the balance, and auto-recharge. */
export const CreditPacksCard = ({ overview, canManage }: { overview: TBillingOverview; canManage: boolean }) => {
  const navigate = useNavigate();
  const [buying, setBuying] = useState<string | null>(null);
  const buy = async (priceId: string) => {
    setBuying(priceId);
    try {
      await startCheckout({
        priceId,
        signedIn: true,
        navigate,
        mode: 'payment',
        successPath: '/settings?purchase=success',
        cancelPath: '/settings',
      });
    } finally {
      setBuying(null);
    }
  };
  return (
    <Card>
      <h3 className="font-semibold">Credits</h3>
      <p className="mt-1 text-sm">
        Balance: <strong>{formatCreditCount(overview.balance)} credits</strong>
        <span className="text-muted"> · this period's plan: {formatCreditCount(overview.periodCredits)} credits</span>
      </p>
      <h4 className="mt-4 font-medium">Buy a credit pack</h4>
      <p className="text-sm text-muted">One-time payment. Pack credits are added at once and never expire.</p>
      <ul className="mt-3 grid gap-2 sm:grid-cols-3">
        {overview.creditPacks.map((pack) => (
          <li key={pack.label} className="rounded-lg border border-border p-3 text-sm">
            <p className="font-semibold">{formatCreditCount(pack.credits)} credits</p>
            <p>
              {formatPrice(pack.price)} <span className="text-muted">one-time</span>
            </p>
            <p className="text-xs text-muted">${pack.pricePerCredit.toFixed(4)} per credit</p>
            {canManage ? (
              <Button
                size="sm"
                className="mt-2"
                disabled={!pack.priceId || buying !== null}
                aria-label={`Buy ${formatCreditCount(pack.credits)} credits for ${formatPrice(pack.price)}`}
                onClick={() => (pack.priceId ? void buy(pack.priceId) : undefined)}
              >
                {pack.priceId ? 'Buy' : 'Not on sale'}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {canManage && overview.creditPacks.some((pack) => !pack.priceId) ? (
        <p className="mt-2 text-xs text-muted">
          {overview.provider === 'none'
            ? 'Payments are not configured on this server.'
            : 'A pack with no Stripe price in this server’s STRIPE_IDS_LIVE or STRIPE_IDS_TEST setting cannot be bought.'}
        </p>
      ) : null}
      <AutoRechargeForm overview={overview} canManage={canManage} />
    </Card>
  );
};
