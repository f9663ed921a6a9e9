import type { Module } from '../module.js';
import { STOREFRONT_ERROR_CODES } from './errors.js';
import { STOREFRONT_EVENT_TYPES } from './events.js';
import { storefrontJobs } from './jobs.js';
import { storefrontRoutes } from './routes.js';
import { CARTS, cartIndexes, paymentIndexes } from './store.js';
export { loadPricedCart, sweepExpiredCarts, type CartLineProblem, type PricedCart, type PricedCartLine, type PricedCoupon } from './carts.js';
export { finishStrandedCheckouts } from './checkout.js';
export { FinishCheckouts, SweepCarts } from './jobs.js';
export {
  findPublicCollection,
  getPublicProduct,
  listPublicCollections,
  listPublicProducts,
  storefrontStore,
  type PublicCollectionWithProducts,
} from './reads.js';
export { presentCart, type PublicProductView } from './present.js';
export { CART_TOKEN_HEADER } from './schemas.js';
export type { CartView } from './present.js';

/**
 * The storefront runtime (docs/storefront.md): /v1/storefront, public reads and persisted
 * carts of a store named by its subdomain, and its form submissions (served through the
 * forms module). Customer accounts mount /v1/storefront/customer on their own.
 */
export const storefrontModule: Module = {
  name: 'storefront',
  errorCodes: STOREFRONT_ERROR_CODES,
  indexes: [...cartIndexes, ...paymentIndexes],
  routes: [{ path: '/v1/storefront', router: storefrontRoutes }],
  jobs: storefrontJobs,
  eventCarriers: [CARTS],
  eventTypes: STOREFRONT_EVENT_TYPES,
};
