import { z } from 'zod';
import { findVariants, listProducts, ListProductsQuery, type VariantRef } from '../../catalog/index.js';
import { findCustomerByEmail } from '../../customers/index.js';
import { PlatformError, type InputIssue } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, hiddenInput, select, textarea, type FormState } from '../../http/ui/forms.js';
import { withQuery } from '../../http/ui/pager.js';
import { badge, heading, table } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { levelsOfProducts, listLocations } from '../../inventory/index.js';
import { createOrder, CreateOrderBody } from '../../orders/index.js';
import { formatMoney } from '../../rendering/index.js';
import { addressFields, ADDRESS_FIELDS } from '../customers/page.js';
import { formKeyInput } from '../../http/ui/once.js';
import { minorUnits, wholeNumber } from '../discounts/inputs.js';
import { storePage } from '../layout.js';
import { parseQuery, storePath, type StorePage } from '../request.js';
import { formRequest } from './actions.js';

/**
 * `/admin/stores/<id>/orders/new` (docs/admin.md, Orders, Create order): a manual order made
 * through the orders service of `POST /v1/orders` (`createOrder` with `CreateOrderBody`), without
 * JavaScript. The lines being chosen live in the page's query string (`?lines=<variant_id>:<qty>,…
 * &q=<search>`): the search lists the catalog as the products list does (`listProducts`), each
 * variant with an Add link that is this page with its line added. The order form posts the lines
 * as hidden ids with a quantity each (0 leaves one out), a custom line, the customer's email, an
 * address, shipping, a coupon, the payment state, a location and a note; the server prices it.
 */

/** As many lines as the API takes. */
const MAX_LINES = 250;
const MAX_QUANTITY = 100_000;
/** Products the search shows, and variant rows at most (a product may have 100). */
const PICKER_PRODUCTS = 10;
const PICKER_ROWS = 50;

const NewOrderQuery = z.strictObject({ q: ListProductsQuery.shape.query, lines: z.string().optional() });

/** A line of the order being made: a variant of the store, how many, and the index its form fields carry. */
type DraftLine = { key: number; variant: VariantRef; quantity: number };
type Draft = { lines: DraftLine[]; q?: string | undefined };

/** A line as the page's address names it: a variant id and its units. */
type LineRef = { id: string; quantity: number };
const refsOf = (lines: readonly DraftLine[]): LineRef[] => lines.map((l) => ({ id: l.variant.variant_id, quantity: l.quantity }));

/** The `lines` parameter of lines (those with units). */
const linesParam = (lines: readonly LineRef[]) =>
  lines
    .filter((l) => l.quantity > 0)
    .map((l) => `${l.id}:${l.quantity}`)
    .join(',');

const pagePath = (s: StorePage) => storePath(s.store, '/orders/new');
const draftUrl = (s: StorePage, lines: readonly LineRef[], q: string | undefined) => withQuery(pagePath(s), { lines: linesParam(lines), q });

/** The variants of this store a draft names, in its order; what it names that is not one is counted in `dropped`. */
async function resolveLines(s: StorePage, wanted: readonly { key: number; id: string; quantity: number }[]) {
  const variants = await findVariants(
    s.platform,
    s.store.id,
    wanted.map((w) => w.id),
  );
  const lines = wanted.flatMap((w) => {
    const variant = variants.get(w.id);
    return variant ? [{ key: w.key, variant, quantity: w.quantity }] : [];
  });
  return { lines, dropped: wanted.length - lines.length };
}

/** The query string's `lines` (`<variant_id>:<qty>,…`): each well-formed one, the same variant's added up, and how many were not. */
function linesOf(text: string | undefined) {
  const wanted = new Map<string, number>();
  const parts = (text ?? '').split(',').filter(Boolean);
  let malformed = Math.max(0, parts.length - MAX_LINES);
  for (const part of parts.slice(0, MAX_LINES)) {
    const match = /^([0-9a-f]{24}):(\d{1,6})$/.exec(part);
    const quantity = Number(match?.[2]);
    if (!match || quantity < 1) malformed++;
    else wanted.set(match[1]!, Math.min(MAX_QUANTITY, (wanted.get(match[1]!) ?? 0) + quantity));
  }
  return { wanted: [...wanted].map(([id, quantity], key) => ({ key, id, quantity })), malformed };
}

