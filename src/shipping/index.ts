import type { Module } from '../module.js';
import { SHIPPING_ERROR_CODES } from './errors.js';
import { SHIPPING_EVENT_TYPES } from './events.js';
import { shippingRoutes } from './routes.js';
import { SHIPPING_SETTINGS, shippingIndexes } from './models.js';
export {
  getShippingSettings,
  MAX_SHIPPING_RATES,
  putShippingSettings,
  shippingOptionsFor,
  ShippingCode,
  ShippingSettingsBody,
  type ShippingOption,
  type ShippingSettingsView,
} from './service.js';

/** The store's shipping rates: /v1/shipping; storefront checkout offers and charges them. */
export const shippingModule: Module = {
  name: 'shipping',
  errorCodes: SHIPPING_ERROR_CODES,
  indexes: shippingIndexes,
  routes: [{ path: '/v1/shipping', router: shippingRoutes }],
  eventCarriers: [SHIPPING_SETTINGS],
  eventTypes: SHIPPING_EVENT_TYPES,
};
