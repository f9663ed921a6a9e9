import { escapeHtml } from '../../html.js';
import type { PageListing } from '../listing.js';
import { text, type JsonContractEnv } from './parts.js';

/**
 * The collection and search pages' listing controls (docs/rendering.md, Markup contract): the
 * filter and sort forms (GET, each with a submit button, so they work without JavaScript; a
 * theme's script may submit on change), the active filters with a link clearing each, and the
 * pager. Every form keeps the listing's other parameters as hidden fields.
 */

const hidden = (params: Record<string, string>, except: readonly string[]) =>
  Object.entries(params)
    .filter(([k]) => !except.includes(k))
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');

const PRICE = ['filter.v.price.gte', 'filter.v.price.lte'];
const AVAILABILITY = 'filter.v.availability';

function filterForm(env: JsonContractEnv, l: PageListing, sid: string): string {
  const option = (value: string, label: string, on: boolean) => `<option value="${value}"${on ? ' selected' : ''}>${label}</option>`;
  const sort: Record<string, string> = l.sort_by === l.default_sort_by ? {} : { sort_by: l.sort_by };
  return (
    `<form class="listing-filters" method="get" action="${escapeHtml(l.path)}" data-listing-form>${hidden({ ...l.params, ...sort }, [AVAILABILITY, ...PRICE])}` +
    `<div class="listing-filters__field"><label class="listing-filters__label" for="availability-${sid}">${text(env, 'collections.availability', 'Availability')}</label>` +
    `<select class="select listing-filters__select" id="availability-${sid}" name="${AVAILABILITY}">${option('', text(env, 'collections.any', 'Any'), l.available === null)}${option('1', text(env, 'collections.in_stock', 'In stock'), l.available === true)}${option('0', text(env, 'collections.out_of_stock', 'Out of stock'), l.available === false)}</select></div>` +
    `<fieldset class="listing-filters__price"><legend class="listing-filters__label">${text(env, 'collections.price', 'Price')}</legend>` +
    `<label class="visually-hidden" for="price-gte-${sid}">${text(env, 'collections.price_from', 'From')}</label><input class="listing-filters__input" id="price-gte-${sid}" type="number" name="${PRICE[0]}" min="0" step="any" inputmode="decimal" placeholder="${text(env, 'collections.price_from', 'From')}" value="${escapeHtml(l.price_gte)}">` +
    `<label class="visually-hidden" for="price-lte-${sid}">${text(env, 'collections.price_to', 'To')}</label><input class="listing-filters__input" id="price-lte-${sid}" type="number" name="${PRICE[1]}" min="0" step="any" inputmode="decimal" placeholder="${text(env, 'collections.price_to', 'To')}" value="${escapeHtml(l.price_lte)}"></fieldset>` +
    `<button class="button button--secondary listing-filters__apply" type="submit">${text(env, 'collections.apply', 'Filter')}</button></form>`
  );
}

function sortForm(env: JsonContractEnv, l: PageListing, sid: string): string {
  return (
    `<form class="listing-sort" method="get" action="${escapeHtml(l.path)}" data-listing-form>${hidden(l.params, [])}` +
    `<label class="listing-sort__label" for="sort-${sid}">${text(env, 'collections.sort_by', 'Sort by')}</label>` +
    `<select class="select listing-sort__select" id="sort-${sid}" name="sort_by" data-submit-on-change>${l.sort_options
      .map((o) => `<option value="${o.value}"${o.value === l.sort_by ? ' selected' : ''}>${text(env, `collections.sorting.${o.value}`, o.name)}</option>`)
      .join('')}</select>` +
    `<button class="button button--secondary listing-sort__apply" type="submit" data-no-js-only>${text(env, 'collections.apply_sort', 'Sort')}</button></form>`
  );
}

function activeFilters(env: JsonContractEnv, l: PageListing): string {
  if (l.active.length === 0) return '';
  const remove = text(env, 'collections.remove_filter', 'Remove filter');
  return (
    `<ul class="listing-active" role="list">${l.active
      .map(
        (a) =>
          `<li><a class="listing-active__item" href="${escapeHtml(a.url_to_remove)}"><span class="visually-hidden">${remove}: </span>${escapeHtml(a.label)} ×</a></li>`,
      )
      .join('')}` + `<li><a class="listing-active__clear" href="${escapeHtml(l.clear_url)}">${text(env, 'collections.clear_all', 'Clear all')}</a></li></ul>`
  );
}

/** The filter and sort forms and the active filters (`show_filters: false` leaves the filters out). */
export function listingToolbar(env: JsonContractEnv, l: PageListing, sid: string, showFilters: boolean): string {
  return `<div class="listing-toolbar">${showFilters ? filterForm(env, l, sid) : ''}${sortForm(env, l, sid)}</div>${showFilters ? activeFilters(env, l) : ''}`;
}

/** Previous, the page numbers and Next, as a `<nav>`; nothing when there is one page. */
export function pager(env: JsonContractEnv, l: PageListing): string {
  if (l.pages <= 1) return '';
  const edge = (url: string | null, rel: 'prev' | 'next', label: string) =>
    url
      ? `<a class="pager__link pager__link--${rel}" href="${escapeHtml(url)}" rel="${rel}">${label}</a>`
      : `<span class="pager__link pager__link--${rel} pager__link--disabled" aria-disabled="true">${label}</span>`;
  const parts = l.parts
    .map((p) =>
      p.current
        ? `<li><span class="pager__page pager__page--current" aria-current="page">${escapeHtml(p.title)}</span></li>`
        : p.url
          ? `<li><a class="pager__page" href="${escapeHtml(p.url)}"${p.url === l.previous_url ? ' rel="prev"' : p.url === l.next_url ? ' rel="next"' : ''}>${escapeHtml(p.title)}</a></li>`
          : `<li><span class="pager__gap">${escapeHtml(p.title)}</span></li>`,
    )
    .join('');
  return (
    `<nav class="pager" aria-label="${text(env, 'collections.pagination', 'Pagination')}">${edge(l.previous_url, 'prev', text(env, 'collections.previous', 'Previous'))}` +
    `<ul class="pager__pages" role="list">${parts}</ul>${edge(l.next_url, 'next', text(env, 'collections.next', 'Next'))}</nav>`
  );
}
