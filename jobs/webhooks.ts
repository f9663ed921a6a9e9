import { DispatchDelivery, FanOutEvent, SweepWebhooks, catchUpSubscriptions, dispatchDue, fanOutEvents, fanOutPendingEvents } from '../src/webhooks/index.js';
import { bindJob } from './types.js';

/** The webhooks domain's jobs; deliveries are leased to this process (`platform.process.id`). */
export const webhookHandlers = [
  bindJob(FanOutEvent, async (platform, { event_id }) => {
    const owner = platform.process.id;
    const created = await fanOutEvents(platform, [event_id], owner);
    const sent = await dispatchDue(platform, owner, { claimed: created, deliveryIds: [] });
    return { deliveries: created.length, ...sent };
  }),

  bindJob(DispatchDelivery, async (platform, { delivery_id }) => dispatchDue(platform, platform.process.id, { deliveryIds: [delivery_id] })),

  /** The backstop: events not fanned out, due catch-up windows, and due deliveries whose job or wake-up was lost (or whose claim expired). */
  bindJob(SweepWebhooks, async (platform) => {
    const owner = platform.process.id;
    const fannedOut = await fanOutPendingEvents(platform, owner);
    const caughtUp = await catchUpSubscriptions(platform, owner);
    const claimed = [...fannedOut.claimed, ...caughtUp.claimed];
    return {
      fanned_out_events: fannedOut.events,
      caught_up_subscriptions: caughtUp.subscriptions,
      ...(await dispatchDue(platform, owner, { claimed, limit: 500 })),
    };
  }),
];
