import { z } from 'zod';
import { PlatformError } from '../errors.js';
import type { AppContext } from '../http/context.js';
import { IdString } from '../ids.js';
import type { Platform } from '../platform.js';
import { createCart, loadPricedCart, MAX_LINE_QUANTITY, updateCart, type CartChanges as CartChangesInput } from '../storefront/index.js';
import { bindingOf, type Shop } from './context.js';
import { CART_COOKIE, checkForm, readForm, setCookie } from './session.js';

/** How long the cart cookie lives: as long as an untouched cart (CART_IDLE_DAYS), renewed by each change. */
const cartCookieAge = (platform: Platform) => platform.config.storefront.cartIdleDays * 24 * 60 * 60 * 1000;

const Quantity = (min: number) =>
  z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(min).max(MAX_LINE_QUANTITY, `must be at most ${MAX_LINE_QUANTITY}`);
const AddForm = z.object({ id: IdString('variant'), quantity: Quantity(1).default(1) });
const ChangeForm = z.object({ id: IdString('variant'), quantity: Quantity(0) });
const CouponForm = z.object({ code: z.string().trim().max(100).default('') });

/** A form's fields as a schema's input: the CSRF token left out, and a field left blank as absent. */
export const formInput = (fields: ReadonlyMap<string, string>) => Object.fromEntries([...fields].filter(([k, v]) => k !== 'csrf_token' && v.trim() !== ''));

/** A form's fields through a schema: a field that is not valid is a 400 page saying which and why. */
export function parseFields<T extends z.ZodType>(schema: T, fields: ReadonlyMap<string, string>): z.infer<T> {
  const input = formInput(fields);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; ');
  throw new PlatformError('invalid_data', 'invalid_input', message);
}

/** A posted form, checked (docs/shop.md, Forms and CSRF): its fields. */
export async function postedForm(platform: Platform, ctx: AppContext, shop: Shop): Promise<Map<string, string>> {
  const fields = await readForm(ctx);
  checkForm(platform, ctx, shop.store.id, bindingOf(shop), fields.get('csrf_token'));
  return fields;
}

/**
 * Apply a change to the browser's cart through the storefront's cart service (the same rules as
 * `PATCH /v1/storefront/:subdomain/cart`): `lines(current)` gives the lines to set from the cart as
 * it is. A cart changed meanwhile (another tab) is read again and the change applied to it, up to
 * three times. Without a live cart, a new one is made when there is something to put in it.
 */
async function changeCart(
  platform: Platform,
  ctx: AppContext,
  shop: Shop,
  change: (current: ReadonlyMap<string, number>) => CartChangesInput | null,
): Promise<void> {
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

const seeOther = (ctx: AppContext, to: string) => {
  ctx.redirect(to);
  ctx.status = 303;
};

/** POST /cart/add: `id`, `quantity` (added to what the cart has of the variant). */
export async function addToCart(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const form = parseFields(AddForm, await postedForm(platform, ctx, shop));
  await changeCart(platform, ctx, shop, (current) => ({
    lines: [{ variant_id: form.id, quantity: Math.min(MAX_LINE_QUANTITY, (current.get(form.id) ?? 0) + form.quantity) }],
  }));
  seeOther(ctx, '/cart');
}

/** POST /cart/change: `id`, `quantity` (0 removes the line). */
export async function changeCartLine(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const form = parseFields(ChangeForm, await postedForm(platform, ctx, shop));
  await changeCart(platform, ctx, shop, (current) =>
    form.quantity === 0 && !current.has(form.id) ? null : { lines: [{ variant_id: form.id, quantity: form.quantity }] },
  );
  seeOther(ctx, '/cart');
}

/** POST /cart/coupon: `code` (empty removes the cart's code). */
export async function applyCoupon(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const form = parseFields(CouponForm, await postedForm(platform, ctx, shop));
  await changeCart(platform, ctx, shop, (current) => (current.size === 0 && !form.code ? null : { coupon_code: form.code || null }));
  seeOther(ctx, '/cart');
}

export { seeOther };
