import { getCustomer, listAddresses, type CustomerAddressView, type CustomerView } from '../../customers/index.js';
import { html, type Markup } from '../../html.js';
import { notFound } from '../../errors.js';
import { parseObjectId } from '../../ids.js';
import { blankForm, csrfInput, errorSummary, field, textarea, type FormState } from '../../http/ui/forms.js';
import { badge, facts, heading, link, table, when } from '../../http/ui/parts.js';
import { listOrders } from '../../orders/index.js';
import { formatMoney } from '../../rendering/index.js';
import { storePage } from '../layout.js';
import { checkbox } from '../discounts/inputs.js';
import { address } from '../orders/order.js';
import { financialBadge, fulfilmentBadge } from '../orders/states.js';
import { storePath, type StorePage } from '../request.js';
import { fullName } from './list.js';

/**
 * `/admin/stores/<id>/customers/<customer_id>` (docs/admin.md, Customers): a customer as the API
 * reads them (`getCustomer`), their addresses, their latest orders (the orders list filtered by
 * `customer_id`), the forms that edit them and add an address, and the links to invite them to
 * open an account and to pass a privacy request on to the store's apps. `/customers/new` is the
 * same edit form, empty.
 */

export type CustomerPage = StorePage<{ storeId: string; customerId: string }>;
/** How many of a customer's orders their page shows; the rest are in the orders list, filtered by them. */
const LATEST_ORDERS = 10;

/** The fields of the customer form (edit and new), as the API names them. */
export const CUSTOMER_FIELDS = new Set(['email', 'first_name', 'last_name', 'phone', 'tags', 'note', 'accepts_marketing']);
const ADDRESS_KEYS = [
  'first_name',
  'last_name',
  'company',
  'address1',
  'address2',
  'city',
  'province',
  'province_code',
  'country_code',
  'zip',
  'phone',
] as const;
export const ADDRESS_FIELDS: ReadonlySet<string> = new Set(ADDRESS_KEYS);

/** A customer as the edit form's values (tags comma-separated, consent a checkbox). */
export const customerValues = (c: CustomerView) =>
  new Map([
    ['email', c.email],
    ['first_name', c.first_name ?? ''],
    ['last_name', c.last_name ?? ''],
    ['phone', c.phone ?? ''],
    ['tags', c.tags.join(', ')],
    ['note', c.note ?? ''],
    ['accepts_marketing', c.accepts_marketing ? 'on' : ''],
  ]);

export const addressValues = (a: CustomerAddressView) => new Map(ADDRESS_KEYS.map((k) => [k, a[k] ?? '']));

/** The customer form's fields (edit and new). */
export const customerFields = (form: FormState) => html`<div class="grid">
    ${field(form, 'first_name', 'First name', { autocomplete: 'off' })}${field(form, 'last_name', 'Last name', { autocomplete: 'off' })}
    ${field(form, 'email', 'Email', { type: 'email', required: true, autocomplete: 'off' })}${field(form, 'phone', 'Phone', { type: 'tel', autocomplete: 'off' })}
  </div>
  ${field(form, 'tags', 'Tags', { hint: 'Separated by commas, such as wholesale, vip' })}
  ${textarea(form, 'note', 'Note', { rows: 3, maxlength: 5000, hint: 'Only you see it' })}
  ${checkbox(form, 'accepts_marketing', 'Agreed to receive marketing email')}`;

/** The address form's fields (add and edit; an order's address, which has no free-text region: `province: false`). */
export const addressFields = (form: FormState, o: { province?: boolean } = {}) => html`<div class="grid">
    ${field(form, 'first_name', 'First name', { id: 'a-first_name' })}${field(form, 'last_name', 'Last name', { id: 'a-last_name' })}
    ${field(form, 'company', 'Company')}${field(form, 'address1', 'Address', { required: true })}${field(form, 'address2', 'Apartment, suite, etc.')}
    ${field(form, 'city', 'City', { required: true })}${field(form, 'zip', 'Postal code')}${o.province === false ? null : field(form, 'province', 'Region')}
    ${field(form, 'province_code', 'Region code', { hint: 'Such as CA or NSW' })}
    ${field(form, 'country_code', 'Country code', { required: true, hint: 'Two letters, such as US or GB', attrs: html`maxlength="2" autocapitalize="characters"` })}
    ${field(form, 'phone', 'Phone', { type: 'tel', id: 'a-phone' })}
  </div>`;

