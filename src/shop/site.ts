import Router from '@koa/router';
import { BLOG_HANDLE } from '../content/index.js';
import { PlatformError } from '../errors.js';
import type { HostSite } from '../http/app.js';
import type { AppContext, AppCustom, AppState } from '../http/context.js';
import { STATUS, toPlatformError } from '../http/errors.js';
import type { Platform } from '../platform.js';
import { storefrontStore, subdomainOfHost } from '../storefront/index.js';
import type { StoreView } from '../stores/index.js';
import { accountPage, logIn, loginForm, logOut, register, registerForm } from './account.js';
import { addToCart, applyCoupon, changeCartLine } from './cart.js';
import { checkoutInformation, checkoutShipping, confirmationPage, pay, paymentPage, placeOrder, submitInformation } from './checkout.js';
import { pathParam, shopOf, type Shop } from './context.js';
import { errorPage } from './layout.js';
import { themePage } from './theme-pages.js';

type Handler = (platform: Platform, ctx: AppContext, shop: Shop) => Promise<void>;

const HANDLE = /^[\p{L}\p{N}_-]{1,255}$/u;

/** A handle from the path, or a 404 for one no product, collection or page can have. */
function handleOf(ctx: AppContext): string {
  const handle = pathParam(ctx, 'handle');
  if (!HANDLE.test(handle)) throw new PlatformError('not_found', 'not_found', 'Nothing here');
  return handle;
}

/** The shop's paths (docs/shop.md, Paths), each a theme page or one of the shop's own. */
function shopRouter(platform: Platform, storeOf: (ctx: AppContext) => StoreView): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  const get = (path: string, handler: Handler) => router.get(path, (ctx) => run(ctx, handler));
  const post = (path: string, handler: Handler) => router.post(path, (ctx) => run(ctx, handler));
  const run = async (ctx: AppContext, handler: Handler) => {
    await handler(platform, ctx, await shopOf(platform, ctx, storeOf(ctx)));
  };
  get('/', (p, ctx, shop) => themePage(p, ctx, shop, { template: 'home' }));
  get('/products/:handle', (p, ctx, shop) => themePage(p, ctx, shop, { template: 'product', handle: handleOf(ctx) }));
  get('/collections/:handle', (p, ctx, shop) => themePage(p, ctx, shop, { template: 'collection', handle: handleOf(ctx) }));
  get('/collections', (_p, ctx) => Promise.resolve(redirect(ctx, '/collections/all')));
  get('/search', (p, ctx, shop) => {
    const q = typeof ctx.query.q === 'string' ? ctx.query.q.trim().slice(0, 255) : '';
    return themePage(p, ctx, shop, { template: 'collection', search: q });
  });
  get('/pages/:handle', (p, ctx, shop) => themePage(p, ctx, shop, { template: 'page', handle: handleOf(ctx) }));
  get('/blogs/:handle', (p, ctx, shop) => {
    if (handleOf(ctx) !== BLOG_HANDLE) throw new PlatformError('not_found', 'not_found', 'Nothing here');
    return themePage(p, ctx, shop, { template: 'blog', handle: BLOG_HANDLE });
  });
  get('/cart', (p, ctx, shop) => themePage(p, ctx, shop, { template: 'cart' }));
  post('/cart/add', addToCart);
  post('/cart/change', changeCartLine);
  post('/cart/coupon', applyCoupon);
  get('/checkout', checkoutInformation);
  post('/checkout/information', submitInformation);
  get('/checkout/shipping', checkoutShipping);
  post('/checkout/place', placeOrder);
  get('/checkout/orders/:id/payment', paymentPage);
  post('/checkout/orders/:id/pay', pay);
  get('/checkout/orders/:id', confirmationPage);
  get('/account', accountPage);
  get('/account/login', loginForm);
  post('/account/login', logIn);
  get('/account/register', registerForm);
  post('/account/register', register);
  post('/account/logout', logOut);
  return router;
}

function redirect(ctx: AppContext, to: string): void {
  ctx.redirect(to);
  ctx.status = 301;
}

/** Whether a path stays the API's on a store's host: `/v1/…` (theme assets, product images, the storefront API from a theme's script). */
const apiPath = (path: string) => path === '/v1' || path.startsWith('/v1/');

/**
 * The shop (docs/shop.md): requests for `<subdomain>.<STOREFRONT_BASE_DOMAIN>` other than `/v1/…`.
 * Every answer is HTML: an error is the shop's error page with its status (a 500 is logged with
 * its request id, which the page shows), never the API's JSON envelope.
 */
export function shopSite(platform: Platform): HostSite {
  // The store each request is for, found before its route runs.
  const stores = new WeakMap<AppContext, StoreView>();
  const router = shopRouter(platform, (ctx) => stores.get(ctx)!);
  const routes = router.routes();
  const baseDomain = platform.config.storefront.baseDomain;
  return {
    claims: (ctx) => !apiPath(ctx.path) && subdomainOfHost(baseDomain, ctx.host) !== null,
    handle: async (ctx) => {
      let store: StoreView | null = null;
      try {
        store = await storefrontStore(platform, subdomainOfHost(baseDomain, ctx.host)!);
        stores.set(ctx, store);
        await routes(ctx as Parameters<typeof routes>[0], async () => {});
        if (ctx.body === undefined || ctx.body === null) {
          if (ctx.status === 304 || (ctx.status >= 300 && ctx.status < 400)) return;
          const matched = router.match(ctx.path, ctx.method);
          if (matched.path.length > 0 && !matched.route)
            throw new PlatformError('method_not_allowed', 'method_not_allowed', `${ctx.path} does not accept ${ctx.method}`);
          throw new PlatformError('not_found', 'route_not_found', 'There is no page at this address');
        }
      } catch (raw) {
        const err = toPlatformError(raw);
        const status = err ? STATUS[err.kind] : 500;
        if (!err) platform.log.error({ event: 'shop.unhandled_error', request_id: ctx.state.requestId, err: raw }, 'unhandled error');
        if (err?.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
        const message = err
          ? status === 404
            ? store
              ? 'The page you were looking for does not exist, or it is no longer for sale.'
              : 'There is no store at this address.'
            : err.message
          : `Something went wrong on our side (reference ${ctx.state.requestId}). Please try again.`;
        ctx.status = status;
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'no-store');
        ctx.body = errorPage(store?.name ?? null, status, message);
      }
    },
  };
}
