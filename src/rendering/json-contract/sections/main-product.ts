import { escapeHtml } from '../../../html.js';
import type { PublicProductView } from '../../../storefront/index.js';
import type { RenderedBlock } from '../../sections.js';
import { blocks, genericBlock } from '../blocks.js';
import { csrfField, imageTag, placeholder, priceHtml, text, type BuiltInSection, type JsonContractEnv, type SectionTemplate } from '../parts.js';

/** The blocks of a product section, each by its type; others render generically. `sid`: the section id, for the fields' ids. */
function productBlock(block: RenderedBlock, env: JsonContractEnv, product: PublicProductView, sid: string): string {
  const current = product.variants.find((v) => v.available) ?? product.variants[0];
  switch (block.type) {
    case 'product-title':
      return `<h1 class="product__title">${escapeHtml(product.title)}</h1>`;
    case 'product-price':
      return priceHtml(
        env,
        'product__price',
        current?.price ?? product.price_min,
        block.settings.show_compare_at === false ? null : current?.compare_at_price,
        false,
      );
    case 'variant-picker':
      return product.variants.length <= 1
        ? ''
        : `<div class="product__variants"><label class="product__label" for="variant-${sid}">${escapeHtml(product.options.map((o) => o.name).join(' / ') || (env.t('products.variant') ?? 'Variant'))}</label>` +
            `<select class="product__select select" id="variant-${sid}" name="id">${product.variants
              .map(
                (v) =>
                  `<option value="${escapeHtml(v.id)}"${v === current ? ' selected' : ''}${v.available ? '' : ' disabled'}>${escapeHtml(v.title)}${v.available ? '' : ` – ${text(env, 'products.sold_out', 'Sold out')}`}</option>`,
              )
              .join('')}</select></div>`;
    case 'quantity-selector':
      return `<div class="product__quantity"><label class="product__label" for="quantity-${sid}">${text(env, 'products.quantity', 'Quantity')}</label><input class="product__quantity-input quantity-input" id="quantity-${sid}" type="number" name="quantity" min="1" value="1" inputmode="numeric"></div>`;
    case 'buy-buttons':
      return `<div class="product__buttons"><button type="submit" class="button button--primary product__add"${product.available ? '' : ' disabled'}>${
        product.available ? text(env, 'products.add_to_cart', 'Add to cart') : text(env, 'products.sold_out', 'Sold out')
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
  const first = product.variants.find((v) => v.available) ?? product.variants[0];
  const hiddenId = !picker && first ? `<input type="hidden" name="id" value="${escapeHtml(first.id)}">` : '';
  return (
    `<div class="main-product__inner page-width">${productMedia(product)}<div class="main-product__info">` +
    `<form class="product-form" method="post" action="/cart/add" data-product-id="${escapeHtml(product.id)}">${csrfField(env)}${hiddenId}` +
    `${blocks(section, env, (x) => productBlock(x, env, product, sid))}</form></div></div>`
  );
};

/** The product page's product: its images, and its blocks inside the add-to-cart form. */
export const mainProduct: BuiltInSection = {
  render,
  rendersBlocks: true,
};
