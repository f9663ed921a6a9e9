import { ownValue } from '../own-keys.js';
import { escapeHtml } from '../html.js';
import { BROWSE_SORTS, type BrowseSort } from '../browse-sorts.js';
import { currencyDigits } from './money.js';

/**
 * A collection or search page's listing (docs/shop.md, Collections and search): the page asked
 * for, its sort and filters, read from Shopify's parameters; what the page shows of them, with
 * every link's URL keeping the other parameters. A malformed value is ignored (as if it were
 * absent); a well-formed page past the last is a 404 (see page.ts).
 */

/** The listing parameters of a page's query string, as the shop's route hands them over (first value of each). */
export const LISTING_PARAMS = ['page', 'sort_by', 'filter.v.availability', 'filter.v.price.gte', 'filter.v.price.lte'] as const;
export type ListingQuery = Partial<Record<(typeof LISTING_PARAMS)[number], string>>;

/** The names the listing's parameters have in a URL, in the order a URL carries them. */
const PARAMS = ['q', 'filter.v.availability', 'filter.v.price.gte', 'filter.v.price.lte', 'sort_by', 'page'] as const;

/** The highest page number read; a larger one is past the end of any listing (404). */
const MAX_PAGE = 10_000;

/** The default number of products a page shows, and the most a section may ask for (Shopify's limit). */
export const DEFAULT_PER_PAGE = 24;
export const MAX_PER_PAGE = 50;

export type ListingRequest = {
  page: number;
  sort: BrowseSort | null;
  available: boolean | null;
  /** Minor units. */
  priceGte: number | null;
  priceLte: number | null;
};

/** Shopify's names of the sort options, in its order (the `t` keys `collections.sorting.<value>` translate them). */
export const SORT_NAMES: Record<BrowseSort, string> = {
  manual: 'Featured',
  'title-ascending': 'Alphabetically, A-Z',
  'title-descending': 'Alphabetically, Z-A',
  'price-ascending': 'Price, low to high',
  'price-descending': 'Price, high to low',
  'created-ascending': 'Date, old to new',
  'created-descending': 'Date, new to old',
};

export const isBrowseSort = (v: unknown): v is BrowseSort => typeof v === 'string' && (BROWSE_SORTS as readonly string[]).includes(v);

/** A price in major units (`20`, `19.5`) as minor units, or null when it is not a non-negative amount. */
function priceOf(value: string | undefined, currency: string): number | null {
  if (value === undefined || !/^\d{1,9}(\.\d{1,4})?$/.test(value.trim())) return null;
  return Math.round(Number(value.trim()) * 10 ** currencyDigits(currency));
}

/** The listing a query asks for; what it cannot read is left at its default. */
export function readListing(query: ListingQuery, currency: string): ListingRequest {
  const page = query.page !== undefined && /^\d{1,6}$/.test(query.page) && Number(query.page) >= 1 ? Math.min(Number(query.page), MAX_PAGE + 1) : 1;
  const availability = query['filter.v.availability'];
  let priceGte = priceOf(query['filter.v.price.gte'], currency);
  let priceLte = priceOf(query['filter.v.price.lte'], currency);
  if (priceGte !== null && priceLte !== null && priceGte > priceLte) [priceGte, priceLte] = [priceLte, priceGte];
  return {
    page,
    sort: isBrowseSort(query.sort_by) ? query.sort_by : null,
    available: availability === '1' ? true : availability === '0' ? false : null,
    priceGte,
    priceLte,
  };
}

export type PagerPart = { title: string; url: string | null; is_link: boolean; current: boolean };

/** What a collection or search page shows of its listing (PageModel.listing); plain data, sent to the render threads as is. */
export type PageListing = {
  path: string;
  current_page: number;
  pages: number;
  page_size: number;
  items: number;
  sort_by: BrowseSort;
  default_sort_by: BrowseSort;
  sort_options: { value: BrowseSort; name: string }[];
  /** The query's own parameters (q and the filters), for the forms' hidden fields. */
  params: Record<string, string>;
  available: boolean | null;
  /** Major units, as typed (`20`), or '' when unset. */
  price_gte: string;
  price_lte: string;
  previous_url: string | null;
  next_url: string | null;
  parts: PagerPart[];
  /** The active filters, each with the URL without it; and the URL without any. */
  active: { label: string; url_to_remove: string }[];
  clear_url: string;
};

/** A URL of the listing: `path` with `params` (empty ones left out), `page` only past the first. */
export function listingUrl(path: string, params: Record<string, string>, page = 1): string {
  const search = new URLSearchParams();
  for (const name of PARAMS) {
    const v = name === 'page' ? (page > 1 ? String(page) : '') : (params[name] ?? '');
    if (v !== '') search.set(name, v);
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Page numbers as Shopify's `paginate.parts`: the first, the last, two either side of the current, `…` between. */
function pagerParts(path: string, params: Record<string, string>, current: number, pages: number): PagerPart[] {
  const out: PagerPart[] = [];
  let gap = false;
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - current) <= 2) {
      out.push({ title: String(n), url: n === current ? null : listingUrl(path, params, n), is_link: n !== current, current: n === current });
      gap = false;
    } else if (!gap) {
      out.push({ title: '…', url: null, is_link: false, current: false });
      gap = true;
    }
  }
  return out;
}

