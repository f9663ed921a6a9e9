import { customersByIds } from '../../customers/index.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, select, type FormState } from '../../http/ui/forms.js';
import { facts, heading, link, table, when } from '../../http/ui/parts.js';
import { formKeyInput } from '../../http/ui/once.js';
import { listLocations, type LocationView } from '../../inventory/index.js';
import { getOrder, type OrderView } from '../../orders/index.js';
import { transactionsOfOrders, type PaymentTransactionView } from '../../payments/index.js';
import { addressLines } from '../../address-formats.js';
import type { PostalAddress } from '../../postal-address.js';
import { formatMoney } from '../../rendering/index.js';
import { extensionCards } from '../apps/embed/extensions.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';
import { customerName } from './customer.js';
import { financialBadge, fulfilmentBadge } from './states.js';

/**
 * `/admin/stores/<id>/orders/<order_id>` (docs/admin.md, Orders): an order as the API reads it
 * (`getOrder`), its customer, its payments (`transactionsOfOrders`), a timeline built from what
 * the order records, and the forms of the actions the orders services would allow on it now:
 * fulfil, refund, mark paid, cancel (after a confirm step). A form refused is this page again,
 * its errors at their fields and its input kept (`forms`).
 */

export type OrderPage = StorePage<{ storeId: string; orderId: string }>;
export type OrderForms = { fulfil?: FormState; refund?: FormState };

/** Units of a line left to ship: ordered, less shipped, less refunded (as the orders service counts them). */
export const leftToShip = (l: OrderView['line_items'][number]) => Math.max(0, l.quantity - l.fulfilled_quantity - l.refunded_quantity);
export const leftToRefund = (l: OrderView['line_items'][number]) => l.quantity - l.refunded_quantity;
/** What can still be refunded: what was paid, less what was. */
export const refundable = (o: OrderView) => o.paid_amount - o.refunded_amount;

/** A postal address as lines (the order's, a customer's), in its country's order with the province's name (src/address-formats.ts), or null. */
export const address = (a: PostalAddress | null): Markup | null =>
  a ? html`${addressLines(a).map((x, i) => html`${i ? html`<br>` : null}${x}`)}${a.phone ? html`<br>${a.phone}` : null}` : null;

type Moment = { at: string; text: Markup | string };

