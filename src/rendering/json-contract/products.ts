import type { PublicProductView } from '../../storefront/index.js';
import { escapeHtml } from '../../html.js';
import { imageTag, placeholder, priceHtml, productUrl, text, type JsonContractEnv } from './parts.js';

const productCard = (env: JsonContractEnv, p: PublicProductView) => {
  const first = p.variants.find((v) => v.available) ?? p.variants[0];
  const price = first?.price ?? p.price_min;
  return (
    `<li class="product-grid__item"><a class="product-card${p.available ? '' : ' product-card--sold-out'}" href="${productUrl(p)}">` +
    `<div class="product-card__media">${imageTag(p.images[0], 'product-card__image') ?? placeholder('product-card__placeholder')}` +
    `${p.available ? '' : `<span class="product-card__badge">${text(env, 'products.sold_out', 'Sold out')}</span>`}</div>` +
    `<h3 class="product-card__title">${escapeHtml(p.title)}</h3>` +
    priceHtml(
      env,
      'product-card__price',
      p.price_max > p.price_min ? p.price_min : price,
      p.price_max > p.price_min ? null : first?.compare_at_price,
      p.price_max > p.price_min,
    ) +
    '</a></li>'
  );
};

/** The product cards of the collection, search and featured sections, up to `limit`. */
export const productGrid = (env: JsonContractEnv, products: readonly PublicProductView[], limit: number) =>
  `<ul class="product-grid" role="list">${products
    .slice(0, limit)
    .map((p) => productCard(env, p))
    .join('')}</ul>`;
