import type { DomainEvent } from '../events/index.js';
import type { Platform } from '../platform.js';
import { findStoreById } from '../stores/index.js';
import type { NotificationKind } from './defaults.js';
import { fulfillmentObject, orderObject, refundObject, type OrderFacts } from './objects.js';
import { merchantAddress, sendNotification, shopBaseUrl } from './service.js';

/**
 * Which events send which notification (docs/notifications.md, When): heard where every event
 * passes at least once, the webhooks fan-out (src/webhooks/deliveries/fan-out.ts), before the
 * event is marked fanned out. A fan-out that runs twice (a retried job, the sweeper, a second
 * wake-up) sends nothing twice: each message is keyed by the fact it tells (`dedupe_key`).
 */
export const NOTIFYING_EVENT_TYPES: ReadonlySet<string> = new Set(['order.created', 'order.paid', 'order.fulfilled', 'order.refunded', 'order.cancelled']);

type Send = { kind: NotificationKind; to: 'customer' | 'merchant'; key: string };

/**
 * A storefront order is confirmed when its checkout's payment completes (`order.paid`): Shopify
 * confirms an order when the checkout completes, and here the order exists before its payment
 * step. An order the merchant made (`POST /v1/orders`) is confirmed when it is made, with no
 * new-order email to the merchant who made it.
 */
function sendsFor(event: DomainEvent, order: OrderFacts): Send[] {
  const refundId = (event.payload.refund as { id?: string } | null | undefined)?.id ?? null;
  const fulfillmentId = (event.payload.fulfillment as { id?: string } | null | undefined)?.id ?? null;
  const storefront = order.source === 'storefront';
  switch (event.type) {
    case 'order.created':
      return storefront ? [] : [{ kind: 'order_confirmation', to: 'customer', key: `order_confirmation:${order.id}` }];
    case 'order.paid':
      return storefront
        ? [
            { kind: 'order_confirmation', to: 'customer', key: `order_confirmation:${order.id}` },
            { kind: 'merchant_new_order', to: 'merchant', key: `merchant_new_order:${order.id}` },
          ]
        : [];
    case 'order.fulfilled':
      return fulfillmentId ? [{ kind: 'shipping_confirmation', to: 'customer', key: `shipping_confirmation:${fulfillmentId}` }] : [];
    case 'order.refunded':
      // A cancellation's refund is told by the cancellation's email.
      return refundId && !order.cancelled_at ? [{ kind: 'order_refund', to: 'customer', key: `order_refund:${refundId}` }] : [];
    case 'order.cancelled':
      return [{ kind: 'order_cancelled', to: 'customer', key: `order_cancelled:${order.id}` }];
    default:
      return [];
  }
}

/** Send the notifications the given events call for. Throws when a send cannot be recorded, so the fan-out runs again. */
export async function notifyForEvents(platform: Platform, events: readonly DomainEvent[]): Promise<number> {
  let sent = 0;
  for (const event of events) {
    if (!NOTIFYING_EVENT_TYPES.has(event.type) || !event.store_id) continue;
    const order = event.payload.order as OrderFacts | undefined;
    if (!order || typeof order.id !== 'string') continue;
    const sends = sendsFor(event, order);
    if (sends.length === 0) continue;
    const store = await findStoreById(platform, event.store_id);
    if (!store) continue;
    const shop = shopBaseUrl(platform, store.subdomain);
    const links = {
      status: `${shop}/checkout/orders/${order.id}`,
      admin: `${platform.config.http.publicBaseUrl}/admin/stores/${store.id}/orders/${order.id}`,
    };
    const scope = {
      order: orderObject(order, links),
      fulfillment: fulfillmentObject(order, (event.payload.fulfillment as { id?: string } | undefined)?.id ?? null),
      refund: refundObject(order, (event.payload.refund as { id?: string } | null | undefined)?.id ?? null),
      customer: { email: order.email ?? '' },
    };
    for (const send of sends) {
      const to = send.to === 'customer' ? order.email : await merchantAddress(platform, store.id);
      if (!to) continue;
      await sendNotification(platform, store, send.kind, to, scope, send.key);
      sent++;
    }
  }
  return sent;
}
