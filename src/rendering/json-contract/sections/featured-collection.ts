import type { PublicProductView } from '../../../storefront/index.js';
import { ownValue } from '../../../own-keys.js';
import { productGrid } from '../products.js';
import { count, heading, text, type BuiltInSection, type JsonContractEnv, type SectionTemplate } from '../parts.js';

/** Products of a featured section: on a product page, not the product itself ("You may also like"). */
const othersThan = (env: JsonContractEnv, products: readonly PublicProductView[]) =>
  env.page.product ? products.filter((p) => p.id !== env.page.product!.id) : products;

const render: SectionTemplate = (section, env) => {
  const handle = section.settings.collection;
  const collection = typeof handle === 'string' ? ownValue(env.page.collections, handle) : undefined;
  const products = othersThan(env, collection?.products ?? []);
  if (!collection || products.length === 0) return '';
  const key = section.rendererKey === 'featured-products' ? 'featured-products' : 'featured-collection';
  const viewAll =
    section.settings.show_view_all === true
      ? `<a class="${key}__view-all" href="/collections/${encodeURIComponent(collection.handle)}">${text(env, 'general.view_all', 'View all')}</a>`
      : '';
  return (
    `<div class="${key}__inner page-width"><div class="${key}__header">${heading(section.settings.title, `${key}__title`)}${viewAll}</div>` +
    `${productGrid(env, products, count(section.settings.products_to_show, 4))}</div>`
  );
};

/** Products of the collection its `collection` names (`featured-products` is the same section), with View all when asked. */
export const featuredCollection: BuiltInSection = {
  render,
};
