import { adminModule } from './admin/index.js';
import { appExists, appsModule } from './apps/index.js';
import { authModule } from './auth/index.js';
import { catalogModule } from './catalog/index.js';
import { consoleModule } from './console/index.js';
import { contentModule } from './content/index.js';
import { couponsModule } from './coupons/index.js';
import { customersModule } from './customers/index.js';
import { formsModule } from './forms/index.js';
import { giftCardsModule } from './giftcards/index.js';
import { graphqlModule } from './graphql/index.js';
import { healthModule } from './health/index.js';
import { referenceModule } from './reference/index.js';
import { inventoryModule } from './inventory/index.js';
import { maintenanceModule } from './maintenance/index.js';
import { mediaModule } from './media/index.js';
import { messagesModule } from './messages/index.js';
import { operationsModule } from './operations/index.js';
import type { Module } from './module.js';
import { guestOrderLinks, ordersModule } from './orders/index.js';
import { paymentsModule } from './payments/index.js';
import { rateLimitModule } from './ratelimit/index.js';
import { checkAppBlockRendering, renderingModule } from './rendering/index.js';
import { shopModule } from './shop/index.js';
import { securityModule } from './security/index.js';
import { productReviewsModule } from './product-reviews/index.js';
import { shippingModule } from './shipping/index.js';
import { storefrontModule } from './storefront/index.js';
import { storesModule } from './stores/index.js';
import { taxesModule } from './taxes/index.js';
import { themesModule } from './themes/index.js';
import { webhooksModule } from './webhooks/index.js';
import { notificationsModule, type LatestOrder } from './notifications/index.js';
import { ListOrdersQuery, listOrders } from './orders/index.js';

/**
 * The platform's modules: the table of contents. The composition root (src/boot.ts), the web
 * and internal apps and the workers (jobs/index.ts) read only this list. Adding a domain is its
 * folder and one line here. A module that needs what its domain may not import (a domain above
 * it, this list) is a factory given it here: the one place where such bindings are made.
 */
/** A store's latest order, for the notifications' previews (the orders domain is above the notifications one, which customers' emails use). */
const latestOrder: LatestOrder = async (platform, storeId) =>
  (await listOrders(platform, storeId, ListOrdersQuery.parse({ limit: 1, order: 'newest' }))).items[0] ?? null;

export const MODULES: readonly Module[] = [
  healthModule,
  referenceModule,
  authModule,
  storesModule,
  catalogModule,
  contentModule,
  giftCardsModule,
  inventoryModule,
  couponsModule,
  customersModule({ guestOrders: guestOrderLinks }),
  formsModule,
  storefrontModule,
  ordersModule,
  taxesModule,
  shippingModule,
  paymentsModule,
  mediaModule,
  productReviewsModule,
  appsModule({ checkAppBlock: checkAppBlockRendering }),
  themesModule,
  renderingModule,
  shopModule,
  graphqlModule,
  webhooksModule,
  messagesModule,
  notificationsModule(latestOrder),
  rateLimitModule,
  maintenanceModule,
  securityModule({ appExists }),
  operationsModule(() => MODULES),
  consoleModule(() => MODULES),
  adminModule,
];
