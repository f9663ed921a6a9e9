import type { Module } from '../module.js';
import { messageJobs } from './jobs.js';
import { messageIndexes, messagesOverview } from './models.js';
import { closeSmtp } from './smtp.js';
export { messagesOverview } from './models.js';
export { sendMessage, DeliverMessage, redispatchStrandedMessages, readOutbox, latestOutbox, type OutboxEntry, type OutgoingMessage } from './service.js';

/** Email to merchants, partners and storefront customers (sign-in codes, reset and activation tokens, sign-up notices, webhook health notices): an encrypted outbox delivered by a job. */
export const messagesModule: Module = {
  name: 'messages',
  indexes: messageIndexes,
  jobs: messageJobs,
  overview: (platform) => messagesOverview(platform.db, platform.clock.now()),
  close: () => closeSmtp(),
};
