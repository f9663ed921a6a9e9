import { addressFormat, addressLines as printedLines } from '../../address-formats.js';
import type { CustomerAddressView } from '../../customers/index.js';
import { html, type Markup } from '../../html.js';
import { csrfInput, errorSummary, field, hiddenInput, select, type FormState } from '../../http/ui/forms.js';
import { scriptTag } from '../../http/ui/scripts.js';
import type { OrderView } from '../../orders/index.js';
import { variantTitle } from '../../rendering/index.js';
import type { CheckoutOffer, loadPricedCart } from '../../storefront/index.js';
import type { Shop } from '../context.js';
import { money, shopPage } from '../layout.js';
import { COUNTRIES, fieldLabel } from './forms.js';

/**
 * The checkout's pages (docs/shop.md, Checkout): each step's form beside the order summary, then
 * the payment and the confirmation. Views only: the handlers (handlers.ts) read and act.
 */

type Step = 'information' | 'shipping' | 'payment';
export type PricedCart = Awaited<ReturnType<typeof loadPricedCart>>;

function steps(current: Step): Markup {
  const items: [Step, string][] = [
    ['information', 'Information'],
    ['shipping', 'Shipping'],
    ['payment', 'Payment'],
  ];
  return html`<ol class="steps" aria-label="Checkout steps">
    ${items.map(([k, label]) => html`<li${k === current ? html` aria-current="step"` : null}>${label}</li>`)}
  </ol>`;
}

const page = (shop: Shop, title: string, body: Markup) =>
  shopPage({ storeName: shop.store.name, title, body, signedIn: shop.customer !== null, csrf: shop.csrf, look: shop.look });

/** A line's title, its variant's when it has one worth showing, the quantity. */
const lineTitle = (title: string, variant: string | null, quantity: number) =>
  html`${title}${variantTitle(variant) ? html` <span class="muted">${variant}</span>` : null} × ${quantity}`;

/** The order summary beside each step: the cart's lines and totals, shipping when chosen. */
function cartSummary(cart: PricedCart, shipping: number | null): Markup {
  const row = (label: Markup | string, value: Markup | string) =>
    html`<tr>
      <td>${label}</td>
      <td>${value}</td>
    </tr>`;
  return html`<aside class="card summary" aria-label="Order summary">
    <h2 style="margin-top:0">Order summary</h2>
    <table>
      ${cart.lines.map((l) =>
        row(
          html`${lineTitle(l.product_title ?? 'Unavailable item', l.variant_title, l.quantity)}${l.problem ? html` <span class="status">${l.problem.replace(/_/g, ' ')}</span>` : null}`,
          money(l.line_total, cart.currency),
        ),
      )}${row('Subtotal', money(cart.subtotal, cart.currency))}${
        cart.discount > 0 ? row(`Discount${cart.coupon ? ` (${cart.coupon.code})` : ''}`, `−${money(cart.discount, cart.currency)}`) : null
      }${
        shipping === null
          ? html`<tr>
              <td>Shipping</td>
              <td class="muted">Next step</td>
            </tr>`
          : row('Shipping', money(shipping, cart.currency))
      }
      <tr>
        <td>Taxes</td>
        <td class="muted">Calculated with your order</td>
      </tr>
      <tr class="total">
        <td>Total before taxes</td>
        <td>${money(cart.total + (shipping ?? 0), cart.currency)}</td>
      </tr>
    </table>
  </aside>`;
}

/** A signed-in customer's saved addresses, one chosen to fill the form (a GET of /checkout?address=<id>: no script needed). */
function savedAddressPicker(saved: readonly CustomerAddressView[]): Markup | null {
  if (saved.length === 0) return null;
  return html`<form class="card" method="get" action="/checkout" aria-label="Saved addresses">
    <div class="field">
      <label for="f-address">Use a saved address</label>
      <select id="f-address" name="address">
        ${saved.map((a) => html`<option value="${a.id}"${a.default ? html` selected` : null}>${printedLines(a).join(', ')}</option>`)}
      </select>
    </div>
    <p style="margin:0"><button type="submit" class="button button--secondary">Use this address</button></p>
  </form>`;
}

/** The province as the country's addresses name it: a select of its subdivisions (State, Prefecture…), none where they name none. */
function provinceField(form: FormState, country: string | null): Markup | null {
  const format = country ? addressFormat(country) : null;
  if (!format?.province.used) return null;
  return select(
    form,
    'province_code',
    format.province.label,
    format.provinces.map((p) => ({ value: p.code, label: p.name })),
    { required: format.province.required, autocomplete: 'address-level1', placeholder: `Choose a ${format.province.label.toLowerCase()}`, markOptional: true },
  );
}

