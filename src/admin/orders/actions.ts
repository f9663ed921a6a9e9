import { sha256 } from '../../digest.js';
import type { InputIssue } from '../../errors.js';
import { formWithIssues } from '../../http/ui/forms.js';
import { confirmStep } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { currencyDigits } from '../../money.js';
import {
  cancelOrder,
  FulfillBody,
  fulfillOrder,
  getOrder,
  markOrderPaid,
  refundOrder,
  RefundBody,
  type OrderView,
  type RequestRef,
} from '../../orders/index.js';
import { formatMoney } from '../../rendering/index.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';
import { leftToRefund, orderPage, type OrderPage } from './order.js';

/**
 * The order page's actions (docs/admin.md, Orders), each through the orders service the REST API
 * uses, with its guards (no over-fulfilment, no refund beyond what was paid, no cancelling what
 * has shipped): a form's fields become the API's body, checked by its schema; a refusal is the
 * order page again with the form's errors at their fields and its input kept (400, or 409 for
 * the service's conflicts); success is a 303 back to the order with a flash. Each form carries a
 * key of its own, so a double-clicked Refund refunds once (the service's request ids).
 */

/** The request a form is, for the orders service's guard against the same form sent twice: its key, scoped to merchant, store and action (`<order_id>|refund`, `new-order`), and its body. */
export function formRequest(s: StorePage, action: string, body: unknown): RequestRef | null {
  const key = s.form.get('form_key');
  if (!key) return null;
  return { id: sha256(`admin|${s.viewer.merchant.merchantId}|${s.store.id}|${action}|${key}`), hash: sha256(JSON.stringify(body)) };
}
/** The request an order page's form is. */
const requestOf = (s: OrderPage, action: string, body: unknown) => formRequest(s, `${s.params.orderId}|${action}`, body);

/** A whole number of units typed in a line's field (blank: 0), or an issue at that field. */
function units(s: OrderPage, name: string, issues: InputIssue[]): number {
  const text = (s.form.get(name) ?? '').trim();
  if (text === '') return 0;
  if (!/^\d{1,6}$/.test(text)) issues.push({ path: name, message: 'must be a whole number of units' });
  return Number(text) || 0;
}

/** The lines' fields as the API's `line_items` (the units above 0), and how a schema issue on one maps back to its field. */
function linesOf(s: OrderPage, o: OrderView, prefix: string, issues: InputIssue[]) {
  const wanted = o.line_items.flatMap((l) => {
    const q = units(s, `${prefix}${l.id}`, issues);
    return q > 0 ? [{ line_item_id: l.id, quantity: q }] : [];
  });
  const fieldOf = (path: string) => {
    const index = /^line_items\.(\d+)/.exec(path)?.[1];
    return index === undefined ? path : `${prefix}${wanted[Number(index)]?.line_item_id ?? ''}`;
  };
  return { wanted, fieldOf };
}

/** The fields of a form (those an issue may sit at). */
const fieldsOf = (s: OrderPage) => new Set([...s.form.keys()]);

export async function fulfilAction(s: OrderPage): Promise<void> {
  const o = await getOrder(s.platform, s.store.id, s.params.orderId);
  const issues: InputIssue[] = [];
  const { wanted, fieldOf } = linesOf(s, o, 'ship_', issues);
  const text = (name: string) => s.form.get(name)?.trim() || undefined;
  const body = {
    location_id: s.form.get('location_id') ?? '',
    line_items: wanted,
    tracking_company: text('tracking_company'),
    tracking_number: text('tracking_number'),
    tracking_url: text('tracking_url'),
  };
  const parsed = FulfillBody.safeParse(body);
  if (!parsed.success)
    issues.push(
      ...zodIssues(parsed.error).map((i) =>
        i.path === 'line_items' ? { path: '', message: 'Choose at least one unit to ship' } : { ...i, path: fieldOf(i.path) },
      ),
    );
  if (issues.length || !parsed.success) return orderPage(s, { fulfil: formWithIssues(s.form, issues, fieldsOf(s)) }, 400);
  try {
    await fulfillOrder(s.platform, s.store.id, o.id, parsed.data, requestOf(s, 'fulfil', parsed.data));
  } catch (err) {
    return orderPage(s, { fulfil: refusedForm(s.form, err, fieldsOf(s)) }, 409);
  }
  const shipped = parsed.data.line_items.reduce((n, l) => n + l.quantity, 0);
  s.seeOther(storePath(s.store, `/orders/${o.id}`), `Fulfilled ${shipped} ${shipped === 1 ? 'unit' : 'units'}.`);
}

