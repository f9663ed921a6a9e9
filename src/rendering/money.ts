/** Minor units (the catalog's prices, `1999`) in `currency` as a shopper reads them: `$19.99`; with the code: `$19.99 USD`. */
export function formatMoney(minor: unknown, currency: string, withCurrency = false): string {
  const amount = Number(minor);
  if (!Number.isFinite(amount)) return '';
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat('en', { style: 'currency', currency });
  } catch {
    format = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const text = format.format(amount / 10 ** digits);
  return withCurrency ? `${text} ${currency}` : text;
}
