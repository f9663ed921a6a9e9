import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { getAccount } from '../customers/index.js';
import { PlatformError } from '../errors.js';
import type { AppContext } from '../http/context.js';
import { IdString } from '../ids.js';
import { getShopperOrder, type OrderView, type ShopperProof } from '../orders/index.js';
import type { Platform } from '../platform.js';
import { PostalAddress } from '../postal-address.js';
import { escapeHtml } from '../rendering/index.js';
import { getShippingSettings } from '../shipping/index.js';
import {
  checkout,
  CheckoutBody,
  checkoutDetails,
  checkoutOffer,
  createPaymentOrder,
  loadPricedCart,
  saveCheckoutDetails,
  simulateSandboxPayment,
  verifyPayment,
  type CheckoutDetails,
} from '../storefront/index.js';
import { formInput, parseFields, postedForm, seeOther } from './cart.js';
import { pathParam, type Shop } from './context.js';
import { csrfField, errorList, field, html, money, page, type Html } from './layout.js';
import { CART_COOKIE, CHECKOUT_COOKIE, clearCookie, cookie, setCookie } from './session.js';

/**
 * The shop's checkout (docs/shop.md, Checkout): contact and address, then shipping, payment and
 * totals, then Place order (the storefront's checkout service: the same stock, coupon and
 * idempotency rules as the API), then the payment step, then the confirmation.
 */

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });
/** Every ISO 3166-1 alpha-2 region Intl names, by name (not the groupings such as EU or UN). */
const COUNTRIES: readonly { code: string; name: string }[] = (() => {
  const out: { code: string; name: string }[] = [];
  const skip = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ', 'AA', 'QM', 'XK']);
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (skip.has(code) || code.startsWith('X') || code.startsWith('Q')) continue;
      const name = COUNTRY_NAMES.of(code);
      if (name && name !== code) out.push({ code, name });
    }
  return out.sort((x, y) => x.name.localeCompare(y.name));
})();

/** How long the checkout cookie (the placed order and its payment secret) lives: long enough to pay and come back to the confirmation. */
const CHECKOUT_COOKIE_MS = 24 * 60 * 60 * 1000;

const InformationForm = z.object({
  email: CheckoutBody.shape.email,
  first_name: z.string().trim().max(255).optional(),
  last_name: z.string().trim().min(1, 'is required').max(255),
  address1: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  address2: z.string().trim().max(255).optional(),
  city: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  province_code: z.string().trim().toUpperCase().max(3).optional(),
  zip: z.string().trim().max(32).optional(),
  country_code: z.string({ message: 'is required' }).trim().toUpperCase().length(2, 'choose a country'),
  phone: z.string().trim().max(32).optional(),
});
const PlaceForm = z.object({
  checkout_key: z.string({ message: 'is missing: reload the page and place the order again' }).regex(/^[A-Za-z0-9_-]{43}$/, 'is not this page’s'),
  shipping_option: z.string().max(64).optional(),
  payment_provider: z.string().max(40).optional(),
});
const OrderParams = z.object({ id: IdString('order') });

