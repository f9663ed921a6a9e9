export { sendMessage, deliverMessage, redispatchStrandedMessages, sweepExpiredMessages, readOutbox, type OutboxEntry } from './service.js';
export { DELIVER_MESSAGE, DeliverMessagePayload } from './jobs.js';
export { messageIndexes } from './store.js';