/** A decimal amount typed in the order's currency as minor units (`12.5` USD → 1250), or an issue. */
export function amountOf(text: string, currency: string, issues: InputIssue[]): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const digits = currencyDigits(currency);
  const match = /^(\d{1,12})(?:[.,](\d+))?$/.exec(t);
  if (!match || (match[2] ?? '').length > digits) {
    issues.push({ path: 'amount', message: digits ? `must be an amount such as 12.50 (at most ${digits} decimals)` : 'must be a whole amount such as 1200' });
    return undefined;
  }
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}

export async function refundAction(s: OrderPage): Promise<void> {
  const o = await getOrder(s.platform, s.store.id, s.params.orderId);
  const issues: InputIssue[] = [];
  const { wanted, fieldOf } = linesOf(s, o, 'refund_', issues);
  const restock = s.form.get('restock') === 'on';
  const body = {
    amount: amountOf(s.form.get('amount') ?? '', o.currency, issues),
    line_items: wanted.length ? wanted : undefined,
    reason: s.form.get('reason')?.trim() || undefined,
    restock,
    location_id: restock ? s.form.get('restock_location_id') : undefined,
  };
  const parsed = RefundBody.safeParse(body);
  if (!parsed.success)
    issues.push(
      ...zodIssues(parsed.error).map((i) =>
        i.path === ''
          ? { path: '', message: 'Give units of lines, an amount, or both' }
          : i.path === 'location_id'
            ? { ...i, path: 'restock_location_id' }
            : { ...i, path: fieldOf(i.path) },
      ),
    );
  if (issues.length || !parsed.success) return orderPage(s, { refund: formWithIssues(s.form, issues, fieldsOf(s)) }, 400);
  let after: OrderView;
  try {
    after = await refundOrder(s.platform, s.store.id, o.id, parsed.data, requestOf(s, 'refund', parsed.data));
  } catch (err) {
    return orderPage(s, { refund: refusedForm(s.form, err, fieldsOf(s)) }, 409);
  }
  // The refund made (or, for the same form sent again, the one it made the first time).
  s.seeOther(storePath(s.store, `/orders/${o.id}`), `Refunded ${formatMoney(after.refunds.at(-1)?.amount ?? 0, o.currency)}.`);
}

export async function markPaidAction(s: OrderPage): Promise<void> {
  const o = await markOrderPaid(s.platform, s.store.id, s.params.orderId, null);
  s.seeOther(storePath(s.store, `/orders/${o.id}`), `Order #${o.number} is marked as paid.`);
}

/** The confirm step of Cancel (a GET of its address; its form posts the cancellation). */
export async function confirmCancel(s: OrderPage): Promise<void> {
  const o = await getOrder(s.platform, s.store.id, s.params.orderId);
  const back = storePath(s.store, `/orders/${o.id}`);
  const body = confirmStep({
    question: `Cancel order #${o.number}?`,
    detail: `Its ${o.line_items.reduce((n, l) => n + leftToRefund(l), 0)} units go back to stock${
      o.paid_amount > o.refunded_amount ? ` and ${formatMoney(o.paid_amount - o.refunded_amount, o.currency)} is refunded` : ''
    }. This cannot be undone.`,
    action: `${back}/cancel`,
    csrf: s.viewer.csrf,
    button: 'Cancel the order',
    back: { href: back, label: 'Keep it' },
  });
  s.render(storePage(s, 'orders', { title: `Cancel order #${o.number}?`, body }));
}

export async function cancelAction(s: OrderPage): Promise<void> {
  const back = storePath(s.store, `/orders/${s.params.orderId}`);
  try {
    await cancelOrder(s.platform, s.store.id, s.params.orderId, { reason: 'staff' }, null);
  } catch (err) {
    // A refusal (it shipped meanwhile, or is cancelled already) is said on the order's page.
    const form = refusedForm(s.form, err, new Set());
    return s.seeOther(back, form.problems[0]);
  }
  s.seeOther(back, 'The order is cancelled.');
}