const LABELS = new Map([
  ['email', 'Email'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['address1', 'Address'],
  ['address2', 'Apartment, suite, etc.'],
  ['city', 'City'],
  ['province_code', 'State or province code'],
  ['zip', 'Postal code'],
  ['country_code', 'Country'],
  ['phone', 'Phone'],
]);

function steps(current: 'information' | 'shipping' | 'payment'): string {
  const items: [typeof current, string][] = [
    ['information', 'Information'],
    ['shipping', 'Shipping'],
    ['payment', 'Payment'],
  ];
  return `<ol class="steps" aria-label="Checkout steps">${items.map(([k, label]) => `<li${k === current ? ' aria-current="step"' : ''}>${label}</li>`).join('')}</ol>`;
}

/** The cart for a checkout page; without one with lines, the shopper goes back to the cart. */
async function checkoutCart(platform: Platform, shop: Shop) {
  if (!shop.cartToken) return null;
  try {
    const cart = await loadPricedCart(platform, shop.store, shop.cartToken);
    return cart.lines.length > 0 ? cart : null;
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  }
}

type Cart = NonNullable<Awaited<ReturnType<typeof checkoutCart>>>;

/** A variant's title worth showing: not the only variant's "Default" / "Default Title". */
const variantTitle = (title: string | null) => (title && !/^default( title)?$/i.test(title) ? title : null);

/** The order summary beside each step: the cart's lines and totals, shipping when chosen. */
function cartSummary(cart: Cart, shipping: number | null): string {
  const rows = cart.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.product_title ?? 'Unavailable item')}${variantTitle(l.variant_title) ? ` <span class="muted">${escapeHtml(l.variant_title)}</span>` : ''} × ${l.quantity}${
          l.problem ? ` <span class="status">${escapeHtml(l.problem.replace(/_/g, ' '))}</span>` : ''
        }</td><td>${money(l.line_total, cart.currency)}</td></tr>`,
    )
    .join('');
  const discount =
    cart.discount > 0
      ? `<tr><td>Discount${cart.coupon ? ` (${escapeHtml(cart.coupon.code)})` : ''}</td><td>−${money(cart.discount, cart.currency)}</td></tr>`
      : '';
  const ship =
    shipping === null ? '<tr><td>Shipping</td><td class="muted">Next step</td></tr>' : `<tr><td>Shipping</td><td>${money(shipping, cart.currency)}</td></tr>`;
  return `<aside class="card summary" aria-label="Order summary"><h2 style="margin-top:0">Order summary</h2><table>${rows}<tr><td>Subtotal</td><td>${money(cart.subtotal, cart.currency)}</td></tr>${discount}${ship}<tr><td>Taxes</td><td class="muted">Calculated with your order</td></tr><tr class="total"><td>Total before taxes</td><td>${money(cart.total + (shipping ?? 0), cart.currency)}</td></tr></table></aside>`;
}

function countrySelect(selected: string | null, errors: ReadonlyMap<string, string>): string {
  const error = errors.get('country_code');
  return (
    `<div class="field"><label for="f-country_code">Country</label><select id="f-country_code" name="country_code" autocomplete="country" required${error ? ' aria-invalid="true"' : ''}>` +
    `<option value="">Choose a country</option>${COUNTRIES.map((c) => `<option value="${c.code}"${c.code === selected ? ' selected' : ''}>${escapeHtml(c.name)}</option>`).join('')}</select>` +
    `${error ? `<span class="muted" style="color:var(--error)">${escapeHtml(error)}</span>` : ''}</div>`
  );
}

async function defaultCountry(platform: Platform, storeId: string): Promise<string | null> {
  const settings = await getShippingSettings(platform, storeId);
  return settings.rates.find((r) => r.country_code !== '*')?.country_code ?? null;
}

function informationPage(shop: Shop, cart: Cart, values: ReadonlyMap<string, string>, errors: ReadonlyMap<string, string>, country: string | null): string {
  const v = (k: string) => values.get(k) ?? '';
  const body = html(
    `<h1>Checkout</h1>${steps('information')}<div class="layout"><form class="card" method="post" action="/checkout/information" novalidate>${csrfField(shop.csrf)}` +
      errorList([...errors].map(([k, m]) => `${LABELS.get(k) ?? k}: ${m}`)) +
      `<h2 style="margin-top:0">Contact</h2>${field('email', 'Email', v('email'), { type: 'email', required: true, autocomplete: 'email', errors })}` +
      `<h2>Shipping address</h2><div class="row">${field('first_name', 'First name', v('first_name'), { autocomplete: 'given-name', errors })}${field('last_name', 'Last name', v('last_name'), { required: true, autocomplete: 'family-name', errors })}</div>` +
      `${field('address1', 'Address', v('address1'), { required: true, autocomplete: 'address-line1', errors })}${field('address2', 'Apartment, suite, etc.', v('address2'), { autocomplete: 'address-line2', errors })}` +
      `<div class="row">${field('city', 'City', v('city'), { required: true, autocomplete: 'address-level2', errors })}${field('zip', 'Postal code', v('zip'), { autocomplete: 'postal-code', errors })}</div>` +
      `<div class="row">${countrySelect(values.get('country_code') ?? country, errors)}${field('province_code', 'State or province code', v('province_code'), { autocomplete: 'address-level1', errors })}</div>` +
      `${field('phone', 'Phone', v('phone'), { type: 'tel', autocomplete: 'tel', errors })}` +
      `<p style="display:flex;justify-content:space-between;align-items:center;margin-bottom:0"><a href="/cart">Return to cart</a><button type="submit" class="button">Continue to shipping</button></p></form>${cartSummary(cart, null)}</div>`,
  );
  return page({ storeName: shop.store.name, title: 'Checkout', body, signedIn: shop.customer !== null, csrf: shop.csrf });
}

function detailsValues(details: CheckoutDetails | null): Map<string, string> {
  const a = details?.shipping_address;
  const entries: [string, string | null | undefined][] = [
    ['email', details?.email],
    ['first_name', a?.first_name],
    ['last_name', a?.last_name],
    ['address1', a?.address1],
    ['address2', a?.address2],
    ['city', a?.city],
    ['province_code', a?.province_code],
    ['zip', a?.zip],
    ['country_code', a?.country_code],
    ['phone', a?.phone],
  ];
  return new Map(entries.filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

/** GET /checkout: contact and shipping address. */
export async function checkoutInformation(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const cart = await checkoutCart(platform, shop);
  if (!cart) return seeOther(ctx, '/cart');
  const details = await checkoutDetails(platform, shop.store.id, shop.cartToken!);
  const values = detailsValues(details);
  // A signed-in customer starts from their account's email and name.
  if (!details && shop.customer) {
    const account = await getAccount(platform, shop.store.id, shop.customer.id);
    for (const [k, v] of [
      ['email', account.email],
      ['first_name', account.first_name],
      ['last_name', account.last_name],
    ] as const)
      if (v) values.set(k, v);
  }
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = informationPage(shop, cart, values, new Map(), await defaultCountry(platform, shop.store.id));
}

/** POST /checkout/information: kept with the cart, then the shipping step; a field that is not valid shows the form again (400). */
export async function submitInformation(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const fields = await postedForm(platform, ctx, shop);
  const cart = await checkoutCart(platform, shop);
  if (!cart) return seeOther(ctx, '/cart');
  const parsed = InformationForm.safeParse(formInput(fields));
  const errors = new Map<string, string>();
  let address: PostalAddress | null = null;
  if (parsed.success) {
    const { email: _email, ...rest } = parsed.data;
    const checked = PostalAddress.safeParse(rest);
    if (checked.success) address = checked.data;
    else for (const issue of checked.error.issues) errors.set(String(issue.path[0] ?? 'form'), issue.message);
  } else for (const issue of parsed.error.issues) if (!errors.has(String(issue.path[0]))) errors.set(String(issue.path[0] ?? 'form'), issue.message);
  if (!parsed.success || !address) {
    ctx.status = 400;
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = informationPage(shop, cart, fields, errors, null);
    return;
  }
  await saveCheckoutDetails(platform, shop.store.id, shop.cartToken!, { email: parsed.data.email, shipping_address: address });
  seeOther(ctx, '/checkout/shipping');
}

/** GET /checkout/shipping: the store's shipping options for the address and its payment methods (as Checkout Functions advised), the totals, Place order. */
export async function checkoutShipping(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const cart = await checkoutCart(platform, shop);
  if (!cart) return seeOther(ctx, '/cart');
  const details = await checkoutDetails(platform, shop.store.id, shop.cartToken!);
  if (!details?.shipping_address) return seeOther(ctx, '/checkout');
  const a = details.shipping_address;
  const offer = await checkoutOffer(platform, shop.store, cart, { country_code: a.country_code, province_code: a.province_code }, shop.customer?.id ?? null);
  const problems = [
    ...(!cart.purchasable ? ['Some items in your cart cannot be bought right now: change them in your cart.'] : []),
    ...(offer.shipping_required && offer.shipping_options.length === 0 ? ['The store does not ship to this address. Change the address to go on.'] : []),
    ...offer.errors.filter((e) => e.blocking).map((e) => e.message),
  ];
  const first = offer.shipping_options[0] ?? null;
  const options = offer.shipping_required
    ? offer.shipping_options
        .map(
          (o, i) =>
            `<div class="choice"><label><input type="radio" name="shipping_option" value="${escapeHtml(o.code)}"${i === 0 ? ' checked' : ''} required> ${escapeHtml(o.name)}</label><span>${money(o.price, cart.currency)}</span></div>`,
        )
        .join('')
    : '<p class="muted">Nothing in this order needs shipping.</p>';
  const payments =
    offer.payment_methods.length === 0
      ? '<p class="muted">This store takes no payments online yet.</p>'
      : offer.payment_methods
          .map(
            (m, i) =>
              `<div class="choice"><label><input type="radio" name="payment_provider" value="${escapeHtml(m.provider)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(m.name)}</label></div>`,
          )
          .join('');
  const address = [
    a.first_name && a.last_name ? `${a.first_name} ${a.last_name}` : a.last_name,
    a.address1,
    a.address2,
    `${a.city}${a.zip ? ` ${a.zip}` : ''}`,
    COUNTRY_NAMES.of(a.country_code),
  ]
    .filter(Boolean)
    .map((x) => escapeHtml(x))
    .join(', ');
  const canPlace = problems.length === 0;
  const body = html(
    `<h1>Checkout</h1>${steps('shipping')}<div class="layout"><form class="card" method="post" action="/checkout/place">${csrfField(shop.csrf)}` +
      // The checkout's Idempotency-Key, new with each showing of this page: a second click sends it again (and is answered the first click's order), no other browser has it.
      `<input type="hidden" name="checkout_key" value="${randomBytes(32).toString('base64url')}">` +
      (problems.length ? errorList(problems) : '') +
      `<p><strong>Contact</strong> ${escapeHtml(details.email)}<br><strong>Ship to</strong> ${address} · <a href="/checkout">Change</a></p>` +
      `<fieldset style="border:0;padding:0;margin:0"><legend><h2>Shipping method</h2></legend>${options}</fieldset>` +
      `<fieldset style="border:0;padding:0;margin:0"><legend><h2>Payment</h2></legend>${payments}</fieldset>` +
      `<p style="display:flex;justify-content:space-between;align-items:center;margin-bottom:0"><a href="/checkout">Return to information</a><button type="submit" class="button"${canPlace ? '' : ' disabled'}>Place order</button></p></form>` +
      `${cartSummary(cart, offer.shipping_required ? (first?.price ?? null) : 0)}</div>`,
  );
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page({ storeName: shop.store.name, title: 'Shipping', body, signedIn: shop.customer !== null, csrf: shop.csrf });
}