function addressCard(s: CustomerPage, a: CustomerAddressView): Markup {
  const at = storePath(s.store, `/customers/${s.params.customerId}/addresses/${a.id}`);
  return html`<div class="card">
    ${a.default ? html`<p>${badge('default', 'ok')}</p>` : null}
    <p>${address(a)}</p>
    <div class="actions">
      <a href="${at}">Edit</a>${
        a.default
          ? null
          : html`<form method="post" action="${at}/default">${csrfInput(s.viewer.csrf)}<button class="button button--secondary" type="submit">Make default</button></form>`
      }<a class="button button--danger" href="${at}/delete">Remove</a>
    </div>
  </div>`;
}

export type CustomerForms = { edit?: FormState; address?: FormState };

export async function customerPage(s: CustomerPage, forms: CustomerForms = {}, status = 200): Promise<void> {
  // The three reads at once (bench/admin.ts): a malformed id is the 404 page before any, and a
  // customer of another store is the 404 of getCustomer (the other two find nothing of it here).
  const id = parseObjectId(s.params.customerId)?.toHexString();
  if (!id) throw notFound('Customer');
  const [c, addresses, orders] = await Promise.all([
    getCustomer(s.platform, s.store.id, id),
    listAddresses(s.platform, s.store.id, id, { limit: 100 }),
    listOrders(s.platform, s.store.id, { limit: LATEST_ORDERS, customer_id: id, order: 'newest' }),
  ]);
  const at = storePath(s.store, `/customers/${c.id}`);
  const edit = forms.edit ?? blankForm(customerValues(c));
  const adding = forms.address ?? blankForm();
  const ordersTable = table({
    label: 'Orders',
    stack: true,
    headings: ['Order', 'Date', 'Payment', 'Fulfilment', 'Total'],
    rows: orders.items.map((o) => [
      link(storePath(s.store, `/orders/${o.id}`), `#${o.number}`),
      when(o.created_at),
      financialBadge(o),
      fulfilmentBadge(o),
      formatMoney(o.total, o.currency),
    ]),
    empty: 'No orders yet.',
  });
  const body = html`<p><a href="${storePath(s.store, '/customers')}">« Customers</a></p>
    ${heading(fullName(c) ?? c.email)}
    <p class="actions" style="margin-top:-8px">${c.accepts_marketing ? badge('subscribed to marketing', 'ok') : badge('not subscribed')}<span class="muted">Customer since ${when(c.created_at)}</span></p>
    ${facts([
      ['Email', c.email],
      ['Phone', c.phone],
      ['Orders', String(c.orders_count)],
      ['Total spent', formatMoney(c.total_spent, c.currency)],
      ['Tags', c.tags.length ? html`${c.tags.map((t) => badge(t))}` : null],
      ['Note', c.note],
    ])}
    <h2>Orders</h2>
    ${ordersTable}${orders.nextCursor ? html`<p><a href="${storePath(s.store, `/orders?customer_id=${c.id}`)}">All orders of this customer</a></p>` : null}
    <h2>Addresses</h2>
    ${addresses.items.length ? html`<div class="grid">${addresses.items.map((a) => addressCard(s, a))}</div>` : html`<p class="muted">No address yet.</p>`}
    <details class="card"${forms.address ? html` open` : null}>
      <summary>Add an address</summary>
      <form method="post" action="${at}/addresses" novalidate>
        ${csrfInput(s.viewer.csrf)}${errorSummary(adding.problems)}${addressFields(adding)}
        <button class="button" type="submit">Add address</button>
      </form>
    </details>
    <h2>Edit customer</h2>
    <form class="card" method="post" action="${at}" novalidate>
      ${csrfInput(s.viewer.csrf)}${errorSummary(edit.problems)}${customerFields(edit)}
      <button class="button" type="submit">Save customer</button>
    </form>
    <h2>Account and privacy</h2>
    <div class="card">
      <p class="muted">An invitation emails the customer a link to open an account in your shop, to see their orders and keep their addresses (it works for 7 days).</p>
      <form method="post" action="${at}/invite">${csrfInput(s.viewer.csrf)}<button class="button button--secondary" type="submit">Invite to open an account</button></form>
      <p class="muted">A privacy request is passed on to every app installed in your store, which answers it for the data it keeps.</p>
      <div class="actions">
        <a class="button button--secondary" href="${at}/data-request">Request their data from apps</a>
        <a class="button button--danger" href="${at}/redact">Ask apps to erase their data</a>
      </div>
    </div>`;
  s.render(storePage(s, 'customers', { title: fullName(c) ?? c.email, body }), status);
}
