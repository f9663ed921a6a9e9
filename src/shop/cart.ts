import { z } from 'zod';
import { invalidInput, PlatformError } from '../errors.js';
import { formInput } from '../http/ui/forms.js';
import { zodIssues } from '../http/validate.js';
import { IdString } from '../ids.js';
import type { Platform } from '../platform.js';
import { createCart, loadPricedCart, MAX_LINE_QUANTITY, updateCart, type CartChanges as CartChangesInput } from '../storefront/index.js';
import type { ShopPage } from './context.js';
import { CART_COOKIE, setCookie } from './session.js';

/** How long the cart cookie lives: as long as an untouched cart (CART_IDLE_DAYS), renewed by each change. */
const cartCookieAge = (platform: Platform) => platform.config.storefront.cartIdleDays * 24 * 60 * 60 * 1000;

const Quantity = (min: number) =>
  z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(min).max(MAX_LINE_QUANTITY, `must be at most ${MAX_LINE_QUANTITY}`);
const AddForm = z.object({ id: IdString('variant'), quantity: Quantity(1).default(1) });
const ChangeForm = z.object({ id: IdString('variant'), quantity: Quantity(0) });
const CouponForm = z.object({ code: z.string().trim().max(100).default('') });

/** A form's fields through a schema (blank fields as absent): a field that is not valid is a 400 page saying which and why. */
export function parseFields<T extends z.ZodType>(schema: T, fields: ReadonlyMap<string, string>): z.infer<T> {
  const parsed = schema.safeParse(formInput(fields));
  if (parsed.success) return parsed.data;
  throw invalidInput(zodIssues(parsed.error), 'invalid_input', 'The form has invalid input');
}

/**
 * Apply a change to the browser's cart through the storefront's cart service (the same rules as
 * `PATCH /v1/storefront/:subdomain/cart`): `lines(current)` gives the lines to set from the cart as
 * it is. A cart changed meanwhile (another tab) is read again and the change applied to it, up to
 * three times. Without a live cart, a new one is made when there is something to put in it.
 */
async function changeCart(p: ShopPage, change: (current: ReadonlyMap<string, number>) => CartChangesInput | null): Promise<void> {
  const { platform, ctx, viewer: shop } = p;
  const store = shop.store;
  let cart = shop.cartToken ? await loadPricedCart(platform, store, shop.cartToken).catch(notFoundAsNull) : null;
  if (!cart || !shop.cartToken) {
    const changes = change(new Map());
    if (!changes) return;
    const made = await createCart(platform, store, changes);
    setCookie(platform, ctx, CART_COOKIE, made.token, cartCookieAge(platform));
    return;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const changes = change(new Map(cart.lines.map((l) => [l.variant_id, l.quantity])));
    if (!changes) return;
    const result = await updateCart(platform, store, shop.cartToken, cart.version, changes);
    if (result.outcome === 'updated') {
      setCookie(platform, ctx, CART_COOKIE, shop.cartToken, cartCookieAge(platform));
      return;
    }
    cart = result.cart;
  }
  throw new PlatformError('conflict', 'cart_conflict', 'Your cart kept changing in another window: reload it and try again');
}

function notFoundAsNull(err: unknown): null {
  if (err instanceof PlatformError && err.kind === 'not_found') return null;
  throw err;
}

/** POST /cart/add: `id`, `quantity` (added to what the cart has of the variant). */
export async function addToCart(p: ShopPage): Promise<void> {
  const form = parseFields(AddForm, p.form);
  await changeCart(p, (current) => ({
    lines: [{ variant_id: form.id, quantity: Math.min(MAX_LINE_QUANTITY, (current.get(form.id) ?? 0) + form.quantity) }],
  }));
  p.seeOther('/cart');
}

/** POST /cart/change: `id`, `quantity` (0 removes the line). */
export async function changeCartLine(p: ShopPage): Promise<void> {
  const form = parseFields(ChangeForm, p.form);
  await changeCart(p, (current) => (form.quantity === 0 && !current.has(form.id) ? null : { lines: [{ variant_id: form.id, quantity: form.quantity }] }));
  p.seeOther('/cart');
}

/** POST /cart/coupon: `code` (empty removes the cart's code). */
export async function applyCoupon(p: ShopPage): Promise<void> {
  const form = parseFields(CouponForm, p.form);
  await changeCart(p, (current) => (current.size === 0 && !form.code ? null : { coupon_code: form.code || null }));
  p.seeOther('/cart');
}
