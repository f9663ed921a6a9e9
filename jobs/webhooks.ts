import {
  DISPATCH_DELIVERY,
  DispatchPayload,
  FAN_OUT_EVENT,
  FanOutPayload,
  SWEEP,
  catchUpSubscriptions,
  dispatchDue,
  fanOutEvents,
  fanOutPendingEvents,
} from '../src/webhooks/index.js';
import type { JobHandlers } from './types.js';

/** The webhooks domain's jobs; deliveries are leased to this process (`platform.process.id`). */
export const webhookHandlers: JobHandlers = {
  async [FAN_OUT_EVENT](platform, data) {
    const { event_id } = FanOutPayload.parse(data);
    const owner = platform.process.id;
    const created = await fanOutEvents(platform, [event_id], owner);
    const sent = await dispatchDue(platform, owner, { claimed: created, deliveryIds: [] });
    return { deliveries: created.length, ...sent };
  },

  async [DISPATCH_DELIVERY](platform, data) {
    const { delivery_id } = DispatchPayload.parse(data);
    return dispatchDue(platform, platform.process.id, { deliveryIds: [delivery_id] });
  },

  /** The backstop: events not fanned out, due catch-up windows, and due deliveries whose job or wake-up was lost (or whose claim expired). */
  async [SWEEP](platform) {
    const owner = platform.process.id;
    const fannedOut = await fanOutPendingEvents(platform, owner);
    const caughtUp = await catchUpSubscriptions(platform, owner);
    const claimed = [...fannedOut.claimed, ...caughtUp.claimed];
    return {
      fanned_out_events: fannedOut.events,
      caught_up_subscriptions: caughtUp.subscriptions,
      ...(await dispatchDue(platform, owner, { claimed, limit: 500 })),
    };
  },
};
