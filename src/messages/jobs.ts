import { z } from 'zod';
import { IdString } from '../ids.js';
import type { JobContract } from '../module.js';
import type { Platform } from '../platform.js';

/** Job names are a public contract: never rename them. */
export const DELIVER_MESSAGE = 'messages.deliver';

export const DeliverMessagePayload = z.object({ message_id: IdString() });
export type DeliverMessagePayload = z.infer<typeof DeliverMessagePayload>;

/** Outbound merchant messages go out from the webhooks group (the process that talks to the outside world). */
export const messageJobs: readonly JobContract[] = [{ name: DELIVER_MESSAGE, group: 'webhooks', concurrency: 10 }];

export function enqueueMessageDelivery(platform: Pick<Platform, 'jobs'>, messageId: string): Promise<string> {
  return platform.jobs.enqueue(DELIVER_MESSAGE, { message_id: messageId } satisfies DeliverMessagePayload);
}

export async function scheduleMessageDelivery(platform: Pick<Platform, 'jobs'>, messageId: string, at: Date): Promise<void> {
  await platform.jobs.agenda.schedule(at, DELIVER_MESSAGE, { message_id: messageId } satisfies DeliverMessagePayload);
}