const some = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function newOrderPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, NewOrderQuery);
  const { wanted, malformed } = linesOf(query.lines);
  const resolved = await resolveLines(s, wanted);
  const lines = resolved.lines.map((l, key) => ({ ...l, key }));
  const dropped = resolved.dropped;
  const notices = [
    ...(malformed ? [`${some(malformed, 'line', 'lines')} of this page’s address could not be read and ${malformed === 1 ? 'is' : 'are'} left out.`] : []),
    ...(dropped ? [`${some(dropped, 'product', 'products')} of this page’s address ${dropped === 1 ? 'is' : 'are'} not in this store and left out.`] : []),
  ];
  const values = new Map([...lines.map((l) => [`quantity_${l.key}`, String(l.quantity)] as const), ['custom_quantity', '1']]);
  await renderNewOrder(s, { lines, q: query.q }, blankForm(values), notices);
}

/** The catalog to choose from: the search's products (as the products list finds them), each variant with its price, stock and an Add link. */
async function productPicker(s: StorePage, draft: Draft): Promise<Markup> {
  const found = await listProducts(s.platform, s.store.id, ListProductsQuery.parse({ query: draft.q, sort: 'title', limit: PICKER_PRODUCTS }));
  const rows = found.items.flatMap((p) => p.variants.map((v) => ({ p, v }))).slice(0, PICKER_ROWS);
  const levels = await levelsOfProducts(
    s.platform,
    s.store.id,
    found.items.map((p) => p.id),
  );
  const available = new Map<string, number>();
  for (const l of levels) available.set(l.variant_id, (available.get(l.variant_id) ?? 0) + l.available);
  const refs = refsOf(draft.lines);
  /** The draft's lines with one more unit of the variant (a new line, or one more on its line). */
  const added = (id: string) =>
    refs.some((l) => l.id === id)
      ? refs.map((l) => (l.id === id ? { id, quantity: Math.min(MAX_QUANTITY, l.quantity + 1) } : l))
      : [...refs, { id, quantity: 1 }];
  const name = (p: (typeof rows)[number]['p'], v: (typeof rows)[number]['v']) => (v.title === 'Default' ? p.title : `${p.title} · ${v.title}`);
  const table_ = table({
    label: 'Products to add',
    headings: ['Product', 'Price', 'For sale', ''],
    rows: rows.map(({ p, v }) => [
      html`${name(p, v)}${p.status === 'active' ? null : html` ${badge(p.status)}`}${v.sku ? html`<br><span class="muted">SKU ${v.sku}</span>` : null}`,
      formatMoney(v.price, p.currency),
      v.inventory_tracked ? String(available.get(v.id) ?? 0) : 'not tracked',
      html`<a href="${draftUrl(s, added(v.id), draft.q)}">Add<span class="visually-hidden"> ${name(p, v)}</span></a>`,
    ]),
    empty: draft.q ? 'No product matches this search.' : 'No products yet: add them in Products, or make a custom line below.',
  });
  const lines = linesParam(refs);
  return html`<section class="card" aria-labelledby="pick-heading">
    <h2 id="pick-heading" style="margin-top:0">Add products</h2>
    <form method="get" action="${pagePath(s)}" role="search">
      ${lines ? hiddenInput('lines', lines) : null}
      ${field(blankForm(new Map(draft.q ? [['q', draft.q]] : [])), 'q', 'Search products', { type: 'search', hint: 'A title, handle, SKU or tag' })}
      <div class="actions" style="margin-bottom:14px"><button class="button button--secondary" type="submit">Search</button></div>
    </form>
    ${table_}
  </section>`;
}

/** The lines of the order form: each variant's id hidden, its quantity an input (0 leaves it out), and a link to the page without it. */
function linesTable(s: StorePage, draft: Draft, form: FormState): Markup {
  const rows = draft.lines.map((l) => {
    const name = `quantity_${l.key}`;
    const error = form.errors.get(name);
    const title = l.variant.variant_title === 'Default' ? l.variant.product_title : `${l.variant.product_title} · ${l.variant.variant_title}`;
    return [
      html`${title}<br><span class="muted">${formatMoney(l.variant.price, l.variant.currency)} each${l.variant.sku ? ` · SKU ${l.variant.sku}` : ''}</span>${hiddenInput(
        `variant_${l.key}`,
        l.variant.variant_id,
      )}`,
      html`<input id="f-${name}" name="${name}" type="number" min="0" max="${String(MAX_QUANTITY)}" step="1" inputmode="numeric" style="max-width:5.5rem" value="${
        form.values.get(name) ?? ''
      }" aria-label="Quantity of ${title}"${error ? html` aria-invalid="true" aria-describedby="f-${name}-error"` : null}>${
        error ? html`<span id="f-${name}-error" class="field__error">${error}</span>` : null
      }`,
      html`<a href="${draftUrl(s, refsOf(draft.lines.filter((other) => other !== l)), draft.q)}">Remove<span class="visually-hidden"> ${title}</span></a>`,
    ];
  });
  return table({
    label: 'Lines',
    headings: ['Item', 'Quantity', ''],
    rows,
    empty: 'No products yet: search above and Add them, or give a custom line below.',
  });
}

