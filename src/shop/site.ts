import { BLOG_HANDLE } from '../content/index.js';
import { PlatformError } from '../errors.js';
import type { HostSite } from '../http/app.js';
import type { AppContext } from '../http/context.js';
import { toPlatformError } from '../http/errors.js';
import { problemOf, setProblemHeaders } from '../http/page-errors.js';
import { sendPage } from '../http/page.js';
import { pages } from '../http/pages.js';
import type { Platform } from '../platform.js';
import { storefrontStore, subdomainOfHost } from '../storefront/index.js';
import type { StoreView } from '../stores/index.js';
import { accountPage, activate, activateForm, logIn, loginForm, logOut, register, registerForm } from './account.js';
import { addToCart, applyCoupon, changeCartLine } from './cart.js';
import { contact } from './contact.js';
import {
  addressFormatJson,
  checkoutInformation,
  checkoutShipping,
  confirmationPage,
  pay,
  paymentPage,
  placeOrder,
  submitInformation,
} from './checkout/handlers.js';
import { shopForms, shopVisitor, shopVisitorOf, type ShopPage } from './context.js';
import { shopErrorPage } from './layout.js';
import { themePage } from './theme-pages.js';
import { LISTING_PARAMS, type ListingQuery } from '../rendering/index.js';

const HANDLE = /^[\p{L}\p{N}_-]{1,255}$/u;

/** A handle from the path, or a 404 for one no product, collection or page can have. */
function handleOf(handle: string): string {
  if (!HANDLE.test(handle)) throw new PlatformError('not_found', 'not_found', 'Nothing here');
  return handle;
}

/**
 * The shop's pages (docs/shop.md, Paths): the theme's pages and the shop's own, any visitor's,
 * every form bound to this browser's cart and session; the list owns the host, so any other path
 * is a 404 page.
 */
function shopPages(platform: Platform, storeOf: (ctx: AppContext) => StoreView | undefined) {
  const store = (ctx: AppContext) => storeOf(ctx)!;
  const on = pages(platform, {
    name: 'shop',
    access: shopVisitor(store),
    csrf: shopForms,
    errorPage: (problem, ctx) => shopErrorPage(storeOf(ctx)?.name ?? null, problem, shopVisitorOf(ctx)),
    ownsMount: true,
  });
  on.get('/', (p) => themePage(p, { template: 'home' }));
  on.get('/favicon.ico', favicon);
  on.get(
    '/products/:handle',
    inTheme((p) => {
      const variant = firstOf(p.ctx.query.variant);
      return themePage(p, { template: 'product', handle: handleOf(p.params.handle), ...(variant ? { variant: variant.slice(0, 64) } : {}) });
    }),
  );
  on.get(
    '/collections/:handle',
    inTheme((p) => themePage(p, { template: 'collection', handle: handleOf(p.params.handle), listing: listingQuery(p) })),
  );
  on.get('/collections', (p) => permanently(p, '/collections/all'));
  on.get('/search', (p) => {
    const q = typeof p.ctx.query.q === 'string' ? p.ctx.query.q.trim().slice(0, 255) : '';
    return themePage(p, { template: 'collection', search: q, listing: listingQuery(p) });
  });
  on.get(
    '/pages/:handle',
    inTheme((p) => themePage(p, { template: 'page', handle: handleOf(p.params.handle) })),
  );
  on.get(
    '/blogs/:handle',
    inTheme((p) => {
      if (handleOf(p.params.handle) !== BLOG_HANDLE) throw new PlatformError('not_found', 'not_found', 'Nothing here');
      return themePage(p, { template: 'blog', handle: BLOG_HANDLE });
    }),
  );
  on.get('/cart', (p) => themePage(p, { template: 'cart' }));
  on.post('/cart/add', addToCart);
  on.post('/cart/change', changeCartLine);
  on.post('/cart/coupon', applyCoupon);
  on.post('/contact', contact);
  on.get('/checkout', checkoutInformation);
  on.post('/checkout/information', submitInformation);
  on.get('/checkout/address-format/:country', (p) => addressFormatJson(p, p.params.country));
  on.get('/checkout/shipping', checkoutShipping);
  on.post('/checkout/place', placeOrder);
  on.get('/checkout/orders/:id/payment', (p) => paymentPage(p, p.params.id));
  on.post('/checkout/orders/:id/pay', (p) => pay(p, p.params.id));
  on.get('/checkout/orders/:id', (p) => confirmationPage(p, p.params.id));
  on.get('/account', accountPage);
  on.get('/account/login', loginForm);
  on.post('/account/login', logIn);
  on.get('/account/register', registerForm);
  on.post('/account/register', register);
  on.post('/account/logout', logOut);
  on.get('/account/activate', activateForm);
  on.post('/account/activate', activate);
  // Any other path: the 404 in the theme (declared last; the list's own 404 page when the store has no live theme).
  on.get(
    '/{*rest}',
    inTheme(() => {
      throw new PlatformError('not_found', 'route_not_found', 'There is no page at this address');
    }),
  );
  return on.router;
}