/**
 * POST /checkout/place: the cart becomes an order through the storefront's checkout. Its
 * idempotency key is the form's `checkout_key`, which only the browser shown the page holds (so a
 * second click of Place order is answered with the order the first made, and its payment secret,
 * while another browser holding the same cart gets neither); the order's payment secret goes into
 * the checkout cookie, the cart cookie is cleared.
 */
export async function placeOrder(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const form = parseFields(PlaceForm, await postedForm(platform, ctx, shop));
  if (!shop.cartToken) return seeOther(ctx, '/cart');
  const details = await checkoutDetails(platform, shop.store.id, shop.cartToken).catch((err: unknown) => {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  });
  if (!details?.shipping_address) return seeOther(ctx, '/checkout');
  const body = { email: details.email, shipping_address: details.shipping_address, ...(form.shipping_option ? { shipping_option: form.shipping_option } : {}) };
  const result = await untilSettled(() => checkout(platform, shop.store, shop.cartToken!, form.checkout_key, body, shop.customer?.id ?? null));
  if (result.payment_secret) setCookie(platform, ctx, CHECKOUT_COOKIE, `${result.order.id}.${result.payment_secret}`, CHECKOUT_COOKIE_MS);
  clearCookie(platform, ctx, CART_COOKIE);
  const online = form.payment_provider && form.payment_provider !== 'manual';
  seeOther(
    ctx,
    online ? `/checkout/orders/${result.order.id}/payment?provider=${encodeURIComponent(form.payment_provider!)}` : `/checkout/orders/${result.order.id}`,
  );
}

