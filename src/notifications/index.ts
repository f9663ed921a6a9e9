import type { Module } from '../module.js';
import { NOTIFICATIONS_ERROR_CODES } from './errors.js';
import { notificationIndexes } from './models.js';
import { NOTIFYING_EVENT_TYPES } from './order-events.js';
import { notificationRoutes } from './routes.js';
import type { LatestOrder } from './templates.js';
export { notifyForEvents } from './order-events.js';
export { sendAccountNotification, merchantAddress } from './service.js';
export { PutTemplateBody } from './schemas.js';
export * from './templates.js';

/**
 * A store's notifications (Shopify's): the emails to its customers and its merchant, from Liquid
 * templates the merchant may edit (/v1/notifications), sent when the order events are fanned
 * out. `latest` reads a store's latest order for previews (the orders domain, given by src/modules.ts).
 */
export const notificationsModule = (latest: LatestOrder | null): Module => ({
  name: 'notifications',
  errorCodes: NOTIFICATIONS_ERROR_CODES,
  indexes: notificationIndexes,
  routes: [{ path: '/v1/notifications', router: notificationRoutes(latest) }],
  // The order events are fanned out (not recorded as done) even with no webhook subscription: the fan-out sends their emails.
  eventHooks: () => ({ wanted: async (docs) => docs.map((d) => NOTIFYING_EVENT_TYPES.has(d.type) && d.store_id !== null) }),
});