async function renderNewOrder(s: StorePage, draft: Draft, form: FormState, notices: readonly string[] = [], status = 200): Promise<void> {
  const [picker, locations] = await Promise.all([productPicker(s, draft), listLocations(s.platform, s.store.id, { limit: 100, active: true })]);
  const currency = s.store.currency;
  const addressGiven = [...ADDRESS_FIELDS].some((k) => form.values.get(k)?.trim() || form.errors.has(k));
  const body = html`<p><a href="${storePath(s.store, '/orders')}">« Orders</a></p>
    ${heading('Create order', 'Choose products and a customer; the order is priced as the API prices it (discounts, shipping, tax).')}
    ${notices.map((n) => html`<p class="notice">${n}</p>`)}
    ${picker}
    <form class="card" method="post" action="${pagePath(s)}" novalidate>
      <h2 style="margin-top:0">Order</h2>
      ${csrfInput(s.viewer.csrf)}${formKeyInput(form)}${errorSummary(form.problems)}
      <h3>Lines</h3>
      ${linesTable(s, draft, form)}
      <fieldset class="field">
        <legend>Custom line <span class="muted">(optional: a service or an item not in the catalog)</span></legend>
        <div class="grid">
          ${field(form, 'custom_title', 'Title')}${field(form, 'custom_price', `Price (${currency})`, { attrs: html`inputmode="decimal"` })}
          ${field(form, 'custom_quantity', 'Quantity', { type: 'number', attrs: html`min="0" max="${String(MAX_QUANTITY)}" step="1" inputmode="numeric"` })}
        </div>
      </fieldset>
      <h3>Customer</h3>
      ${field(form, 'email', 'Email', { type: 'email', autocomplete: 'off', hint: 'Optional. A customer of the store with this email gets the order.' })}
      <details${addressGiven ? html` open` : null}>
        <summary>Shipping address (optional)</summary>
        ${addressFields(form, { province: false })}
      </details>
      <h3>Shipping and payment</h3>
      <div class="grid">
        ${field(form, 'shipping_title', 'Shipping method')}${field(form, 'shipping_price', `Shipping price (${currency})`, {
          attrs: html`inputmode="decimal"`,
        })}
        ${field(form, 'coupon_code', 'Coupon code', { autocomplete: 'off' })}
        ${select(form, 'financial_status', 'Payment', [
          { value: 'pending', label: 'Payment pending' },
          { value: 'paid', label: 'Mark as paid' },
        ])}
        ${
          locations.items.length
            ? select(
                form,
                'location_id',
                'Take stock from',
                locations.items.map((l) => ({ value: l.id, label: l.name })),
                { placeholder: 'Any with stock' },
              )
            : null
        }
      </div>
      ${textarea(form, 'note', 'Note', { rows: 3, maxlength: 5000, hint: 'Only you see it' })}
      <button class="button" type="submit">Create order</button>
    </form>`;
  s.render(storePage(s, 'orders', { title: 'Create order', body }), status);
}

/** The order form's fields but its lines' (`variant_<k>`, `quantity_<k>`): where an issue may sit. */
const FORM_FIELDS = [
  ...ADDRESS_FIELDS,
  ...['custom_title', 'custom_price', 'custom_quantity', 'email', 'shipping_title', 'shipping_price', 'coupon_code', 'financial_status', 'location_id', 'note'],
];

/** The order form's variant lines: `variant_<k>` hidden ids, `quantity_<k>` their units (blank: 0). */
function postedLines(form: ReadonlyMap<string, string>, issues: InputIssue[]) {
  const posted: { key: number; id: string; quantity: number }[] = [];
  for (const [name, id] of form) {
    const key = /^variant_(\d{1,3})$/.exec(name)?.[1];
    if (key === undefined || posted.length === MAX_LINES) continue;
    posted.push({ key: Number(key), id, quantity: wholeNumber(form, `quantity_${key}`, issues) ?? 0 });
  }
  return posted;
}

/** A schema's "expected string, received undefined" as a form says it. */
const said = (message: string) => (message.endsWith('received undefined') ? 'is required' : message);

