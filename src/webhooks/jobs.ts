import { z } from 'zod';
import { IdString } from '../ids.js';
import type { Platform } from '../platform.js';
import { defineBackstop, defineJob } from '../queue.js';

/** The webhooks domain's jobs (handlers: jobs/webhooks.ts). Job names are a public contract: never rename them. */
export const FanOutEvent = defineJob({
  name: 'webhooks.fan-out-event',
  group: 'webhooks',
  concurrency: 10,
  payload: z.object({ event_id: IdString('event') }),
});
export const DispatchDelivery = defineJob({
  name: 'webhooks.dispatch-delivery',
  group: 'webhooks',
  concurrency: 20,
  payload: z.object({ delivery_id: IdString('delivery') }),
});
/** The backstop: events not fanned out, catch-up windows, deliveries whose job or wake-up was lost. */
export const SweepWebhooks = defineBackstop('webhooks.sweep', 'webhooks', (config) => config.webhooks.sweepIntervalMs);

export const webhookJobs = [FanOutEvent, DispatchDelivery, SweepWebhooks];

export async function enqueueFanOut(platform: Pick<Platform, 'jobs'>, eventId: string): Promise<void> {
  await platform.jobs.enqueue(FanOutEvent, { event_id: eventId });
}

export async function scheduleDispatch(platform: Pick<Platform, 'jobs'>, deliveryId: string, at: Date): Promise<void> {
  await platform.jobs.enqueue(DispatchDelivery, { delivery_id: deliveryId }, { at });
}
