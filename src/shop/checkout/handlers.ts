import { randomBytes } from 'node:crypto';
import { addressFormat } from '../../address-formats.js';
import { systemClock } from '../../clock.js';
import { createAddress, getAccount, listAddresses, type CustomerAddressView } from '../../customers/index.js';
import { PlatformError } from '../../errors.js';
import { blankForm } from '../../http/ui/forms.js';
import { getShopperOrder, type OrderView, type ShopperProof } from '../../orders/index.js';
import type { Platform } from '../../platform.js';
import { listLocations } from '../../inventory/index.js';
import { getShippingSettings } from '../../shipping/index.js';
import { waitForHolder } from '../../work/lease.js';
import {
  checkout,
  checkoutDetails,
  checkoutOffer,
  createPaymentOrder,
  loadPricedCart,
  saveCheckoutDetails,
  simulateSandboxPayment,
  verifyPayment,
} from '../../storefront/index.js';
import { parseFields } from '../cart.js';
import type { Shop, ShopPage } from '../context.js';
import { CART_COOKIE, CHECKOUT_COOKIE, clearCookie, cookie, setCookie } from '../session.js';
import { COUNTRIES, detailsValues, OrderParams, parseInformation, PayForm, PlaceForm, PROVIDER, savedAddressValues } from './forms.js';
import type { PostalAddress } from '../../postal-address.js';
import { addressLines, confirmationView, informationView, paymentView, shippingView, type PricedCart } from './views.js';

/**
 * The shop's checkout (docs/shop.md, Checkout): contact and address, then shipping, payment and
 * totals, then Place order (the storefront's checkout service: the same stock, coupon and
 * idempotency rules as the API), then the payment step, then the confirmation.
 */

/** How long the checkout cookie (the placed order and its payment secret) lives: long enough to pay and come back to the confirmation. */
const CHECKOUT_COOKIE_MS = 24 * 60 * 60 * 1000;

/** The cart for a checkout page; without one with lines, the shopper goes back to the cart. */
async function checkoutCart(platform: Platform, shop: Shop): Promise<PricedCart | null> {
  if (!shop.cartToken) return null;
  try {
    const cart = await loadPricedCart(platform, shop.store, shop.cartToken);
    return cart.lines.length > 0 ? cart : null;
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  }
}

/**
 * The country the address form starts from (docs/shop.md, Checkout): the store's first shipping
 * country a rate names, else the country of its first inventory location (where it ships from),
 * else the region of the browser's language (`Accept-Language: en-US`), else none chosen.
 */
async function defaultCountry(p: ShopPage): Promise<string | null> {
  const storeId = p.viewer.store.id;
  const settings = await getShippingSettings(p.platform, storeId);
  const named = settings.rates.find((r) => r.country_code !== '*')?.country_code;
  if (named) return named;
  const [location] = (await listLocations(p.platform, storeId, { limit: 1, backwards: false, active: true })).items;
  if (location?.country_code) return location.country_code;
  const region = /^[a-z]{2,3}-([A-Z]{2})\b/i.exec(p.ctx.get('Accept-Language'))?.[1]?.toUpperCase();
  return region && COUNTRIES.some((c) => c.code === region) ? region : null;
}

/** A signed-in customer's saved addresses (their first 20), for the form to offer. */
async function savedAddresses(p: ShopPage): Promise<CustomerAddressView[]> {
  const customer = p.viewer.customer;
  return customer ? (await listAddresses(p.platform, p.viewer.store.id, customer.id, { limit: 20, backwards: false })).items : [];
}

/** GET /checkout: contact and shipping address; `?address=<id>` fills it from one of the signed-in customer's saved addresses. */
export async function checkoutInformation(p: ShopPage): Promise<void> {
  const shop = p.viewer;
  const cart = await checkoutCart(p.platform, shop);
  if (!cart) return p.seeOther('/cart');
  const details = await checkoutDetails(p.platform, shop.store.id, shop.cartToken!);
  const values = detailsValues(details);
  const saved = await savedAddresses(p);
  // A signed-in customer starts from their account's email and name, and their default address.
  if (shop.customer) {
    const account = await getAccount(p.platform, shop.store.id, shop.customer.id);
    const pick = typeof p.ctx.query.address === 'string' ? saved.find((a) => a.id === p.ctx.query.address) : undefined;
    const start = pick ?? (details ? undefined : saved.find((a) => a.default));
    if (!details)
      for (const [k, v] of [
        ['email', account.email],
        ['first_name', account.first_name],
        ['last_name', account.last_name],
      ] as const)
        if (v) values.set(k, v);
    if (start) {
      for (const k of ['first_name', 'last_name', 'address1', 'address2', 'city', 'province_code', 'zip', 'country_code', 'phone']) values.delete(k);
      for (const [k, v] of savedAddressValues(start)) values.set(k, v);
    }
  }
  p.render(informationView(shop, cart, blankForm(values), await defaultCountry(p), saved));
}

