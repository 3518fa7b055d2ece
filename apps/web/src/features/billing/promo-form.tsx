import { PROMO_CODE_REQUIRED } from '@switchboard/core';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { errorText } from './billing-api';
import type { Banner } from './status-banner';

/** Promo code entry: trimmed, no call when empty; on success the balance and usage refresh. */
export const PromoForm = ({
  onRedeemed,
  onBanner,
}: {
  onRedeemed: () => void;
  onBanner: (banner: Banner | null) => void;
}) => {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setError(PROMO_CODE_REQUIRED);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const answer = await api<{ amount: number }>('/api/openrouter/credits/redeem', {
        body: { code: trimmed },
        silent: true,
      });
      setCode('');
      onBanner({
        type: 'success',
        title: 'Promo code redeemed',
        description: `${answer.amount.toLocaleString('en-US')} credits were added.`,
      });
      onRedeemed();
    } catch (thrown) {
      onBanner({
        type: 'error',
        title: 'Promo code failed',
        description: errorText(thrown, 'Unable to redeem promo code.'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="flex flex-col gap-2 sm:flex-row sm:items-start"
    >
      <div className="flex-1">
        <Label htmlFor="promo-code">Promo code</Label>
        <Input
          id="promo-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'promo-code-error' : undefined}
          autoComplete="off"
        />
        <FieldError id="promo-code-error">{error}</FieldError>
      </div>
      <Button type="submit" disabled={busy} className="sm:mt-6">
        {busy ? 'Redeeming...' : 'Redeem'}
      </Button>
    </form>
  );
};