export async function createOrderAction(s: StorePage): Promise<void> {
  const form = s.form;
  const text = (name: string) => form.get(name)?.trim() || undefined;
  const issues: InputIssue[] = [];
  const posted = postedLines(form, issues);
  const { lines } = await resolveLines(s, posted);
  const draft: Draft = { lines };
  // The body's lines, and the field each one's issues belong at.
  const lineFields: string[] = [];
  const lineItems: unknown[] = posted.flatMap((l) => {
    if (l.quantity <= 0) return [];
    lineFields.push(`quantity_${l.key}`);
    return [{ variant_id: l.id, quantity: l.quantity }];
  });
  const customQuantity = wholeNumber(form, 'custom_quantity', issues) ?? 1;
  const customPrice = minorUnits(form, 'custom_price', s.store.currency, issues);
  if ((text('custom_title') || customPrice !== null) && customQuantity > 0) {
    if (!text('custom_title')) issues.push({ path: 'custom_title', message: 'is required for a custom line' });
    if (customPrice === null) issues.push({ path: 'custom_price', message: 'is required for a custom line' });
    lineFields.push('custom');
    lineItems.push({ title: text('custom_title') ?? '', price: customPrice ?? 0, quantity: customQuantity });
  }
  const shippingPrice = minorUnits(form, 'shipping_price', s.store.currency, issues);
  if (!text('shipping_title') !== (shippingPrice === null)) issues.push({ path: 'shipping_title', message: 'give the shipping’s title and price, or neither' });
  const address = Object.fromEntries(
    [...ADDRESS_FIELDS].filter((k) => k !== 'province' && text(k)).map((k) => [k, k.endsWith('_code') ? text(k)!.toUpperCase() : text(k)]),
  );
  const body = {
    email: text('email'),
    line_items: lineItems,
    coupon_code: text('coupon_code'),
    shipping_line: text('shipping_title') && shippingPrice !== null ? { title: text('shipping_title'), price: shippingPrice } : undefined,
    shipping_address: Object.keys(address).length ? address : undefined,
    financial_status: text('financial_status'),
    location_id: text('location_id'),
    note: text('note'),
  };

  /** An issue of the body (or the service) at the form's field: a line's at its quantity (or the custom line's field), an address's at its own. */
  const atField = (issue: InputIssue): InputIssue => {
    const [head, index, rest] = issue.path.split('.');
    const message = said(issue.message);
    if (head === 'shipping_address') return { path: index ?? '', message };
    if (head === 'shipping_line') return { path: index === 'price' ? 'shipping_price' : 'shipping_title', message };
    if (head !== 'line_items') return { ...issue, message };
    if (index === undefined) return { path: '', message: 'Add at least one product or a custom line' };
    const at = lineFields[Number(index)];
    if (at === 'custom') return { path: `custom_${rest === 'title' || rest === 'price' ? rest : 'quantity'}`, message };
    if (rest === 'variant_id') return { path: '', message: 'A product of this order is not in this store any more: it is left out' };
    return { path: at ?? '', message };
  };
  const fields = new Set([...FORM_FIELDS, ...form.keys()]);
  const shown = (problems: readonly InputIssue[]) => formWithIssues(form, problems.map(atField), fields);

  const parsed = CreateOrderBody.safeParse(body);
  // A line left out for its quantity's mistake is not "no lines".
  if (!parsed.success)
    issues.push(...zodIssues(parsed.error).filter((i) => i.path !== 'line_items' || !issues.some((j) => /^(quantity|custom)_/.test(j.path))));
  if (issues.length || !parsed.success) return renderNewOrder(s, draft, shown(issues), [], 400);
  const customer = parsed.data.email ? await findCustomerByEmail(s.platform, s.store.id, parsed.data.email) : null;
  const input = customer ? { ...parsed.data, customer_id: customer.id } : parsed.data;
  try {
    const order = await createOrder(s.platform, s.store, input, formRequest(s, 'new-order', input));
    s.seeOther(storePath(s.store, `/orders/${order.id}`), `Order #${order.number} is created.`);
  } catch (err) {
    if (!(err instanceof PlatformError) || (err.kind !== 'invalid_data' && err.kind !== 'conflict')) throw err;
    const refused = shown(err.extra.issues ?? []);
    // A refusal of the whole order (a coupon that does not apply, stock short) is said above the form, with its details by line.
    const titleOf = (path: string) => {
      const key = /^line_items\.(\d+)$/.exec(path)?.[1];
      const l = key === undefined ? undefined : lines.find((d) => `quantity_${d.key}` === lineFields[Number(key)]);
      return l ? l.variant.product_title : lineFields[Number(key)] === 'custom' ? text('custom_title') : undefined;
    };
    const details = (err.extra.details ?? []).map((d) => {
      const [path, ...rest] = d.split(': ');
      const title = titleOf(path ?? '');
      return title ? `${title}: ${rest.join(': ')}` : d;
    });
    const problems = err.code === 'invalid_input' ? refused.problems : [err.message, ...details, ...refused.problems];
    await renderNewOrder(s, draft, { ...refused, problems }, [], err.kind === 'conflict' ? 409 : 400);
  }
}
