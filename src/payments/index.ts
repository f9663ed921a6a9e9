import type { Module } from '../module.js';
import { PAYMENTS_ERROR_CODES } from './errors.js';
import { PAYMENTS_EVENT_TYPES } from './events.js';
import { paymentRoutes } from './routes.js';
import { PAYMENT_PROVIDERS, paymentIndexes } from './models.js';
export { recordPaymentTransaction } from './transactions.js';
export { enabledPaymentMethods, listProviderSettings, transactionsOfOrders, updateProviderSettings } from './service.js';
export { GATEWAYS, providerConfig, type Gateway } from './gateways.js';
export {
  madeSessions,
  openPaymentSession,
  recordSessionPayment,
  requireSignedPayment,
  sandboxPayment,
  type PaymentSessionDocument,
  type PaymentSessionKind,
} from './sessions.js';
export { PROVIDERS, type Provider } from './models.js';
export type { PaymentTransactionView, ProviderSettingsView } from './present.js';
export type { RecordTransactionInput } from './schemas.js';

/** Payment providers and transactions: /v1/payments. */
export const paymentsModule: Module = {
  name: 'payments',
  errorCodes: PAYMENTS_ERROR_CODES,
  indexes: paymentIndexes,
  routes: [{ path: '/v1/payments', router: paymentRoutes }],
  eventCarriers: [PAYMENT_PROVIDERS],
  eventTypes: PAYMENTS_EVENT_TYPES,
};
