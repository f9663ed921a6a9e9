export { getTaxSettings, rateFor, taxOn, type TaxSettingsView } from './service.js';
export { taxIndexes } from './store.js';
