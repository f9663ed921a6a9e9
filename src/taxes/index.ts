import type { Module } from '../module.js';
import { TAXES_ERROR_CODES } from './errors.js';
import { TAXES_EVENT_TYPES } from './events.js';
import { taxRoutes } from './routes.js';
import { TAX_SETTINGS, taxIndexes } from './models.js';
export { getTaxSettings, MAX_TAX_RATES, putTaxSettings, rateFor, taxOn, TaxSettingsBody, type TaxSettingsView } from './service.js';

/** The store's tax rates: /v1/taxes. */
export const taxesModule: Module = {
  name: 'taxes',
  errorCodes: TAXES_ERROR_CODES,
  indexes: taxIndexes,
  routes: [{ path: '/v1/taxes', router: taxRoutes }],
  eventCarriers: [TAX_SETTINGS],
  eventTypes: TAXES_EVENT_TYPES,
};
