/** A decimal price ("0.0079") in millionths. */
export const priceToMicros = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
};
/** Millionths as the decimal price the agency entered. */
export const priceOf = (micros: number) => {
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
};
