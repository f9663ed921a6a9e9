import { z } from 'zod';
import { IdString } from '../ids.js';
import type { Platform } from '../platform.js';
import { defineJob, defineSweep } from '../queue.js';

/**
 * The messages domain's jobs (handlers: jobs/messages.ts). Outbound merchant messages go out
 * from the webhooks group (the process that talks to the outside world). Job names are a public
 * contract: never rename them.
 */
export const DeliverMessage = defineJob({
  name: 'messages.deliver',
  group: 'webhooks',
  concurrency: 10,
  payload: z.object({ message_id: IdString('message') }),
});
/** Removes messages past their expiry. */
export const SweepOutboundMessages = defineSweep('maintenance.sweep-outbound-messages');
/** Queued messages whose delivery job was lost: enqueued again. */
export const RedispatchStrandedMessages = defineSweep('maintenance.redispatch-stranded-messages');

export const messageJobs = [DeliverMessage, SweepOutboundMessages, RedispatchStrandedMessages];

export function enqueueMessageDelivery(platform: Pick<Platform, 'jobs'>, messageId: string, at?: Date): Promise<string> {
  return platform.jobs.enqueue(DeliverMessage, { message_id: messageId }, at ? { at } : {});
}
