import type { Module } from '../module.js';
import { messageJobs } from './jobs.js';
import { messageIndexes } from './store.js';
export { sendMessage, deliverMessage, redispatchStrandedMessages, sweepExpiredMessages, readOutbox, type OutboxEntry } from './service.js';
export { DELIVER_MESSAGE, DeliverMessagePayload } from './jobs.js';

/** Merchant email (sign-in codes, reset tokens, sign-up notices): an encrypted outbox delivered by a job. */
export const messagesModule: Module = { name: 'messages', indexes: messageIndexes, jobs: messageJobs };
