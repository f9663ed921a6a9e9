import type { Module } from '../module.js';
import { WEBHOOKS_ERROR_CODES } from './errors.js';
import { WEBHOOKS_EVENT_TYPES } from './events.js';
import { webhookDeliveryRoutes } from './delivery-routes.js';
import { appWebhookStatsIndexes } from './store.js';
import { subscribedEvents } from './interest.js';
import { webhookInternalRoutes } from './internal.js';
import { webhookJobs } from './jobs.js';
import { SUBSCRIPTIONS, webhookIndexes } from './store.js';
import { webhookSubscriptionRoutes } from './subscription-routes.js';
import { announceEvents } from './wake.js';
export { presentSubscription, type SubscriptionView, type SubscriptionWithSecret } from './present.js';
// The target rules moved to src/outbound (core); still exported here for what imported them from webhooks.
export {
  checkResolvedAddress,
  checkTargetUrl,
  classifyAddress,
  isLoopbackHost,
  type AddressClass,
  type AddressVerdict,
  type Resolver,
  type TargetVerdict,
} from '../outbound/index.js';
export { MAX_SUBSCRIPTIONS_PER_STORE } from './subscriptions.js';
export {
  appDeliveryReadiness,
  appSigningSecretInfo,
  createAppSigningSecret,
  listAppSubscriptions,
  narrowAppSubscription,
  openAppSubscription,
  rotateAppSigningSecret,
  type AppSecretView,
  type DeliveryReadiness,
} from './app-subscriptions.js';
export { RotateSecretBody } from './schemas.js';
export { appDeliveryFigures, type AppDeliveryFigures } from './app-stats.js';
export { AppDeliveriesQuery, getDelivery, listDeliveries, redeliver, type DeliveryScope } from './delivery-log.js';
export type { AppSubscriptionView } from './present.js';
export { deliveries as webhookDeliveries, type DeliveryDocument } from './store.js';
export { dispatchDue } from './delivery.js';
export { catchUpSubscriptions, fanOutEvents, fanOutPendingEvents } from './fan-out.js';
export { DispatchDelivery, FanOutEvent, SweepWebhooks } from './jobs.js';

/**
 * Partner webhooks: subscriptions and deliveries (/v1/operations/…), the internal dispatch
 * routes, the delivery jobs, and the event hooks: which recorded events a subscription wants,
 * and waking the webhooks service for those (or the durable fan-out job when it cannot be woken).
 */
export const webhooksModule: Module = {
  name: 'webhooks',
  errorCodes: WEBHOOKS_ERROR_CODES,
  indexes: [...webhookIndexes, ...appWebhookStatsIndexes],
  routes: [
    { path: '/v1/operations/webhook-subscriptions', router: webhookSubscriptionRoutes },
    { path: '/v1/operations/webhook-deliveries', router: webhookDeliveryRoutes },
  ],
  internal: webhookInternalRoutes,
  jobs: webhookJobs,
  eventCarriers: [SUBSCRIPTIONS],
  eventTypes: WEBHOOKS_EVENT_TYPES,
  eventHooks(platform) {
    const announcer = announceEvents(platform);
    return {
      wanted: (docs) => subscribedEvents(platform, docs),
      afterRecord: async (event) => announcer.announce(event.id, event.recipient !== null),
      drain: () => announcer.drain(),
    };
  },
};
