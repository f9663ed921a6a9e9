import { badge, type Tone } from '../../http/ui/parts.js';
import type { OrderView } from '../../orders/index.js';

/** An order's states as badges (docs/admin.md, Orders): what needs the merchant (unpaid, unshipped) in amber, what is settled in green. */
const FINANCIAL = new Map<string, Tone>([
  ['paid', 'ok'],
  ['pending', 'warn'],
  ['authorized', 'warn'],
]);
const FULFILMENT = new Map<string, Tone>([
  ['fulfilled', 'ok'],
  ['partial', 'warn'],
  ['unfulfilled', 'warn'],
]);

const words = (state: string) => state.replace(/_/g, ' ');

export const financialBadge = (o: Pick<OrderView, 'financial_status'>) => badge(words(o.financial_status), FINANCIAL.get(o.financial_status) ?? 'neutral');

/** A cancelled order's fulfilment is moot: it says cancelled instead. */
export const fulfilmentBadge = (o: Pick<OrderView, 'fulfillment_status' | 'cancelled_at'>) =>
  o.cancelled_at ? badge('cancelled', 'bad') : badge(words(o.fulfillment_status), FULFILMENT.get(o.fulfillment_status) ?? 'neutral');

/** The choices of the list's filters, as the API names them. */
export const FINANCIAL_STATES = ['pending', 'authorized', 'paid', 'partially_refunded', 'refunded', 'voided'] as const;
export const FULFILMENT_CHOICES = [
  { value: 'unfulfilled,partial', label: 'to fulfil (unfulfilled or partial)' },
  { value: 'unfulfilled', label: 'unfulfilled' },
  { value: 'partial', label: 'partial' },
  { value: 'fulfilled', label: 'fulfilled' },
] as const;
