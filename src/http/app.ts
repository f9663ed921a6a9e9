import Koa from 'koa';
import Router from '@koa/router';
import { authRoutes } from '../auth/routes.js';
import { collectionRoutes, productRoutes } from '../catalog/routes.js';
import { inventoryRoutes } from '../inventory/routes.js';
import { orderRoutes } from '../orders/routes.js';
import { taxRoutes } from '../taxes/routes.js';
import { webhookDeliveryRoutes } from '../webhooks/delivery-routes.js';
import { customerRoutes } from '../customers/routes.js';
import { formSubmissionRoutes, storefrontFormRoutes } from '../forms/routes.js';
import { PlatformError } from '../errors.js';
import { healthRoutes } from '../health/routes.js';
import { MEDIA_MULTIPART_ROUTES, mediaRoutes } from '../media/routes.js';
import { paymentRoutes } from '../payments/routes.js';
import { reviewRoutes } from '../reviews/routes.js';
import type { Platform } from '../platform.js';
import { couponRoutes } from '../coupons/routes.js';
import { giftCardRoutes } from '../giftcards/routes.js';
import { storeRoutes } from '../stores/routes.js';
import { webhookSubscriptionRoutes } from '../webhooks/subscription-routes.js';
import { jsonBody } from './body.js';
import type { AppState } from './context.js';
import { errorEnvelope } from './errors.js';
import { requestId } from './request-id.js';
import { requestLog } from './request-log.js';

/**
 * The gateway mounts of spec 4.1, in order: routers that share a prefix are tried in this
 * order, so a narrower mount (`/products/gift-cards`) comes before the one it sits under
 * (`/products`, whose `/:id` would also match). Areas whose issue has not landed yet have no
 * routes, so every path under them is a JSON 404.
 */
function v1Routes(platform: Platform): Router<AppState> {
  const mounts: [string, Router<AppState> | null][] = [
    ['/auth', authRoutes(platform)],
    ['/stores', storeRoutes(platform)],
    ['/storefront', storefrontFormRoutes(platform)],
    ['/products/collections', collectionRoutes(platform)],
    ['/products/gift-cards', giftCardRoutes(platform)],
    ['/products', productRoutes(platform)],
    ['/inventory', inventoryRoutes(platform)],
    ['/coupons', couponRoutes(platform)],
    ['/customers', customerRoutes(platform)],
    ['/form-submissions', formSubmissionRoutes(platform)],
    ['/orders', orderRoutes(platform)],
    ['/taxes', taxRoutes(platform)],
    ['/payments', paymentRoutes(platform)],
    ['/media', mediaRoutes(platform)],
    ['/reviews', reviewRoutes(platform)],
    ['/themes', null],
    ['/app-store', null],
    ['/operations/webhook-subscriptions', webhookSubscriptionRoutes(platform)],
    ['/operations/webhook-deliveries', webhookDeliveryRoutes(platform)],
    ['/operations', null],
  ];
  const v1 = new Router<AppState>({ prefix: '/v1' });
  for (const [prefix, router] of mounts) {
    if (router) v1.use(prefix, router.routes(), router.allowedMethods());
  }
  return v1;
}

/**
 * Runs after the routers: an unmatched path (404) and a known path with a wrong method
 * (405 or 501 from allowedMethods, which has already set `Allow`) become error envelopes.
 */
const unmatched: Koa.Middleware<AppState> = async (ctx, next) => {
  await next();
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) throw new PlatformError('not_found', 'route_not_found', `No route for ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405 || ctx.status === 501) {
    throw new PlatformError('method_not_allowed', 'method_not_allowed', `${ctx.path} does not accept ${ctx.method}`);
  }
};

/** The web application. It never listens: web.ts (and the tests) do. */
export function createApp(platform: Platform): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: platform.config.http.trustProxy });
  app.silent = true; // errors are logged by errorEnvelope, once
  const health = healthRoutes(platform);
  const v1 = v1Routes(platform);

  app.use(requestId());
  app.use(requestLog(platform.log));
  app.use(errorEnvelope(platform.log));
  app.use(unmatched);
  for (const mw of jsonBody(platform.config.http.bodyLimitBytes, MEDIA_MULTIPART_ROUTES)) app.use(mw);
  app.use(health.routes());
  app.use(health.allowedMethods());
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}
