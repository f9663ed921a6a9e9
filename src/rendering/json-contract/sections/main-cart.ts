import { escapeHtml } from '../../../html.js';
import type { CartView } from '../../../storefront/index.js';
import { variantTitle } from '../../variant-title.js';
import { csrfField, imageTag, money, placeholder, text, type BuiltInSection, type Image, type JsonContractEnv, type SectionTemplate } from '../parts.js';

/** A cart line's image, when the cart's lines carry one (`image`: `{ url, alt, width, height }`), else a placeholder. */
function lineImage(line: CartView['lines'][number]): string {
  const image = (line as { image?: Partial<Image> | null }).image;
  const tag =
    image && typeof image.url === 'string'
      ? imageTag(
          { url: image.url, alt: typeof image.alt === 'string' ? image.alt : '', width: image.width ?? null, height: image.height ?? null },
          'cart-line__image',
        )
      : null;
  return tag ?? placeholder('cart-line__placeholder');
}

function cartLine(env: JsonContractEnv, line: CartView['lines'][number]): string {
  const id = escapeHtml(line.variant_id);
  const title = escapeHtml(line.product_title ?? (env.t('cart.unavailable_item') || 'Unavailable item'));
  const problem =
    line.problem === null
      ? ''
      : `<p class="cart-line__problem">${line.problem === 'out_of_stock' ? text(env, 'cart.out_of_stock', 'Out of stock: not in your total') : text(env, 'cart.unavailable', 'No longer available: not in your total')}</p>`;
  const update =
    `<form class="cart-line__update" method="post" action="/cart/change">${csrfField(env)}<input type="hidden" name="id" value="${id}">` +
    `<label class="cart-line__label" for="quantity-${id}">${text(env, 'cart.quantity', 'Quantity')}<span class="visually-hidden"> ${title}</span></label>` +
    `<input class="cart-line__quantity-input quantity-input" id="quantity-${id}" type="number" name="quantity" min="0" value="${line.quantity}" inputmode="numeric">` +
    `<button type="submit" class="button button--secondary button--small">${text(env, 'cart.update', 'Update')}</button></form>`;
  const remove =
    `<form class="cart-line__remove" method="post" action="/cart/change">${csrfField(env)}<input type="hidden" name="id" value="${id}"><input type="hidden" name="quantity" value="0">` +
    `<button type="submit" class="link-button">${text(env, 'cart.remove', 'Remove')}<span class="visually-hidden"> ${title}</span></button></form>`;
  return (
    `<tr class="cart-line" id="cart-line-${id}"><td class="cart-line__product"><div class="cart-line__item"><div class="cart-line__media">${lineImage(line)}</div>` +
    `<div class="cart-line__details"><p class="cart-line__title">${title}</p>${variantTitle(line.variant_title) ? `<p class="cart-line__variant">${escapeHtml(line.variant_title)}</p>` : ''}${problem}</div></div></td>` +
    `<td class="cart-line__price">${line.unit_price === null ? '' : money(env, line.unit_price)}</td>` +
    `<td class="cart-line__quantity">${update}${remove}</td>` +
    `<td class="cart-line__total">${money(env, line.line_total)}</td></tr>`
  );
}

function cartSummary(env: JsonContractEnv, cart: CartView): string {
  const row = (cls: string, label: string, value: string) => `<div class="cart-summary__row${cls}"><dt>${label}</dt><dd>${value}</dd></div>`;
  const coupon = cart.coupon;
  const couponProblem =
    coupon && !coupon.applicable
      ? `<p class="cart-summary__coupon-problem">${text(env, 'cart.coupon_not_applicable', 'This code does not apply to your cart')}: ${escapeHtml(coupon.code)}</p>`
      : '';
  return (
    `<div class="cart-summary"><dl class="cart-summary__totals">` +
    row('', text(env, 'cart.subtotal', 'Subtotal'), money(env, cart.subtotal)) +
    (cart.discount > 0
      ? row(
          ' cart-summary__row--discount',
          `${text(env, 'cart.discount', 'Discount')}${coupon?.applicable ? ` (${escapeHtml(coupon.code)})` : ''}`,
          `−${money(env, cart.discount)}`,
        )
      : '') +
    row(' cart-summary__row--total', text(env, 'cart.total', 'Total'), money(env, cart.total)) +
    `</dl><form class="cart-summary__coupon" method="post" action="/cart/coupon">${csrfField(env)}<label class="cart-summary__label" for="cart-coupon">${text(env, 'cart.coupon', 'Discount code')}</label>` +
    `<div class="cart-summary__coupon-row"><input class="cart-summary__coupon-input" id="cart-coupon" type="text" name="code" value="${escapeHtml(coupon?.code ?? '')}" autocomplete="off">` +
    `<button type="submit" class="button button--secondary button--small">${text(env, 'cart.apply', 'Apply')}</button></div></form>${couponProblem}` +
    `<p class="cart-summary__note">${text(env, 'cart.taxes_note', 'Shipping is calculated at checkout.')}</p>` +
    `<a class="button button--primary cart-summary__checkout" href="/checkout">${text(env, 'cart.checkout', 'Check out')}</a></div>`
  );
}

const render: SectionTemplate = (_section, env) => {
  const cart = env.page.cart;
  const title = `<h1 class="main-cart__title">${text(env, 'cart.title', 'Your cart')}</h1>`;
  if (!cart || cart.lines.length === 0)
    return (
      `<div class="main-cart__inner page-width">${title}<div class="main-cart__empty"><p>${text(env, 'cart.empty', 'Your cart is empty.')}</p>` +
      `<a class="button button--primary" href="/collections/all">${text(env, 'cart.continue', 'Continue shopping')}</a></div></div>`
    );
  const head = ['Product', 'Price', 'Quantity', 'Total']
    .map((h) => `<th scope="col" class="cart-table__${h.toLowerCase()}">${text(env, `cart.${h.toLowerCase()}`, h)}</th>`)
    .join('');
  return (
    `<div class="main-cart__inner page-width">${title}<div class="main-cart__layout"><table class="cart-table"><thead><tr>${head}</tr></thead><tbody>` +
    `${cart.lines.map((l) => cartLine(env, l)).join('')}</tbody></table>${cartSummary(env, cart)}</div></div>`
  );
};

/** The cart page: its lines (each with its quantity and remove forms), its totals and coupon form, or what to do when it is empty. */
export const mainCart: BuiltInSection = {
  render,
};
