import { escapeHtml, scriptSafeJson } from '../../../html.js';
import type { PublicProductView } from '../../../storefront/index.js';
import type { RenderedBlock, RenderedSection } from '../../sections.js';
import { blocks, genericBlock } from '../blocks.js';
import { csrfField, imageTag, placeholder, priceHtml, text, type BuiltInSection, type JsonContractEnv, type SectionTemplate } from '../parts.js';

type Variant = PublicProductView['variants'][number];

/** The variant a product page shows: the one `?variant=` chose, else the first available, else the first. */
export const currentVariant = (env: JsonContractEnv, product: PublicProductView): Variant | undefined =>
  product.variants.find((v) => v.id === env.page.selectedVariantId) ?? product.variants.find((v) => v.available) ?? product.variants[0];

const blockPrice = (env: JsonContractEnv, block: RenderedBlock, product: PublicProductView, v: Variant | undefined) =>
  priceHtml(env, 'product__price', v?.price ?? product.price_min, block.settings.show_compare_at === false ? null : v?.compare_at_price, false);

/**
 * The variant picker (docs/rendering.md, The variant picker): a select of the product's variants
 * that belongs to a GET form of the product's page (`?variant=`, placed after the cart form, which
 * carries the shown variant's id); its "Choose" button shows the chosen variant without
 * JavaScript, and the theme's script hides it and updates the page in place.
 */
function variantPicker(env: JsonContractEnv, product: PublicProductView, current: Variant | undefined, sid: string): string {
  if (product.variants.length <= 1) return '';
  const label = escapeHtml(product.options.map((o) => o.name).join(' / ') || (env.t('products.variant') ?? 'Variant'));
  const options = product.variants
    .map(
      (v) =>
        `<option value="${escapeHtml(v.id)}"${v === current ? ' selected' : ''}>${escapeHtml(v.title)}${v.available ? '' : ` – ${text(env, 'products.sold_out', 'Sold out')}`}</option>`,
    )
    .join('');
  return (
    `<div class="product__variants" data-variant-picker><label class="product__label" for="variant-${sid}">${label}</label>` +
    `<div class="product__variant-row"><select class="product__select select" id="variant-${sid}" name="variant" form="variant-form-${sid}" data-variant-select>${options}</select>` +
    `<button class="button button--secondary product__choose" type="submit" form="variant-form-${sid}" data-no-js-only>${text(env, 'products.choose', 'Choose')}</button></div></div>`
  );
}

/** The product's variants as the theme's script reads them: each one's id, availability and price block (HTML). */
function variantData(env: JsonContractEnv, section: RenderedSection, product: PublicProductView): string {
  const priceBlock = section.blocks.find((b) => b.type === 'product-price');
  return `<script type="application/json" data-variant-json>${scriptSafeJson({
    add_to_cart: env.t('products.add_to_cart') ?? 'Add to cart',
    sold_out: env.t('products.sold_out') ?? 'Sold out',
    variants: product.variants.map((v) => ({
      id: v.id,
      title: v.title,
      available: v.available,
      price: v.price,
      compare_at_price: v.compare_at_price,
      price_html: priceBlock ? blockPrice(env, priceBlock, product, v) : null,
      image: null,
    })),
  })}</script>`;
}

/** The blocks of a product section, each by its type; others render generically. `sid`: the section id, for the fields' ids. */
function productBlock(block: RenderedBlock, env: JsonContractEnv, product: PublicProductView, sid: string): string {
  const current = currentVariant(env, product);
  switch (block.type) {
    case 'product-title':
      return `<h1 class="product__title">${escapeHtml(product.title)}</h1>`;
    case 'product-price':
      return `<div data-product-price>${blockPrice(env, block, product, current)}</div>`;
    case 'variant-picker':
      return variantPicker(env, product, current, sid);
    case 'quantity-selector':
      return `<div class="product__quantity"><label class="product__label" for="quantity-${sid}">${text(env, 'products.quantity', 'Quantity')}</label><input class="product__quantity-input quantity-input" id="quantity-${sid}" type="number" name="quantity" min="1" value="1" inputmode="numeric"></div>`;
    case 'buy-buttons':
      return `<div class="product__buttons"><button type="submit" class="button button--primary product__add" data-add-to-cart${current?.available ? '' : ' disabled'}>${
        current?.available ? text(env, 'products.add_to_cart', 'Add to cart') : text(env, 'products.sold_out', 'Sold out')
      }</button></div>`;
    case 'product-description':
      return `<div class="product__description rte">${product.description_html}</div>`;
    default:
      return genericBlock(block, env);
  }
}

/** The product's images: the first large, the others as thumbnails; a placeholder when it has none. */
function productMedia(product: PublicProductView): string {
  const [first, ...rest] = product.images;
  const main = imageTag(first, 'main-product__image', true);
  if (!main) return `<div class="main-product__media main-product__media--empty">${placeholder('main-product__placeholder')}</div>`;
  const thumbs = rest
    .slice(0, 8)
    .map((img) => imageTag(img, 'main-product__thumb'))
    .filter((t): t is string => t !== null);
  return `<div class="main-product__media">${main}${thumbs.length ? `<div class="main-product__thumbs">${thumbs.join('')}</div>` : ''}</div>`;
}

const render: SectionTemplate = (section, env) => {
  const product = env.page.product;
  if (!product) return '';
  const sid = escapeHtml(section.id);
  const picker = section.blocks.some((b) => b.type === 'variant-picker') && product.variants.length > 1;
  const current = currentVariant(env, product);
  const id = current ? `<input type="hidden" name="id" value="${escapeHtml(current.id)}" data-variant-id>` : '';
  return (
    `<div class="main-product__inner page-width">${productMedia(product)}<div class="main-product__info">` +
    `<form class="product-form" method="post" action="/cart/add" data-product-id="${escapeHtml(product.id)}">${csrfField(env)}${id}` +
    `${blocks(section, env, (x) => productBlock(x, env, product, sid))}</form>` +
    (picker
      ? `<form id="variant-form-${sid}" method="get" action="/products/${encodeURIComponent(product.handle)}"></form>${variantData(env, section, product)}`
      : '') +
    '</div></div>'
  );
};

/** The product page's product: its images, and its blocks inside the add-to-cart form. */
export const mainProduct: BuiltInSection = {
  render,
  rendersBlocks: true,
};
