const digitsOf = new Map<string, number>();

/** Digits after the decimal point in `currency` (2 for USD, 0 for JPY, 3 for KWD); 2 for a code Intl does not know. Asked once per currency. */
export function currencyDigits(currency: string): number {
  const known = digitsOf.get(currency);
  if (known !== undefined) return known;
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // not a currency Intl knows: 2
  }
  if (digitsOf.size < 1000) digitsOf.set(currency, digits); // currencies are few; a flood of made-up codes is not kept
  return digits;
}

/** An amount in minor units as a decimal string in its currency (`1999` USD → `"19.99"`, `500` JPY → `"500"`), exactly. */
export function decimalAmount(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