/**
 * A checkout, waiting out another checkout of the same cart (a second click of Place order while
 * the first runs): once that one has made its order, this one is answered with it (the same key).
 */
async function untilSettled<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof PlatformError && err.code === 'checkout_in_progress') || i >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The proof that this browser placed the order (the checkout cookie's payment secret) or is its signed-in customer. */
function shopperProof(platform: Platform, ctx: AppContext, shop: Shop, orderId: string): ShopperProof {
  const value = cookie(platform, ctx, CHECKOUT_COOKIE);
  const dot = value?.indexOf('.') ?? -1;
  const secret = value && dot > 0 && value.slice(0, dot) === orderId ? value.slice(dot + 1) : null;
  return { secret, customerId: shop.customer?.id ?? null };
}

function orderSummary(order: OrderView): Html {
  const rows = order.line_items
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.title)}${variantTitle(l.variant_title) ? ` <span class="muted">${escapeHtml(l.variant_title)}</span>` : ''} × ${l.quantity}</td><td>${money(l.total, order.currency)}</td></tr>`,
    )
    .join('');
  const line = (label: string, minor: number) => `<tr><td>${label}</td><td>${money(minor, order.currency)}</td></tr>`;
  return html(
    `<aside class="card summary" aria-label="Order summary"><h2 style="margin-top:0">Order #${order.number}</h2><table>${rows}${line('Subtotal', order.subtotal)}` +
      `${order.discount_total > 0 ? line('Discount', -order.discount_total) : ''}${line('Shipping', order.shipping_total)}${line('Taxes', order.tax_total)}` +
      `<tr class="total"><td>Total</td><td>${money(order.total, order.currency)}</td></tr></table></aside>`,
  );
}

