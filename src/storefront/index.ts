import type { Module } from '../module.js';
import { STOREFRONT_ERROR_CODES } from './errors.js';
import { STOREFRONT_EVENT_TYPES } from './events.js';
import { storefrontJobs } from './jobs.js';
import { storefrontRoutes } from './routes.js';
import { CARTS, cartIndexes, paymentIndexes } from './models.js';
export {
  checkoutDetails,
  createCart,
  loadPricedCart,
  saveCheckoutDetails,
  sweepExpiredCarts,
  updateCart,
  type CartLineProblem,
  type PricedCart,
  type PricedCartLine,
  type PricedCoupon,
} from './carts.js';
export { checkout, finishStrandedCheckouts } from './checkout.js';
export { checkoutOffer, type CheckoutOffer } from './checkout-options.js';
export { createPaymentOrder, simulateSandboxPayment, verifyPayment } from './payments.js';
export { FinishCheckouts, SweepCarts } from './jobs.js';
export {
  browsePublicProducts,
  findPublicCollection,
  firstProductImages,
  getPublicProduct,
  listPublicCollections,
  listPublicProducts,
  storefrontStore,
  subdomainOfHost,
  type PublicCollectionWithProducts,
} from './reads.js';
export { presentCart, presentPublicCollection, type PublicImage, type PublicProductView } from './present.js';
export type { CheckoutDetails } from './models.js';
export { CART_TOKEN_HEADER, CheckoutBody, MAX_LINE_QUANTITY, type CartChanges } from './schemas.js';
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