/**
 * POST /checkout/information: kept with the cart, then the shipping step; a field that is not
 * valid shows the form again (400), with the provinces of the country sent. "Save this address"
 * adds it to the signed-in customer's addresses unless an identical one is there.
 */
export async function submitInformation(p: ShopPage): Promise<void> {
  const shop = p.viewer;
  const cart = await checkoutCart(p.platform, shop);
  if (!cart) return p.seeOther('/cart');
  const parsed = parseInformation(p.form);
  if (!parsed.data) return p.render(informationView(shop, cart, parsed.form, await defaultCountry(p), await savedAddresses(p)), 400);
  await saveCheckoutDetails(p.platform, shop.store.id, shop.cartToken!, { email: parsed.data.email, shipping_address: parsed.data.address });
  if (parsed.data.save && shop.customer) await saveAddressOnce(p, parsed.data.address);
  p.seeOther('/checkout/shipping');
}

const ADDRESS_KEYS = ['first_name', 'last_name', 'company', 'address1', 'address2', 'city', 'province_code', 'country_code', 'zip', 'phone'] as const;
const sameAddress = (a: PostalAddress, b: CustomerAddressView) => ADDRESS_KEYS.every((k) => (a[k] ?? '').toLowerCase() === (b[k] ?? '').toLowerCase());

/** The address added to the signed-in customer's (the first becomes their default), unless one identical (case aside) is there. */
async function saveAddressOnce(p: ShopPage, address: PostalAddress): Promise<void> {
  const customer = p.viewer.customer!;
  const all = (await listAddresses(p.platform, p.viewer.store.id, customer.id, { limit: 100, backwards: false })).items;
  if (all.some((b) => sameAddress(address, b))) return;
  await createAddress(p.platform, p.viewer.store.id, customer.id, address);
}

/** GET /checkout/address-format/:country: the country's province field and postal code label, for the address form's script (public, cached a day). */
export function addressFormatJson(p: ShopPage, country: string): void {
  const code = country.toUpperCase();
  if (!COUNTRIES.some((c) => c.code === code)) throw new PlatformError('not_found', 'not_found', 'No such country');
  const f = addressFormat(code);
  p.ctx.set('Cache-Control', 'public, max-age=86400');
  p.ctx.body = { country_code: code, province: f.province, zip: { required: f.zip.required, label: f.zip.label }, provinces: f.provinces };
}

/** GET /checkout/shipping: the store's shipping options for the address and its payment methods (as Checkout Functions advised), the totals, Place order. */
export async function checkoutShipping(p: ShopPage): Promise<void> {
  const shop = p.viewer;
  const cart = await checkoutCart(p.platform, shop);
  if (!cart) return p.seeOther('/cart');
  const details = await checkoutDetails(p.platform, shop.store.id, shop.cartToken!);
  if (!details?.shipping_address) return p.seeOther('/checkout');
  const a = details.shipping_address;
  const offer = await checkoutOffer(p.platform, shop.store, cart, { country_code: a.country_code, province_code: a.province_code }, shop.customer?.id ?? null);
  const problems = [
    ...(!cart.purchasable ? ['Some items in your cart cannot be bought right now: change them in your cart.'] : []),
    ...(offer.shipping_required && offer.shipping_options.length === 0 ? ['The store does not ship to this address. Change the address to go on.'] : []),
    ...offer.errors.filter((e) => e.blocking).map((e) => e.message),
  ];
  const checkoutKey = randomBytes(32).toString('base64url');
  p.render(shippingView(shop, cart, { email: details.email, address: addressLines(a), offer, problems, checkoutKey }));
}

/**
 * POST /checkout/place: the cart becomes an order through the storefront's checkout. Its
 * idempotency key is the form's `checkout_key`, which only the browser shown the page holds (so a
 * second click of Place order is answered with the order the first made, and its payment secret,
 * while another browser holding the same cart gets neither); the order's payment secret goes into
 * the checkout cookie, the cart cookie is cleared.
 */
