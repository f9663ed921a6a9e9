import { z } from 'zod';
import type { Platform } from '../platform.js';

/** Job names are a public contract: never rename them. */
export const FAN_OUT_EVENT = 'webhooks.fan-out-event';
export const DISPATCH_DELIVERY = 'webhooks.dispatch-delivery';
export const SWEEP = 'webhooks.sweep';

const Id = z.string().regex(/^[0-9a-f]{24}$/);
export const FanOutPayload = z.object({ event_id: Id });
export const DispatchPayload = z.object({ delivery_id: Id });

export async function enqueueFanOut(platform: Pick<Platform, 'jobs'>, eventId: string): Promise<void> {
  await platform.jobs.enqueue(FAN_OUT_EVENT, { event_id: eventId });
}

export async function scheduleDispatch(platform: Pick<Platform, 'jobs'>, deliveryId: string, at: Date): Promise<void> {
  await platform.jobs.agenda.schedule(at, DISPATCH_DELIVERY, { delivery_id: deliveryId });
}
