export { recordPaymentTransaction } from './service.js';
export type { PaymentTransactionView, ProviderSettingsView } from './present.js';
export type { RecordTransactionInput } from './schemas.js';
export { paymentIndexes } from './store.js';
