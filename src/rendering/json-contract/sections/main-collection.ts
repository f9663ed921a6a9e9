import { escapeHtml } from '../../../html.js';
import { productGrid } from '../products.js';
import { count, searchForm, text, type BuiltInSection, type SectionTemplate } from '../parts.js';

const render: SectionTemplate = (section, env) => {
  const c = env.page.collection;
  const search = env.page.search;
  if (!c && !search) return '';
  const products = c?.products ?? [];
  const title = search ? `${env.t('search.results_for') ?? 'Search results for'} "${search.query}"` : c!.title;
  const header =
    `<header class="main-collection__header"><h1 class="main-collection__title">${escapeHtml(title)}</h1>` +
    (search
      ? searchForm(env, 'search-form', `search-${escapeHtml(section.id)}`)
      : c!.description_html
        ? `<div class="main-collection__description rte">${c!.description_html}</div>`
        : '') +
    '</header>';
  if (products.length === 0)
    return `<div class="main-collection__inner page-width">${header}<div class="main-collection__empty"><p>${
      search ? text(env, 'search.no_results', 'No products match your search.') : text(env, 'collections.empty', 'No products here yet.')
    }</p><a class="button button--secondary" href="/collections/all">${text(env, 'general.shop_all', 'Shop all products')}</a></div></div>`;
  return `<div class="main-collection__inner page-width">${header}${productGrid(env, products, count(section.settings.products_per_page, 24))}</div>`;
};

/** A collection's products, or the search page's results (with its search form); what to do when there are none. */
export const mainCollection: BuiltInSection = {
  render,
};