async function shopperOrder(platform: Platform, ctx: AppContext, shop: Shop): Promise<{ order: OrderView; proof: ShopperProof }> {
  const { id } = parseFields(OrderParams, new Map([['id', pathParam(ctx, 'id')]]));
  const proof = shopperProof(platform, ctx, shop, id);
  if (proof.secret === null && proof.customerId === null) throw new PlatformError('not_found', 'not_found', 'Order not found');
  return { order: await getShopperOrder(platform, shop.store.id, id, proof), proof };
}

const PROVIDER = z.string().regex(/^[a-z_]{1,40}$/);

/** GET /checkout/orders/:id/payment: the order's totals as the orders domain computed them, and the provider's payment (the sandbox's Pay now). */
export async function paymentPage(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const { order, proof } = await shopperOrder(platform, ctx, shop);
  if (order.financial_status !== 'pending') return seeOther(ctx, `/checkout/orders/${order.id}`);
  const provider = PROVIDER.safeParse(ctx.query.provider).data ?? 'sandbox';
  const payment = await createPaymentOrder(platform, shop.store, provider, order.id, proof);
  const body = html(
    `<h1>Payment</h1>${steps('payment')}<div class="layout"><form class="card" method="post" action="/checkout/orders/${order.id}/pay">${csrfField(shop.csrf)}` +
      `<input type="hidden" name="provider" value="${escapeHtml(payment.provider)}"><input type="hidden" name="provider_order_id" value="${escapeHtml(payment.provider_order_id)}">` +
      `<h2 style="margin-top:0">Pay ${money(payment.amount, payment.currency)}</h2>` +
      // Only the sandbox's hosted payment can be simulated here; a real provider's runs its own checkout script in the browser (not built: docs/shop.md).
      (payment.provider === 'sandbox'
        ? `<p class="notice">This store is in test mode: the sandbox provider pays for free, and no money changes hands.</p><p style="margin-bottom:0"><button type="submit" class="button">Pay now</button></p>`
        : `<p>Your order is placed and awaits payment through ${escapeHtml(payment.provider)}: the store will send you a way to pay.</p>`) +
      `</form>${orderSummary(order).html}</div>`,
  );
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page({ storeName: shop.store.name, title: 'Payment', body, signedIn: shop.customer !== null, csrf: shop.csrf });
}

const PayForm = z.object({ provider: z.literal('sandbox'), provider_order_id: z.string().min(1).max(200) });

/** POST /checkout/orders/:id/pay: the sandbox's hosted payment, simulated, then verified as a real provider's would be; then the confirmation. */
export async function pay(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const form = parseFields(PayForm, await postedForm(platform, ctx, shop));
  const { order, proof } = await shopperOrder(platform, ctx, shop);
  if (order.financial_status === 'pending') {
    const paid = await simulateSandboxPayment(platform, shop.store, form.provider_order_id, proof);
    await verifyPayment(platform, shop.store, 'sandbox', { order_id: order.id, ...paid }, proof);
  }
  seeOther(ctx, `/checkout/orders/${order.id}`);
}

/** GET /checkout/orders/:id: the confirmation. */
export async function confirmationPage(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const { order } = await shopperOrder(platform, ctx, shop);
  const a = order.shipping_address;
  const status =
    order.financial_status === 'paid' ? 'Paid' : order.financial_status === 'pending' ? 'Payment pending' : order.financial_status.replace(/_/g, ' ');
  const body = html(
    `<div class="layout"><div class="card"><p class="muted" style="margin:0">Order #${order.number}</p><h1>Thank you</h1>` +
      `<p>Your order is confirmed. A confirmation goes to <strong>${escapeHtml(order.email ?? '')}</strong>.</p>` +
      `<p><span class="status">${escapeHtml(status)}</span></p>` +
      (a
        ? `<h2>Shipping to</h2><p>${[
            a.first_name && a.last_name ? `${a.first_name} ${a.last_name}` : a.last_name,
            a.address1,
            a.address2,
            a.city,
            a.zip,
            COUNTRY_NAMES.of(a.country_code),
          ]
            .filter(Boolean)
            .map((x) => escapeHtml(x))
            .join('<br>')}</p>`
        : '') +
      `${order.shipping_line ? `<p><strong>Shipping</strong> ${escapeHtml(order.shipping_line.title)}</p>` : ''}` +
      `<p><a class="button" href="/">Continue shopping</a>${shop.customer ? ' <a class="button button--secondary" href="/account">Your orders</a>' : ''}</p></div>${orderSummary(order).html}</div>`,
  );
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page({ storeName: shop.store.name, title: `Order #${order.number}`, body, signedIn: shop.customer !== null, csrf: shop.csrf });
}
