import { listCollections, listProducts, ListProductsQuery, type ProductView } from '../../catalog/index.js';
import { html, type Markup } from '../../html.js';
import { levelsOfProducts } from '../../inventory/index.js';
import { mediaByIds, type MediaView } from '../../media/index.js';
import { blankForm, field, select } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { emptyState, heading, link, table } from '../../http/ui/parts.js';
import { formatMoney } from '../../rendering/index.js';
import { exportButton } from '../exports/new.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, storePath, type StorePage } from '../request.js';
import { statusBadge } from './status.js';

/**
 * `/admin/stores/<id>/products`: the store's products a page at a time over the API's cursors
 * (`listProducts` with the REST API's own `ListProductsQuery`), filtered as the API filters them:
 * status, collection, a text query (title, handle, SKU, tag), and its sorts. Each row: the first
 * image, title, status, the tracked stock for sale (summed over variants and locations) and the
 * price range.
 */

const FILTERS = ['query', 'status', 'collection_id', 'sort'] as const;
const SORTS = [
  { value: 'created_at', label: 'Oldest first' },
  { value: '-created_at', label: 'Newest first' },
  { value: '-updated_at', label: 'Recently updated' },
  { value: 'title', label: 'Title A–Z' },
  { value: '-title', label: 'Title Z–A' },
];

/** The product's price, or its range, in the store's currency. */
export const priceRange = (p: Pick<ProductView, 'price_min' | 'price_max' | 'currency'>) =>
  p.price_min === p.price_max ? formatMoney(p.price_min, p.currency) : `${formatMoney(p.price_min, p.currency)} – ${formatMoney(p.price_max, p.currency)}`;

/** Units for sale of the product's tracked variants, or null when none is tracked. */
function stockOf(p: ProductView, available: ReadonlyMap<string, number>): string | null {
  const tracked = p.variants.filter((v) => v.inventory_tracked);
  if (!tracked.length) return null;
  const units = tracked.reduce((n, v) => n + (available.get(v.id) ?? 0), 0);
  return `${units} in stock`;
}

/** A small image, or an empty box of its size, so the rows line up. */
export const thumbnail = (m: MediaView | undefined): Markup =>
  m?.url
    ? html`<img src="${m.url}" alt="${m.alt ?? ''}" width="40" height="40" loading="lazy" style="object-fit:cover;border-radius:4px;display:block;flex:none">`
    : html`<span aria-hidden="true" style="display:block;flex:none;width:40px;height:40px;border-radius:4px;background:#eef0f3"></span>`;

export async function productsPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, ListProductsQuery.extend({ sort: ListProductsQuery.shape.sort.unwrap().default('-created_at') }));
  const [page, collections] = await Promise.all([listProducts(s.platform, s.store.id, query), listCollections(s.platform, s.store.id, { limit: 100 })]);
  const [levels, media] = await Promise.all([
    levelsOfProducts(
      s.platform,
      s.store.id,
      page.items.filter((p) => p.variants.some((v) => v.inventory_tracked)).map((p) => p.id),
    ),
    mediaByIds(
      s.platform,
      s.store.id,
      page.items.flatMap((p) => p.media_ids.slice(0, 1)),
    ),
  ]);
  const available = new Map<string, number>();
  for (const l of levels) available.set(l.variant_id, (available.get(l.variant_id) ?? 0) + l.available);
  const sent = new Map(FILTERS.flatMap((k) => (typeof s.ctx.query[k] === 'string' && s.ctx.query[k] ? [[k, s.ctx.query[k]] as const] : [])));
  const shown = blankForm(sent);
  const path = storePath(s.store, '/products');
  const filtering = [...sent.keys()].some((k) => k !== 'sort');

  const form = html`<form class="card" method="get" action="${path}" role="search">
    <div class="grid">
      ${field(shown, 'query', 'Search', { type: 'search', hint: 'A title, handle, SKU or tag' })}
      ${select(
        shown,
        'status',
        'Status',
        ['active', 'draft', 'archived'].map((v) => ({ value: v, label: v })),
        { placeholder: 'any' },
      )}
      ${
        collections.items.length
          ? select(
              shown,
              'collection_id',
              'Collection',
              collections.items.map((c) => ({ value: c.id, label: c.title })),
              { placeholder: 'any' },
            )
          : null
      }
      ${select(shown, 'sort', 'Sort', SORTS, { selected: '-created_at' })}
    </div>
    <div class="actions">
      <button class="button" type="submit">Filter</button>${filtering ? html`<a href="${path}">Clear filters</a>` : null}
    </div>
  </form>`;

  const rows = page.items.map((p) => [
    html`<span style="display:flex;gap:10px;align-items:center">${thumbnail(p.media_ids[0] ? media.get(p.media_ids[0]) : undefined)}${link(
      storePath(s.store, `/products/${p.id}`),
      p.title,
    )}</span>`,
    statusBadge(p.status),
    stockOf(p, available),
    priceRange(p),
  ]);
  const addProduct = { href: storePath(s.store, '/products/new'), label: 'Add product' };
  const empty = filtering
    ? emptyState('No product matches these filters.', { href: path, label: 'Clear filters' })
    : emptyState('No products yet. Add your first product: a title, a price, and it can be in your shop.', addProduct);
  const body = html`<div class="actions" style="justify-content:space-between;align-items:center">
      ${heading('Products')}<span class="actions">${exportButton(s, 'products', sent)}<a class="button" href="${addProduct.href}">Add product</a></span>
    </div>
    <p><a href="${storePath(s.store, '/collections')}">Collections</a></p>
    ${form}${table({ label: 'Products', headings: ['Product', 'Status', 'Stock', 'Price'], rows, empty })}${pager({
      path,
      params: { ...Object.fromEntries(sent), limit: s.ctx.query.limit ? query.limit : undefined },
      nextCursor: page.nextCursor,
      ...pagePosition(s),
    })}`;
  s.render(storePage(s, 'products', { title: 'Products', body }));
}
