import type { Page } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { getDelivery, listAppSubscriptions, listDeliveries, redeliver, type AppDeliveriesQuery, type DeliveryScope } from '../../webhooks/index.js';
import { requireDeveloper } from './developers.js';
import type { AppDocument } from './models.js';
import { findOwnApp } from './submissions.js';

/**
 * A partner's view of its app's webhooks (docs/apps.md, App webhooks): the subscriptions of the
 * app's installations, and the webhooks engine's deliveries log and redelivery scoped to the
 * app. Another partner's app, and any delivery not the app's, are 404.
 */

async function ownApp(platform: Platform, merchantId: string, appId: string): Promise<AppDocument> {
  await requireDeveloper(platform, merchantId);
  return findOwnApp(platform, merchantId, appId);
}

const scopeOf = (app: AppDocument): DeliveryScope => ({ app_id: app._id.toHexString() });

export async function listAppWebhookSubscriptions(platform: Platform, merchantId: string, appId: string, page: Page) {
  const app = await ownApp(platform, merchantId, appId);
  return listAppSubscriptions(platform, app._id, page);
}

export async function listAppDeliveries(platform: Platform, merchantId: string, appId: string, query: AppDeliveriesQuery) {
  return listDeliveries(platform, scopeOf(await ownApp(platform, merchantId, appId)), query);
}

export async function getAppDelivery(platform: Platform, merchantId: string, appId: string, deliveryId: string) {
  return getDelivery(platform, scopeOf(await ownApp(platform, merchantId, appId)), deliveryId);
}

/** A failed delivery of the app, sent again as a new attempt series (409 `subscription_inactive` while the installation's subscription is disabled). */
export async function redeliverAppDelivery(platform: Platform, merchantId: string, appId: string, deliveryId: string) {
  const app = await ownApp(platform, merchantId, appId);
  const delivery = await redeliver(platform, scopeOf(app), deliveryId);
  platform.log.info({ event: 'apps.webhook_redelivered', app_id: appId, delivery_id: delivery.id });
  return delivery;
}