/** What happened to the order, newest first: from its own record (placed, payments, shipments, refunds, cancellation). */
function timeline(o: OrderView, payments: readonly PaymentTransactionView[]): Moment[] {
  const money = (minor: number) => formatMoney(minor, o.currency);
  const lineTitle = new Map(o.line_items.map((l) => [l.id, l.title]));
  const units = (lines: readonly { line_item_id: string; quantity: number }[]) =>
    lines.map((l) => `${l.quantity} × ${lineTitle.get(l.line_item_id) ?? 'item'}`).join(', ');
  const moments: Moment[] = [
    { at: o.created_at, text: `Order placed (${o.source === 'storefront' ? 'in the shop' : 'by the merchant'})` },
    ...payments
      .filter((p) => p.kind === 'sale' || p.kind === 'capture')
      .map((p) => ({ at: p.created_at, text: `Payment of ${money(p.amount)} taken (${p.provider})` })),
    ...o.fulfillments.map((f) => ({
      at: f.created_at,
      text: html`Shipped ${units(f.line_items)}${f.tracking_number ? html`, tracking ${f.tracking_url ? link(f.tracking_url, f.tracking_number) : f.tracking_number}` : null}${
        f.tracking_company ? html` (${f.tracking_company})` : null
      }`,
    })),
    ...o.refunds.map((r) => ({
      at: r.created_at,
      text: `Refunded ${money(r.amount)}${r.line_items.length ? ` for ${units(r.line_items)}` : ''}${r.restock ? ', restocked' : ''}${r.reason ? `: ${r.reason}` : ''}`,
    })),
    ...(o.cancelled_at ? [{ at: o.cancelled_at, text: `Cancelled (${o.cancel_reason ?? 'other'})` }] : []),
  ];
  return moments.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

const locationChoices = (locations: readonly LocationView[]) => locations.map((l) => ({ value: l.id, label: l.name }));
/** A form's key against a double submission (the orders services' request ids): kept when the form is shown again. */
const quantity = (form: FormState, name: string, label: string, max: number, initial: number) =>
  field(form.values.has(name) ? form : { ...form, values: new Map([...form.values, [name, String(initial)]]) }, name, label, {
    type: 'number',
    attrs: html`min="0" max="${String(max)}" step="1" inputmode="numeric"`,
  });

function fulfilForm(s: OrderPage, o: OrderView, locations: readonly LocationView[], form: FormState): Markup | null {
  const open = o.line_items.filter((l) => leftToShip(l) > 0);
  if (o.cancelled_at || open.length === 0) return null;
  if (locations.length === 0)
    return html`<div class="card"><h2 style="margin-top:0">Fulfil</h2><p class="muted">Add an inventory location to ship from first.</p></div>`;
  return html`<form class="card" method="post" action="${storePath(s.store, `/orders/${o.id}/fulfil`)}" novalidate>
    <h2 style="margin-top:0">Fulfil</h2>
    ${csrfInput(s.viewer.csrf)}${formKeyInput(form)}${errorSummary(form.problems)}
    <div class="grid">${open.map((l) => quantity(form, `ship_${l.id}`, `${l.title}: units to ship (of ${leftToShip(l)})`, leftToShip(l), leftToShip(l)))}</div>
    ${select(form, 'location_id', 'Ship from', locationChoices(locations), { required: true, selected: open[0]?.location_id ?? locations[0]!.id })}
    <div class="grid">
      ${field(form, 'tracking_company', 'Carrier')}${field(form, 'tracking_number', 'Tracking number')}${field(form, 'tracking_url', 'Tracking URL', { type: 'url' })}
    </div>
    <button class="button" type="submit">Fulfil</button>
  </form>`;
}

function refundForm(s: OrderPage, o: OrderView, locations: readonly LocationView[], form: FormState): Markup | null {
  if (refundable(o) <= 0) return null;
  const lines = o.line_items.filter((l) => leftToRefund(l) > 0);
  return html`<form class="card" method="post" action="${storePath(s.store, `/orders/${o.id}/refund`)}" novalidate>
    <h2 style="margin-top:0">Refund</h2>
    <p class="muted">Up to ${formatMoney(refundable(o), o.currency)}: units of lines (at their price, tax and discount included), an amount, or both.</p>
    ${csrfInput(s.viewer.csrf)}${formKeyInput(form)}${errorSummary(form.problems)}
    ${lines.length ? html`<div class="grid">${lines.map((l) => quantity(form, `refund_${l.id}`, `${l.title}: units (of ${leftToRefund(l)})`, leftToRefund(l), 0))}</div>` : null}
    <div class="grid">
      ${field(form, 'amount', `Amount (${o.currency})`, { hint: 'Leave empty to refund the units’ share', attrs: html`inputmode="decimal"` })}
      ${field(form, 'reason', 'Reason')}
    </div>
    ${
      locations.length && lines.length
        ? html`<div class="field">
              <label><input type="checkbox" name="restock" value="on"${form.values.get('restock') === 'on' ? html` checked` : null}> Put shipped units back in stock</label>
              ${form.errors.get('restock') ? html`<span class="field__error">${form.errors.get('restock')}</span>` : null}
            </div>
            ${select(form, 'restock_location_id', 'Restock at', locationChoices(locations), { selected: locations[0]!.id })}`
        : null
    }
    <button class="button" type="submit">Refund</button>
  </form>`;
}

function otherActions(s: OrderPage, o: OrderView): Markup | null {
  const markPaid =
    o.financial_status === 'pending' && !o.cancelled_at
      ? html`<form method="post" action="${storePath(s.store, `/orders/${o.id}/mark-paid`)}">
          ${csrfInput(s.viewer.csrf)}<button class="button button--secondary" type="submit">Mark as paid</button>
        </form>`
      : null;
  const cancel =
    !o.cancelled_at && o.line_items.every((l) => l.fulfilled_quantity === 0)
      ? html`<a class="button button--danger" href="${storePath(s.store, `/orders/${o.id}/cancel`)}">Cancel order</a>`
      : null;
  return markPaid || cancel ? html`<div class="actions" style="margin-bottom:18px">${markPaid}${cancel}</div>` : null;
}

export async function orderPage(s: OrderPage, forms: OrderForms = {}, status = 200): Promise<void> {
  const o = await getOrder(s.platform, s.store.id, s.params.orderId);
  const [customers, payments, locations] = await Promise.all([
    o.customer_id ? customersByIds(s.platform, s.store.id, [o.customer_id]) : new Map(),
    transactionsOfOrders(s.platform, s.store.id, [o.id]),
    listLocations(s.platform, s.store.id, { limit: 100, active: true }),
  ]);
  const apps = await extensionCards(s, 'admin.order.details');
  const customer = o.customer_id ? customers.get(o.customer_id) : undefined;
  const paid = payments.get(o.id) ?? [];
  const money = (minor: number) => formatMoney(minor, o.currency);

  const lines = table({
    label: 'Lines',
    stack: true,
    headings: ['Item', 'Price', 'Quantity', 'Shipped', 'Refunded', 'Total'],
    rows: o.line_items.map((l) => [
      html`${l.title}${l.variant_title && l.variant_title !== 'Default' ? html` <span class="muted">· ${l.variant_title}</span>` : null}${
        l.sku ? html`<br><span class="muted">SKU ${l.sku}</span>` : null
      }`,
      money(l.unit_price),
      String(l.quantity),
      String(l.fulfilled_quantity),
      String(l.refunded_quantity),
      money(l.total),
    ]),
    empty: 'No lines.',
  });
  const body = html`<p><a href="${storePath(s.store, '/orders')}">« Orders</a></p>
    ${heading(`Order #${o.number}`)}
    <p class="actions" style="margin-top:-8px">${financialBadge(o)}${fulfilmentBadge(o)}<span class="muted">Placed ${when(o.created_at)}</span></p>
    ${otherActions(s, o)}
    <h2>Lines</h2>
    ${lines}
    ${facts([
      ['Subtotal', money(o.subtotal)],
      ['Discount', o.discount_total ? `− ${money(o.discount_total)}${o.coupon ? ` (${o.coupon.code})` : ''}` : null],
      ['Shipping', o.shipping_line ? `${money(o.shipping_total)} · ${o.shipping_line.title}` : null],
      ['Tax', money(o.tax_total)],
      ['Total', html`<strong>${money(o.total)}</strong>`],
      ['Paid', money(o.paid_amount)],
      ['Refunded', o.refunded_amount ? money(o.refunded_amount) : null],
    ])}
    ${fulfilForm(s, o, locations.items, forms.fulfil ?? blankForm())}${refundForm(s, o, locations.items, forms.refund ?? blankForm())}
    <h2>Customer</h2>
    ${facts([
      ['Customer', customer ? link(storePath(s.store, `/customers/${customer.id}`), customerName(o, customer) ?? customer.id) : customerName(o, undefined)],
      ['Shipping address', address(o.shipping_address)],
      ['Billing address', address(o.billing_address)],
      ['Note', o.note],
    ])}
    <h2>Payments and refunds</h2>
    ${table({
      label: 'Payments and refunds',
      headings: ['When', 'Kind', 'Provider', 'Amount'],
      rows: paid.map((p) => [when(p.created_at), p.kind, p.provider, money(p.amount)]),
      empty: o.financial_status === 'pending' ? 'Not paid yet.' : 'No payment recorded.',
    })}
    ${apps.markup}
    <h2>Timeline</h2>
    <ol class="card" style="list-style:none;padding-left:20px">
      ${timeline(o, paid).map((m) => html`<li style="margin-bottom:8px">${when(m.at)}<br>${m.text}</li>`)}
    </ol>`;
  s.render(storePage(s, 'orders', { title: `Order #${o.number}`, body, scripts: apps.scripts }), status, apps.policy);
}
