export { authenticateSession, sweepExpiredCredentials } from './service.js';
export type { MerchantView, SessionView } from './present.js';
export { authIndexes } from './store.js';
