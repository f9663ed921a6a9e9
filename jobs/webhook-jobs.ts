import { hostname } from 'node:os';
import { dispatchDue, fanOutEvent, fanOutPendingEvents } from '../src/webhooks/delivery.js';
import { DISPATCH_DELIVERY, DispatchPayload, FAN_OUT_EVENT, FanOutPayload, SWEEP } from '../src/webhooks/jobs.js';
import type { JobHandler } from './types.js';

/** Who holds a delivery's lease: this process. */
export const LEASE_OWNER = `webhooks:${hostname()}:${process.pid}`;

export const fanOutEventJob: JobHandler = {
  name: FAN_OUT_EVENT,
  concurrency: 10,
  async handle(platform, data) {
    const { event_id } = FanOutPayload.parse(data);
    const created = await fanOutEvent(platform, event_id, LEASE_OWNER);
    const sent = await dispatchDue(platform, LEASE_OWNER, { claimed: created, deliveryIds: [] });
    return { deliveries: created.length, ...sent };
  },
};

export const dispatchDeliveryJob: JobHandler = {
  name: DISPATCH_DELIVERY,
  concurrency: 20,
  async handle(platform, data) {
    const { delivery_id } = DispatchPayload.parse(data);
    return dispatchDue(platform, LEASE_OWNER, { deliveryIds: [delivery_id] });
  },
};

/** The backstop: events not fanned out, and due deliveries whose job or wake-up was lost (or whose claim expired). */
export const webhookSweepJob: JobHandler = {
  name: SWEEP,
  concurrency: 1,
  everyMs: (platform) => platform.config.webhooks.sweepIntervalMs,
  async handle(platform) {
    const fannedOut = await fanOutPendingEvents(platform, LEASE_OWNER);
    return { fanned_out_events: fannedOut.events, ...(await dispatchDue(platform, LEASE_OWNER, { claimed: fannedOut.claimed, limit: 500 })) };
  },
};
