import type { Module } from '../module.js';
import { WEBHOOKS_ERROR_CODES } from './errors.js';
import { WEBHOOKS_EVENT_TYPES } from './events.js';
import { webhookDeliveryRoutes } from './deliveries/routes.js';
import { webhooksOverview } from './deliveries/overview.js';
import { appWebhookStatsIndexes, deliveryIndexes } from './deliveries/models.js';
import { subscribedEvents } from './subscriptions/interest.js';
import { webhookInternalRoutes } from './deliveries/internal.js';
import { webhookJobs } from './jobs.js';
import { SUBSCRIPTIONS, subscriptionIndexes } from './subscriptions/models.js';
import { webhookSubscriptionRoutes } from './subscriptions/routes.js';
import { announceEvents } from './deliveries/wake.js';
import { healthNoticeAudience, noticeMerchant } from './subscriptions/health-notices.js';
export {
  appDeliveryReadiness,
  createAppSigningSecret,
  listAppSubscriptions,
  narrowAppSubscription,
  openAppSubscription,
  rotateAppSigningSecret,
  type AppSecretView,
  type DeliveryReadiness,
} from './subscriptions/app-subscriptions.js';
export { RotateSecretBody } from './subscriptions/schemas.js';
export { appDeliveryFigures, type AppDeliveryFigures } from './deliveries/app-stats.js';
export { AppDeliveriesQuery, getDelivery, listDeliveries, ListDeliveriesQuery, redeliver, type DeliveryScope } from './deliveries/log.js';
export type { AppSubscriptionView, SubscriptionView, SubscriptionWithSecret } from './subscriptions/present.js';
export { healthNoticeAudience, healthNoticeMessage, readHealthNotice, type HealthNotice } from './subscriptions/health-notices.js';
export {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
  updateSubscription,
} from './subscriptions/service.js';
export { DEFAULT_GRACE_PERIOD_SECONDS, subscriptionSchemas, type UpdateSubscriptionBody } from './subscriptions/schemas.js';
export { deliveries as webhookDeliveries, type DeliveryDocument } from './deliveries/models.js';

/**
 * Partner webhooks: subscriptions and deliveries (/v1/operations/…), the internal dispatch
 * routes, the delivery jobs, and the event hooks: which recorded events a subscription wants,
 * and waking the webhooks service for those (or the durable fan-out job when it cannot be woken).
 */
export const webhooksModule: Module = {
  name: 'webhooks',
  errorCodes: WEBHOOKS_ERROR_CODES,
  indexes: [...subscriptionIndexes, ...deliveryIndexes, ...appWebhookStatsIndexes],
  routes: [
    { path: '/v1/operations/webhook-subscriptions', router: webhookSubscriptionRoutes },
    { path: '/v1/operations/webhook-deliveries', router: webhookDeliveryRoutes },
  ],
  internal: webhookInternalRoutes,
  overview: webhooksOverview,
  jobs: webhookJobs,
  eventCarriers: [SUBSCRIPTIONS],
  eventTypes: WEBHOOKS_EVENT_TYPES,
  eventHooks(platform) {
    const announcer = announceEvents(platform);
    return {
      // A merchant subscription's health notice is heard here (noticeMerchant), whoever subscribes to it.
      wanted: async (docs) => {
        const subscribed = await subscribedEvents(platform, docs);
        return docs.map((doc, i) => subscribed[i]! || healthNoticeAudience(doc) === 'merchant');
      },
      afterRecord: async (event) => {
        await Promise.all([announcer.announce(event.id, event.recipient !== null), noticeMerchant(platform, event)]);
      },
      drain: () => announcer.drain(),
    };
  },
};
