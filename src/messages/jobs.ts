import { z } from 'zod';
import type { Platform } from '../platform.js';

/** Job names are a public contract: never rename them. */
export const DELIVER_MESSAGE = 'messages.deliver';

export const DeliverMessagePayload = z.object({ message_id: z.string().regex(/^[0-9a-f]{24}$/) });
export type DeliverMessagePayload = z.infer<typeof DeliverMessagePayload>;

export function enqueueMessageDelivery(platform: Pick<Platform, 'jobs'>, messageId: string): Promise<string> {
  return platform.jobs.enqueue(DELIVER_MESSAGE, { message_id: messageId } satisfies DeliverMessagePayload);
}

export async function scheduleMessageDelivery(platform: Pick<Platform, 'jobs'>, messageId: string, at: Date): Promise<void> {
  await platform.jobs.agenda.schedule(at, DELIVER_MESSAGE, { message_id: messageId } satisfies DeliverMessagePayload);
}
