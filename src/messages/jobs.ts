import { defineSweep } from '../job.js';
import { DeliverMessage, redispatchStrandedMessages, sweepExpiredMessages } from './service.js';

/** Removes messages past their expiry. */
export const SweepOutboundMessages = defineSweep('maintenance.sweep-outbound-messages', sweepExpiredMessages);
/** Queued messages whose delivery job was lost: enqueued again. */
export const RedispatchStrandedMessages = defineSweep('maintenance.redispatch-stranded-messages', redispatchStrandedMessages);

/** The messages domain's jobs: its sweeps here, and `messages.deliver` beside the delivery it runs (service.ts). */
export const messageJobs = [DeliverMessage, SweepOutboundMessages, RedispatchStrandedMessages];