const major = (minor: number, currency: string) => {
  const digits = currencyDigits(currency);
  return (minor / 10 ** digits).toFixed(digits).replace(/\.0+$/, '');
};

/** The listing as a page shows it: pages, sort, filters and every link. `q`: a search's terms. */
export function pageListing(
  path: string,
  request: ListingRequest,
  found: { total: number; perPage: number; sort: BrowseSort; defaultSort: BrowseSort },
  currency: string,
  q?: string,
): PageListing {
  const params: Record<string, string> = {};
  if (q !== undefined) params.q = q;
  if (request.available !== null) params['filter.v.availability'] = request.available ? '1' : '0';
  const gte = request.priceGte === null ? '' : major(request.priceGte, currency);
  const lte = request.priceLte === null ? '' : major(request.priceLte, currency);
  if (gte) params['filter.v.price.gte'] = gte;
  if (lte) params['filter.v.price.lte'] = lte;
  const withSort = found.sort === found.defaultSort ? params : { ...params, sort_by: found.sort };
  const pages = Math.max(1, Math.ceil(found.total / found.perPage));
  const current = request.page;
  const without = (...names: string[]) => listingUrl(path, Object.fromEntries(Object.entries(withSort).filter(([k]) => !names.includes(k))));
  const active: PageListing['active'] = [];
  if (request.available !== null) active.push({ label: request.available ? 'In stock' : 'Out of stock', url_to_remove: without('filter.v.availability') });
  if (gte || lte)
    active.push({
      label: gte && lte ? `Price: ${gte}–${lte}` : gte ? `Price: from ${gte}` : `Price: up to ${lte}`,
      url_to_remove: without('filter.v.price.gte', 'filter.v.price.lte'),
    });
  return {
    path,
    current_page: current,
    pages,
    page_size: found.perPage,
    items: found.total,
    sort_by: found.sort,
    default_sort_by: found.defaultSort,
    sort_options: BROWSE_SORTS.map((value) => ({ value, name: SORT_NAMES[value] })),
    params,
    available: request.available,
    price_gte: gte,
    price_lte: lte,
    previous_url: current > 1 ? listingUrl(path, withSort, current - 1) : null,
    next_url: current < pages ? listingUrl(path, withSort, current + 1) : null,
    parts: pagerParts(path, withSort, current, pages),
    active,
    clear_url: without('filter.v.availability', 'filter.v.price.gte', 'filter.v.price.lte'),
  };
}

/** How a page's collection section lists: its page size and default sort. */
export type ListingSettings = { perPage: number; defaultSort: BrowseSort };

const PAGINATE_BY = /\{%-?\s*paginate\s+(?:collection\.products|search\.results)\s+by\s+(\d+|section\.settings\.([A-Za-z0-9_]+))/;

/**
 * The page size and default sort of a collection page: its collection section's
 * `products_per_page` setting, else (a Liquid theme) the `by` of the section's
 * `{% paginate collection.products by … %}` (a number, or `section.settings.<id>`), else 24 (at
 * most 50); its `default_sort` setting when it is a sort the platform honours, else `manual`.
 */
export function listingSettings(
  sections: readonly { rendererKey: string; settings: Record<string, unknown> }[],
  theme?: { bundle: { renderer: { assets: readonly { path: string; content?: string | null }[] } } },
): ListingSettings {
  const clamp = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 1 ? Math.min(MAX_PER_PAGE, Math.floor(n)) : null);
  for (const section of sections) {
    let perPage = clamp(section.settings.products_per_page);
    if (perPage === null && theme) {
      const source = theme.bundle.renderer.assets.find((a) => a.path === `sections/${section.rendererKey}.liquid`)?.content;
      const by = typeof source === 'string' ? PAGINATE_BY.exec(source) : null;
      if (by) perPage = by[2] ? clamp(ownValue(section.settings, by[2])) : clamp(Number(by[1]));
    }
    if (perPage !== null) return { perPage, defaultSort: isBrowseSort(section.settings.default_sort) ? section.settings.default_sort : 'manual' };
  }
  return { perPage: DEFAULT_PER_PAGE, defaultSort: 'manual' };
}

/** `<link rel="prev">`/`<link rel="next">` for the head of a listing page that has them (both engines). */
export function listingHeadLinks(listing: PageListing | null): string {
  if (!listing) return '';
  return (
    (listing.previous_url ? `<link rel="prev" href="${escapeHtml(listing.previous_url)}">` : '') +
    (listing.next_url ? `<link rel="next" href="${escapeHtml(listing.next_url)}">` : '')
  );
}
