import { html } from '../../html.js';
import { withQuery } from '../../http/ui/pager.js';
import { emptyState, facts, heading, link, table } from '../../http/ui/parts.js';
import { lowStockLevels } from '../../inventory/index.js';
import { countOrdersToFulfil, orderDaysUpTo } from '../../orders/index.js';
import { formatMoney } from '../../rendering/index.js';
import { shopUrl } from '../../shop/index.js';
import { getLiveTheme } from '../../themes/index.js';
import { storePage } from '../layout.js';
import { noThemeNotice } from '../themes/library.js';
import { freeThemesPath } from '../themes/paths.js';
import { storePath, type StorePage } from '../request.js';

/**
 * `/admin/stores/<id>`: the store at a glance (docs/admin.md, Home). Every figure is read on an
 * index and costs the same on a store with ten orders or a million: the orders and sales of the
 * last 30 UTC days are the orders domain's day documents (at most 30), the orders to fulfil an
 * indexed count (up to a cap), the low stock the few lowest inventory levels.
 */

const DAYS = 30;
/** At most this many units for sale is low stock. */
export const LOW_STOCK = 5;
const LOW_STOCK_SHOWN = 5;
/** The orders-to-fulfil count stops here (a page that said "1,000+" said enough). */
const TO_FULFIL_CAP = 1000;

/** The orders list filtered to what is left to ship. */
export const toFulfilQuery = { status: 'open', fulfillment_status: 'unfulfilled,partial' } as const;

const stat = (label: string, value: string) =>
  html`<div class="stat">
    <div class="stat__label">${label}</div>
    <div class="stat__value">${value}</div>
  </div>`;

export async function homePage(s: StorePage): Promise<void> {
  const { platform, store } = s;
  const [days, toFulfil, low, theme] = await Promise.all([
    orderDaysUpTo(platform, store.id, platform.clock.now(), DAYS),
    countOrdersToFulfil(platform, store.id, TO_FULFIL_CAP),
    lowStockLevels(platform, store.id, LOW_STOCK, LOW_STOCK_SHOWN),
    getLiveTheme(platform, store),
  ]);
  const today = days.at(-1)!;
  const month = days.reduce((sum, d) => ({ orders: sum.orders + d.orders, sales: sum.sales + d.sales }), { orders: 0, sales: 0 });
  const money = (minor: number) => formatMoney(minor, store.currency);
  const shop = shopUrl(platform, s.ctx, store.subdomain);
  const ordersPath = storePath(store, '/orders');

  const body = html`${heading(store.name, 'Today and the last 30 days (UTC), what is waiting, and your shop.')}
    ${theme ? null : noThemeNotice(s)}
    <div class="grid" style="grid-template-columns:repeat(auto-fill,minmax(150px,1fr));margin-bottom:18px">
      ${stat('Orders today', today.orders.toLocaleString('en'))}${stat('Sales today', money(today.sales))}${stat(
        'Orders, last 30 days',
        month.orders.toLocaleString('en'),
      )}${stat('Sales, last 30 days', money(month.sales))}
    </div>
    <p class="muted" style="margin-top:-8px">Sales are payments taken less refunds given, on the day each happened.</p>
    <h2>To fulfil</h2>
    ${
      toFulfil
        ? html`<div class="card actions">
            <strong>${toFulfil >= TO_FULFIL_CAP ? `${(TO_FULFIL_CAP - 1).toLocaleString('en')}+` : toFulfil.toLocaleString('en')}
              ${toFulfil === 1 ? 'order has' : 'orders have'} units to ship.</strong>
            <a class="button" href="${withQuery(ordersPath, toFulfilQuery)}">Fulfil orders</a>
          </div>`
        : emptyState('Nothing to ship: every open order is fulfilled.', { href: ordersPath, label: 'See orders' })
    }
    <h2>Low stock</h2>
    ${table({
      label: `Variants with ${LOW_STOCK} or fewer for sale`,
      headings: ['Product', 'Location', 'Available'],
      rows: low.map((l) => [
        html`${link(storePath(store, `/products/${l.product_id}`), l.product_title)}${
          l.variant_title && l.variant_title !== 'Default' ? html` <span class="muted">· ${l.variant_title}</span>` : null
        }${l.sku ? html`<br><span class="muted">SKU ${l.sku}</span>` : null}`,
        l.location_name,
        String(l.available),
      ]),
      empty: `No tracked variant has ${LOW_STOCK} or fewer for sale.`,
    })}
    <h2>Your shop</h2>
    ${facts([
      ['Address', link(shop, shop)],
      [
        'Live theme',
        theme ? `${theme.slug} ${theme.version}` : html`None yet: install a theme to open the shop. ${link(freeThemesPath(s), 'Install a free theme')}`,
      ],
      ['Currency', store.currency],
    ])}`;
  s.render(storePage(s, 'home', { title: 'Home', body }));
}
