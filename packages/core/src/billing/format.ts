/** Display rules of spec billing-accounts 5. */

/** Credit counts with thousands separators. */
export const formatCreditCount = (value: number): string => Math.round(value).toLocaleString('en-US');

/** Credits in the account card: up to 1 decimal. */
export const formatCreditsShort = (value: number): string =>
  value.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 0 });

/** Prices over 100 are rounded with thousands separators; otherwise two decimals unless whole. */
export const formatPrice = (value: number): string => {
  if (value > 100) return `$${Math.round(value).toLocaleString('en-US')}`;
  return Number.isInteger(value) ? `$${value}` : `$${value.toFixed(2)}`;
};

/** Yearly price shown per month: divided by 12, 2 decimals when not whole. */
export const yearlyPerMonth = (yearly: number): number => Math.round((yearly / 12) * 100) / 100;

export const formatPerMonth = (value: number): string =>
  Number.isInteger(value) ? `$${value}` : `$${value.toFixed(2)}`;

/** Money from the server in minor units: divided by 100, currency default USD, at most two decimals. */
export const formatMinor = (minor: number, currency?: string | null): string =>
  (minor / 100).toLocaleString('en-US', {
    style: 'currency',
    currency: (currency || 'USD').toUpperCase(),
    maximumFractionDigits: 2,
  });

/** Price per credit with 4 decimals. */
export const pricePerCredit = (price: number, credits: number): number =>
  credits > 0 ? Math.round((price / credits) * 10_000) / 10_000 : 0;
