export { sweepExpiredIdempotencyRecords } from './service.js';
export { idempotencyIndexes } from './models.js';
export { idempotent } from './middleware.js';
