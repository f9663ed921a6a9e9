import type { InputIssue } from '../errors.js';
import { taxOn } from '../taxes/index.js';
import { MAX_ORDER_AMOUNT } from './schemas.js';

/**
 * Order arithmetic, in integer minor units only. A subtotal discount is shared across the
 * lines in proportion to their amounts (largest remainder, so the shares add up exactly);
 * tax is computed per line on the discounted amount, rounded half up.
 */
export type LineInput = { unit_price: number; quantity: number; taxable: boolean };
export type PricedLine = { discount: number; tax: number; total: number };
export type Pricing = {
  lines: PricedLine[];
  shipping: { discount: number; tax: number } | null;
  subtotal: number;
  discount_total: number;
  shipping_total: number;
  tax_total: number;
  total: number;
};

export function priceOrder(input: {
  lines: LineInput[];
  shipping: number | null;
  discount: { subtotal: number; shipping: number };
  rateBps: number;
  shippingTaxable: boolean;
}): Pricing {
  const amounts = input.lines.map((l) => l.unit_price * l.quantity);
  const subtotal = amounts.reduce((a, b) => a + b, 0);
  const discountSubtotal = Math.min(input.discount.subtotal, subtotal);
  const shares = allocate(discountSubtotal, amounts);
  const lines = input.lines.map((l, i) => {
    const net = amounts[i]! - shares[i]!;
    const tax = l.taxable ? taxOn(net, input.rateBps) : 0;
    return { discount: shares[i]!, tax, total: net + tax };
  });
  const shipping =
    input.shipping === null
      ? null
      : (() => {
          const discount = Math.min(input.discount.shipping, input.shipping);
          return { discount, tax: input.shippingTaxable ? taxOn(input.shipping - discount, input.rateBps) : 0 };
        })();
  const shippingTotal = input.shipping === null ? 0 : input.shipping - shipping!.discount;
  const taxTotal = lines.reduce((a, l) => a + l.tax, 0) + (shipping?.tax ?? 0);
  return {
    lines,
    shipping,
    subtotal,
    discount_total: discountSubtotal + (shipping?.discount ?? 0),
    shipping_total: shippingTotal,
    tax_total: taxTotal,
    total: subtotal - discountSubtotal + shippingTotal + taxTotal,
  };
}

/**
 * Amounts an order may compute, checked before anything else is (and before anything is
 * written): a line's `unit_price × quantity` and the subtotal at most MAX_ORDER_AMOUNT. Prices go
 * to 10^11 and quantities to 10^5, so their product could pass 2^53, where doubles stop being
 * exact; bounded, every sum and tax product below stays an exact integer.
 */
export function orderAmountIssues(lines: readonly LineInput[]): InputIssue[] {
  const issues: InputIssue[] = [];
  let subtotal = 0;
  lines.forEach((l, i) => {
    const amount = l.unit_price * l.quantity;
    if (amount > MAX_ORDER_AMOUNT) issues.push({ path: `line_items.${i}`, message: `unit price × quantity must be at most ${MAX_ORDER_AMOUNT} (minor units)` });
    subtotal += amount;
  });
  if (issues.length === 0 && subtotal > MAX_ORDER_AMOUNT)
    issues.push({ path: 'line_items', message: `the subtotal (the sum of unit price × quantity) must be at most ${MAX_ORDER_AMOUNT} (minor units)` });
  return issues;
}

/** The priced order's total (after discounts, with shipping and tax) at most MAX_ORDER_AMOUNT. */
export function totalIssues(pricing: Pricing): InputIssue[] {
  return pricing.total > MAX_ORDER_AMOUNT
    ? [{ path: '', message: `the order's total (after discounts, with shipping and tax) must be at most ${MAX_ORDER_AMOUNT} (minor units)` }]
    : [];
}

/** Split `amount` over `weights` proportionally; the parts are integers that sum to `amount`. */
export function allocate(amount: number, weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (amount === 0 || total === 0) return weights.map(() => 0);
  const big = BigInt(amount);
  const sum = BigInt(total);
  const exact = weights.map((w) => big * BigInt(w));
  const parts = exact.map((e) => e / sum);
  let left = amount - parts.reduce((a, b) => a + Number(b), 0);
  const byRemainder = exact.map((e, i) => ({ i, r: e % sum })).sort((a, b) => (b.r > a.r ? 1 : b.r < a.r ? -1 : a.i - b.i));
  const out = parts.map(Number);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

/**
 * What refunding `quantity` more units of a line is worth, given how many were refunded
 * before: the difference of two proportional shares of the line total, so refunding every
 * unit, in any steps, returns exactly the line total.
 */
export function lineRefundAmount(line: { total: number; quantity: number; refunded_quantity: number }, quantity: number): number {
  const share = (units: number) => Number((BigInt(line.total) * BigInt(units)) / BigInt(line.quantity));
  return share(line.refunded_quantity + quantity) - share(line.refunded_quantity);
}
