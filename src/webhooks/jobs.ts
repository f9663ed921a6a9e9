import { defineBackstop } from '../job.js';
import { dispatchDue, DispatchDelivery } from './deliveries/delivery.js';
import { catchUpSubscriptions, FanOutEvent, fanOutPendingEvents } from './deliveries/fan-out.js';

/**
 * The backstop: events not fanned out, due catch-up windows, and due deliveries whose job or
 * wake-up was lost (or whose claim expired); deliveries are claimed by this process
 * (`platform.process.id`).
 */
export const SweepWebhooks = defineBackstop({
  name: 'webhooks.sweep',
  group: 'webhooks',
  every: (config) => config.webhooks.sweepIntervalMs,
  run: async (platform) => {
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
});

/**
 * The webhooks domain's jobs: the backstop here; each job the domain enqueues beside the work it
 * runs (`webhooks.fan-out-event` in deliveries/fan-out.ts, `webhooks.dispatch-delivery` in
 * deliveries/delivery.ts).
 */
export const webhookJobs = [FanOutEvent, DispatchDelivery, SweepWebhooks];