/**
 * Step 1: contact and shipping address, what was typed kept and each problem at its field. The
 * country is a select (preselected: what was sent, else `country`); the province field is the
 * country's (handlers.ts re-renders the form for a country changed without JavaScript).
 */
export function informationView(shop: Shop, cart: PricedCart, form: FormState, country: string | null, saved: readonly CustomerAddressView[] = []): Markup {
  const chosen = form.values.get('country_code')?.toUpperCase() || country;
  const label = (name: string) => fieldLabel(name, chosen);
  const f = (name: string, o: Parameters<typeof field>[3] = {}) => field(form, name, label(name), { markOptional: true, ...o });
  const problems = [...[...form.errors].map(([k, m]) => `${label(k)}: ${m}`), ...form.problems];
  const zipRequired = chosen ? addressFormat(chosen).zip.required : false;
  const body = html`<h1>Checkout</h1>
    ${steps('information')}
    <div class="layout">
      <div>
      ${savedAddressPicker(saved)}
      <form class="card" method="post" action="/checkout/information" novalidate>
        ${csrfInput(shop.csrf)}${errorSummary(problems, 'Please check the form.')}
        <h2 style="margin-top:0">Contact</h2>
        ${f('email', { type: 'email', required: true, autocomplete: 'email' })}
        <h2>Shipping address</h2>
        ${select(
          form,
          'country_code',
          'Country',
          COUNTRIES.map((c) => ({ value: c.code, label: c.name })),
          { required: true, autocomplete: 'country', placeholder: 'Choose a country', selected: country },
        )}
        <div class="row">${f('first_name', { autocomplete: 'given-name' })}${f('last_name', { required: true, autocomplete: 'family-name' })}</div>
        ${f('address1', { required: true, autocomplete: 'address-line1' })}${f('address2', {
          autocomplete: 'address-line2',
        })}
        <div class="row">${f('city', { required: true, autocomplete: 'address-level2' })}<div data-province-slot>${provinceField(form, chosen)}</div>${f(
          'zip',
          {
            autocomplete: 'postal-code',
            required: zipRequired,
          },
        )}</div>
        ${f('phone', {
          type: 'tel',
          autocomplete: 'tel',
        })}
        ${
          shop.customer
            ? html`<p class="field"><label><input type="checkbox" name="save_address" value="on"${form.values.get('save_address') === 'on' ? html` checked` : null}> Save this address to my account</label></p>`
            : null
        }
        <p style="display:flex;justify-content:space-between;align-items:center;gap:12px;flex-wrap:wrap;margin-bottom:0">
          <a href="/cart">Return to cart</a><button type="submit" class="button">Continue to shipping</button>
        </p>
      </form>
      </div>
      ${cartSummary(cart, null)}
    </div>
    ${scriptTag('checkout-address')}`;
  return page(shop, 'Checkout', body);
}

/** An address as its printed lines, in its country's order (src/address-formats.ts): name, street, city, province and postal code as the country writes them, country. */
export function addressLines(a: NonNullable<OrderView['shipping_address']>): string[] {
  return printedLines(a);
}

/** Step 2: the shipping options and payment methods (as Checkout Functions advised), the totals, Place order (disabled, with why, when it cannot be placed). */
export function shippingView(
  shop: Shop,
  cart: PricedCart,
  o: { email: string; address: string[]; offer: CheckoutOffer; problems: readonly string[]; checkoutKey: string },
): Markup {
  const { offer } = o;
  const options = offer.shipping_required
    ? offer.shipping_options.map(
        (s, i) =>
          html`<div class="choice">
            <label><input type="radio" name="shipping_option" value="${s.code}"${i === 0 ? html` checked` : null} required> ${s.name}</label
            ><span>${money(s.price, cart.currency)}</span>
          </div>`,
      )
    : html`<p class="muted">Nothing in this order needs shipping.</p>`;
  const payments =
    offer.payment_methods.length === 0
      ? html`<p class="muted">This store takes no payments online yet.</p>`
      : offer.payment_methods.map(
          (m, i) =>
            html`<div class="choice">
              <label><input type="radio" name="payment_provider" value="${m.provider}"${i === 0 ? html` checked` : null}> ${m.name}</label>
            </div>`,
        );
  const first = offer.shipping_options[0] ?? null;
  const canPlace = o.problems.length === 0;
  // The checkout's Idempotency-Key, new with each showing of this page: a second click sends it again (and is answered the first click's order), no other browser has it.
  const body = html`<h1>Checkout</h1>
    ${steps('shipping')}
    <div class="layout">
      <form class="card" method="post" action="/checkout/place">
        ${csrfInput(shop.csrf)}${hiddenInput('checkout_key', o.checkoutKey)}${errorSummary(o.problems, 'Please check the form.')}
        <p><strong>Contact</strong> ${o.email}<br><strong>Ship to</strong> ${o.address.join(', ')} · <a href="/checkout">Change</a></p>
        <fieldset style="border:0;padding:0;margin:0">
          <legend><h2>Shipping method</h2></legend>
          ${options}
        </fieldset>
        <fieldset style="border:0;padding:0;margin:0">
          <legend><h2>Payment</h2></legend>
          ${payments}
        </fieldset>
        <p style="display:flex;justify-content:space-between;align-items:center;gap:12px;flex-wrap:wrap;margin-bottom:0">
          <a href="/checkout">Return to information</a><button type="submit" class="button"${canPlace ? null : html` disabled`}>Place order</button>
        </p>
      </form>
      ${cartSummary(cart, offer.shipping_required ? (first?.price ?? null) : 0)}
    </div>`;
  return page(shop, 'Shipping', body);
}

