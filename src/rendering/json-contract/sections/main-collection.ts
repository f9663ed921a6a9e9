import { escapeHtml } from '../../../html.js';
import { listingToolbar, pager } from '../listing.js';
import { productGrid } from '../products.js';
import { searchForm, text, type BuiltInSection, type SectionTemplate } from '../parts.js';

const render: SectionTemplate = (section, env) => {
  const c = env.page.collection;
  const search = env.page.search;
  const listing = env.page.listing;
  if (!c && !search) return '';
  const products = c?.products ?? [];
  const sid = escapeHtml(section.id);
  const title = search ? `${env.t('search.results_for') ?? 'Search results for'} "${search.query}"` : c!.title;
  const header =
    `<header class="main-collection__header"><h1 class="main-collection__title">${escapeHtml(title)}</h1>` +
    (search
      ? searchForm(env, 'search-form', `search-${sid}`)
      : c!.description_html
        ? `<div class="main-collection__description rte">${c!.description_html}</div>`
        : '') +
    '</header>';
  // The search page without terms has nothing to sort or filter.
  const toolbar = listing && (!search || search.query) ? listingToolbar(env, listing, sid, section.settings.show_filters !== false) : '';
  if (products.length === 0)
    return `<div class="main-collection__inner page-width">${header}${listing && listing.active.length > 0 ? toolbar : ''}<div class="main-collection__empty"><p>${
      search ? text(env, 'search.no_results', 'No products match your search.') : text(env, 'collections.empty', 'No products here yet.')
    }</p><a class="button button--secondary" href="/collections/all">${text(env, 'general.shop_all', 'Shop all products')}</a></div></div>`;
  return `<div class="main-collection__inner page-width">${header}${toolbar}${productGrid(env, products, products.length)}${listing ? pager(env, listing) : ''}</div>`;
};

/**
 * A collection's products, or the search page's results (with its search form): one page of them
 * (`products_per_page`, src/rendering/listing.ts), with the filter and sort forms and the pager;
 * what to do when there are none.
 */
export const mainCollection: BuiltInSection = {
  render,
};