export async function placeOrder(p: ShopPage): Promise<void> {
  const shop = p.viewer;
  const form = parseFields(PlaceForm, p.form);
  if (!shop.cartToken) return p.seeOther('/cart');
  const details = await checkoutDetails(p.platform, shop.store.id, shop.cartToken).catch((err: unknown) => {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  });
  if (!details?.shipping_address) return p.seeOther('/checkout');
  const body = { email: details.email, shipping_address: details.shipping_address, ...(form.shipping_option ? { shipping_option: form.shipping_option } : {}) };
  const result = await untilSettled(() => checkout(p.platform, shop.store, shop.cartToken!, form.checkout_key, body, shop.customer?.id ?? null));
  if (result.payment_secret) setCookie(p.platform, p.ctx, CHECKOUT_COOKIE, `${result.order.id}.${result.payment_secret}`, CHECKOUT_COOKIE_MS);
  clearCookie(p.platform, p.ctx, CART_COOKIE);
  const online = form.payment_provider && form.payment_provider !== 'manual';
  p.seeOther(
    online ? `/checkout/orders/${result.order.id}/payment?provider=${encodeURIComponent(form.payment_provider!)}` : `/checkout/orders/${result.order.id}`,
  );
}

/**
 * A checkout, waiting out another checkout of the same cart (a second click of Place order while
 * the first runs), for up to five seconds: once that one has made its order, this one is answered
 * with it (the same key); past the deadline, the last 409 `checkout_in_progress`.
 */
async function untilSettled<T>(attempt: () => Promise<T>): Promise<T> {
  let held: PlatformError | null = null;
  return waitForHolder(
    async () => {
      try {
        return { done: await attempt() };
      } catch (err) {
        if (!(err instanceof PlatformError && err.code === 'checkout_in_progress')) throw err;
        held = err;
        return 'held';
      }
    },
    { clock: systemClock, deadline: new Date(systemClock.now().getTime() + CHECKOUT_WAIT_MS), pauseMs: () => 100, busy: () => held! },
  );
}

/** How long a second Place order waits for the first (the wall clock's, as the order changes' waits: tests move the platform's). */
const CHECKOUT_WAIT_MS = 5_000;

/** The proof that this browser placed the order (the checkout cookie's payment secret) or is its signed-in customer. */
function shopperProof(p: ShopPage, orderId: string): ShopperProof {
  const value = cookie(p.platform, p.ctx, CHECKOUT_COOKIE);
  const dot = value?.indexOf('.') ?? -1;
  const secret = value && dot > 0 && value.slice(0, dot) === orderId ? value.slice(dot + 1) : null;
  return { secret, customerId: p.viewer.customer?.id ?? null };
}

/** The order of the path, for the browser that placed it or its signed-in customer; anyone else: 404. */
async function shopperOrder(p: ShopPage, orderId: string): Promise<{ order: OrderView; proof: ShopperProof }> {
  const { id } = parseFields(OrderParams, new Map([['id', orderId]]));
  const proof = shopperProof(p, id);
  if (proof.secret === null && proof.customerId === null) throw new PlatformError('not_found', 'not_found', 'Order not found');
  return { order: await getShopperOrder(p.platform, p.viewer.store.id, id, proof), proof };
}

/** GET /checkout/orders/:id/payment: the order's totals as the orders domain computed them, and the provider's payment (the sandbox's Pay now). */
export async function paymentPage(p: ShopPage, orderId: string): Promise<void> {
  const { order, proof } = await shopperOrder(p, orderId);
  if (order.financial_status !== 'pending') return p.seeOther(`/checkout/orders/${order.id}`);
  const provider = PROVIDER.safeParse(p.ctx.query.provider).data ?? 'sandbox';
  const payment = await createPaymentOrder(p.platform, p.viewer.store, provider, order.id, proof);
  p.render(paymentView(p.viewer, order, payment));
}

/** POST /checkout/orders/:id/pay: the sandbox's hosted payment, simulated, then verified as a real provider's would be; then the confirmation. */
export async function pay(p: ShopPage, orderId: string): Promise<void> {
  const form = parseFields(PayForm, p.form);
  const { order, proof } = await shopperOrder(p, orderId);
  if (order.financial_status === 'pending') {
    const paid = await simulateSandboxPayment(p.platform, p.viewer.store, form.provider_order_id, proof);
    await verifyPayment(p.platform, p.viewer.store, 'sandbox', { order_id: order.id, ...paid }, proof);
  }
  p.seeOther(`/checkout/orders/${order.id}`);
}

/** GET /checkout/orders/:id: the confirmation. */
export async function confirmationPage(p: ShopPage, orderId: string): Promise<void> {
  const { order } = await shopperOrder(p, orderId);
  p.render(confirmationView(p.viewer, order));
}