function orderSummary(order: OrderView): Markup {
  const line = (label: string, minor: number) =>
    html`<tr>
      <td>${label}</td>
      <td>${money(minor, order.currency)}</td>
    </tr>`;
  return html`<aside class="card summary" aria-label="Order summary">
    <h2 style="margin-top:0">Order #${order.number}</h2>
    <table>
      ${order.line_items.map(
        (l) =>
          html`<tr>
            <td>${lineTitle(l.title, l.variant_title, l.quantity)}</td>
            <td>${money(l.total, order.currency)}</td>
          </tr>`,
      )}${line('Subtotal', order.subtotal)}${order.discount_total > 0 ? line('Discount', -order.discount_total) : null}${line('Shipping', order.shipping_total)}${line(
        'Taxes',
        order.tax_total,
      )}
      <tr class="total">
        <td>Total</td>
        <td>${money(order.total, order.currency)}</td>
      </tr>
    </table>
  </aside>`;
}

/** Step 3: the order's totals and the provider's payment (the sandbox's Pay now). */
export function paymentView(shop: Shop, order: OrderView, payment: { provider: string; provider_order_id: string; amount: number; currency: string }): Markup {
  const body = html`<h1>Payment</h1>
    ${steps('payment')}
    <div class="layout">
      <form class="card" method="post" action="/checkout/orders/${order.id}/pay">
        ${csrfInput(shop.csrf)}${hiddenInput('provider', payment.provider)}${hiddenInput('provider_order_id', payment.provider_order_id)}
        <h2 style="margin-top:0">Pay ${money(payment.amount, payment.currency)}</h2>
        ${
          // Only the sandbox's hosted payment can be simulated here; a real provider's runs its own checkout script in the browser (not built: docs/shop.md).
          payment.provider === 'sandbox'
            ? html`<p class="notice">This store is in test mode: the sandbox provider pays for free, and no money changes hands.</p>
                <p style="margin-bottom:0"><button type="submit" class="button">Pay now</button></p>`
            : html`<p>Your order is placed and awaits payment through ${payment.provider}: the store will send you a way to pay.</p>`
        }
      </form>
      ${orderSummary(order)}
    </div>`;
  return page(shop, 'Payment', body);
}

/** The confirmation: thanks, the order's number and state, where it ships. */
export function confirmationView(shop: Shop, order: OrderView): Markup {
  const a = order.shipping_address;
  const status =
    order.financial_status === 'paid' ? 'Paid' : order.financial_status === 'pending' ? 'Payment pending' : order.financial_status.replace(/_/g, ' ');
  const body = html`<div class="layout">
    <div class="card">
      <p class="muted" style="margin:0">Order #${order.number}</p>
      <h1>Thank you</h1>
      <p>Your order is confirmed. A confirmation goes to <strong>${order.email ?? ''}</strong>.</p>
      <p><span class="status">${status}</span></p>
      ${
        a
          ? html`<h2>Shipping to</h2>
              <p>${addressLines(a).map((x, i) => html`${i ? html`<br>` : null}${x}`)}</p>`
          : null
      }${order.shipping_line ? html`<p><strong>Shipping</strong> ${order.shipping_line.title}</p>` : null}
      <p>
        <a class="button" href="/">Continue shopping</a>${shop.customer ? html` <a class="button button--secondary" href="/account">Your orders</a>` : null}
      </p>
    </div>
    ${orderSummary(order)}
  </div>`;
  return page(shop, `Order #${order.number}`, body);
}
