export { sweepExpiredIdempotencyRecords } from './service.js';
export { idempotencyIndexes } from './store.js';
export { idempotent } from './middleware.js';