/**
 * A page whose not-found (an unknown product, collection, page or path) is the 404 in the live
 * theme's layout (docs/shop.md, "Not found"): status 404, the theme's header, menu and footer
 * around the platform's not-found body. Without a live theme, and for every other error, the
 * shop's own error page.
 */
const inTheme =
  <P>(run: (p: ShopPage<P>) => Promise<void> | void) =>
  async (p: ShopPage<P>): Promise<void> => {
    try {
      await run(p);
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind !== 'not_found' || !p.viewer.theme) throw err;
      await themePage(p, { template: '404' });
    }
  };

/**
 * GET /favicon.ico: the live theme's favicon (its `favicon` setting, else its `assets/favicon.*`;
 * docs/themes.md), whatever its type, for browsers that ask before reading a page; an empty 404
 * (never a page) when the store's theme has none.
 */
function favicon(p: ShopPage): void {
  const { ctx, viewer } = p;
  const found = viewer.look.favicon;
  const asset = found && viewer.theme?.bundle.renderer.assets.find((a) => a.path === found.path);
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (!asset || asset.content === undefined) {
    ctx.body = '';
    ctx.status = 404;
    return;
  }
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  ctx.type = asset.content_type;
  ctx.body = asset.content;
  ctx.status = 200;
}

/** A query parameter's first value, if it has one. */
const firstOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** A collection or search page's listing parameters (src/rendering/listing.ts): each its first value, at most 64 characters. */
function listingQuery(p: ShopPage): ListingQuery {
  const out: ListingQuery = {};
  for (const name of LISTING_PARAMS) {
    const v = firstOf(p.ctx.query[name]);
    if (v !== undefined) out[name] = v.slice(0, 64);
  }
  return out;
}

function permanently(p: ShopPage, to: string): void {
  p.ctx.redirect(to);
  p.ctx.status = 301;
}

/** Whether a path stays the API's on a store's host: `/v1/…` (theme assets, product images, the storefront API from a theme's script). */
const apiPath = (path: string) => path === '/v1' || path.startsWith('/v1/');

/**
 * The shop (docs/shop.md): requests for `<subdomain>.<STOREFRONT_BASE_DOMAIN>` other than `/v1/…`,
 * answered by the shop's page list. Every answer is HTML: an error is the shop's error page with
 * its status (a 500 is logged with its request id, which the page shows), never the API's JSON
 * envelope; a host naming no store is a 404 page, a method no page takes a 405 page.
 */
export function shopSite(platform: Platform): HostSite {
  // The store each request is for, found before its page runs.
  const stores = new WeakMap<AppContext, StoreView>();
  const router = shopPages(platform, (ctx) => stores.get(ctx));
  const routes = router.routes();
  const baseDomain = platform.config.storefront.baseDomain;
  const refuse = (ctx: AppContext, err: unknown) => {
    if (!toPlatformError(err)) platform.log.error({ event: 'pages.unhandled_error', pages: 'shop', request_id: ctx.state.requestId, err }, 'unhandled error');
    setProblemHeaders(ctx, err);
    const problem = problemOf(err, ctx.state.requestId);
    sendPage(ctx, problem.status, shopErrorPage(stores.get(ctx)?.name ?? null, problem, shopVisitorOf(ctx)));
  };
  return {
    claims: (ctx) => !apiPath(ctx.path) && subdomainOfHost(baseDomain, ctx.host) !== null,
    handle: async (ctx) => {
      try {
        stores.set(ctx, await storefrontStore(platform, subdomainOfHost(baseDomain, ctx.host)!));
      } catch (err) {
        return refuse(ctx, err);
      }
      await routes(ctx as Parameters<typeof routes>[0], async () => {});
      if (ctx.body !== undefined && ctx.body !== null) return;
      if (ctx.status >= 300 && ctx.status < 400) return;
      // The pages (an unknown path's 404 included) take GET and POST: another method (PUT, DELETE, …) reaches none.
      refuse(
        ctx,
        new PlatformError('method_not_allowed', 'method_not_allowed', `${ctx.path} does not accept ${ctx.method}`, { headers: { Allow: 'GET, HEAD, POST' } }),
      );
    },
  };
}
