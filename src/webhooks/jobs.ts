import { z } from 'zod';
import { IdString } from '../ids.js';
import type { JobContract } from '../module.js';
import type { Platform } from '../platform.js';

/** Job names are a public contract: never rename them. */
export const FAN_OUT_EVENT = 'webhooks.fan-out-event';
export const DISPATCH_DELIVERY = 'webhooks.dispatch-delivery';
export const SWEEP = 'webhooks.sweep';

export const FanOutPayload = z.object({ event_id: IdString() });
export const DispatchPayload = z.object({ delivery_id: IdString() });

/** The webhooks worker group runs these (handlers: jobs/webhooks.ts). */
export const webhookJobs: readonly JobContract[] = [
  { name: FAN_OUT_EVENT, group: 'webhooks', concurrency: 10 },
  { name: DISPATCH_DELIVERY, group: 'webhooks', concurrency: 20 },
  // The backstop: events not fanned out, catch-up windows, deliveries whose job or wake-up was lost.
  { name: SWEEP, group: 'webhooks', concurrency: 1, everyMs: (platform) => platform.config.webhooks.sweepIntervalMs },
];

export async function enqueueFanOut(platform: Pick<Platform, 'jobs'>, eventId: string): Promise<void> {
  await platform.jobs.enqueue(FAN_OUT_EVENT, { event_id: eventId });
}

export async function scheduleDispatch(platform: Pick<Platform, 'jobs'>, deliveryId: string, at: Date): Promise<void> {
  await platform.jobs.agenda.schedule(at, DISPATCH_DELIVERY, { delivery_id: deliveryId });
}
