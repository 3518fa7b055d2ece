/** Money in minor units (cents) as a person reads it, e.g. 9900 usd → $99.00. */
export const formatMinor = (minor: number, currency: string): string => {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
};

/** A price per credit in minor units, which may be a fraction of a cent (2.5 → $0.025). */
export const formatCreditPrice = (minor: number, currency: string): string => {
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
      maximumFractionDigits: 6,
    }).format(minor / 100);
  } catch {
    return `${minor / 100} ${currency.toUpperCase()}`;
  }
};

export const formatDate = (iso: string | null): string =>
  iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }) : '—';

/** Text shown on every screen or line that belongs to the sandbox: no real payment is taken there. */
export const SANDBOX_LABEL = 'Sandbox';

export const SandboxBadge = () => (
  <span className="inline-flex items-center rounded-full border border-amber-600/60 px-2 py-0.5 text-xs font-medium text-amber-800 dark:text-amber-300">
    {SANDBOX_LABEL}
  </span>
);
