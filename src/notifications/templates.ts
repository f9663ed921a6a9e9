import { ObjectId } from 'mongodb';
import { PlatformError } from '../errors.js';
import type { ScopedStore } from '../http/context.js';
import type { Platform } from '../platform.js';
import { defaultTemplate, NOTIFICATION_INFO, NOTIFICATION_KINDS, type NotificationKind, type NotificationTemplate } from './defaults.js';
import { notificationTemplates } from './models.js';
import { fulfillmentObject, orderObject, refundObject, sampleOrder, type OrderFacts } from './objects.js';
import {
  checkTemplate,
  kindOrNotFound,
  merchantAddress,
  renderParts,
  sendNotification,
  storeLook,
  storeTemplate,
  type RenderedNotification,
} from './service.js';
import type { PreviewBody, PutTemplateBody } from './schemas.js';

/** The store's latest order (given by src/modules.ts: the orders domain is above this one), for previews. */
export type LatestOrder = (platform: Platform, storeId: string) => Promise<OrderFacts | null>;

const present = (kind: NotificationKind, found: { template: NotificationTemplate; customized: boolean; updated_at: string | null }) => {
  const info = NOTIFICATION_INFO.get(kind)!;
  return {
    kind,
    title: info.title,
    audience: info.audience,
    sent_when: info.when,
    customized: found.customized,
    updated_at: found.updated_at,
    ...found.template,
  };
};
export type NotificationView = ReturnType<typeof present>;

export async function listNotifications(platform: Platform, storeId: string): Promise<NotificationView[]> {
  const own = await notificationTemplates(platform.db)
    .find({ store_id: new ObjectId(storeId) })
    .toArray();
  const byKind = new Map(own.map((d) => [d.kind, d]));
  return NOTIFICATION_KINDS.map((kind) => {
    const d = byKind.get(kind);
    return present(
      kind,
      d
        ? { template: { subject: d.subject, text: d.text, html: d.html }, customized: true, updated_at: d.updated_at.toISOString() }
        : { template: defaultTemplate(kind), customized: false, updated_at: null },
    );
  });
}

export async function getNotification(platform: Platform, storeId: string, kindName: string): Promise<NotificationView> {
  const kind = kindOrNotFound(kindName);
  return present(kind, await storeTemplate(platform, storeId, kind));
}

/** Save the store's own template: refused whole (400, each part's error and line) unless every part parses within the bounds. */
export async function putNotification(platform: Platform, storeId: string, kindName: string, body: PutTemplateBody): Promise<NotificationView> {
  const kind = kindOrNotFound(kindName);
  checkTemplate(body);
  const now = platform.clock.now();
  await notificationTemplates(platform.db).updateOne(
    { store_id: new ObjectId(storeId), kind },
    {
      $set: { subject: body.subject, text: body.text, html: body.html, updated_at: now },
      $inc: { version: 1 },
      $setOnInsert: { _id: new ObjectId(), created_at: now },
    },
    { upsert: true },
  );
  return getNotification(platform, storeId, kind);
}

/** Back to the default (the store's own template deleted); the default again when there was none. */
export async function resetNotification(platform: Platform, storeId: string, kindName: string): Promise<NotificationView> {
  const kind = kindOrNotFound(kindName);
  await notificationTemplates(platform.db).deleteOne({ store_id: new ObjectId(storeId), kind });
  return present(kind, { template: defaultTemplate(kind), customized: false, updated_at: null });
}

/** The objects of a preview: the store's latest order (or a sample), and a sample account token. */
async function previewScope(platform: Platform, store: ScopedStore, latest: LatestOrder | null, which: 'latest' | 'sample') {
  const found = which === 'latest' && latest ? await latest(platform, store.id) : null;
  const order = found ?? sampleOrder(store.currency, platform.clock.now());
  const look = await storeLook(platform, store);
  const status = `${look.shop.url}/checkout/orders/${order.id}`;
  return {
    look,
    from: found ? 'latest_order' : 'sample',
    scope: {
      order: orderObject(order, { status, admin: `${look.adminBase}/orders/${order.id}` }),
      fulfillment: fulfillmentObject(order, null) ?? fulfillmentObject(sampleOrder(store.currency, platform.clock.now()), null),
      refund: refundObject(order, null),
      customer: { email: order.email ?? 'shopper@example.com' },
      account: { token: 'emp_csact_SAMPLE-TOKEN', valid_for: '7 days', url: `${look.shop.url}/account`, instructions: 'Follow the link to choose a password.' },
    },
  };
}

export type PreviewView = RenderedNotification & { kind: NotificationKind; rendered_from: string };

/** Render the store's template (or an unsaved one) without sending: invalid Liquid is a 400 with its part and line. */
export async function previewNotification(
  platform: Platform,
  store: ScopedStore,
  kindName: string,
  body: PreviewBody,
  latest: LatestOrder | null,
): Promise<PreviewView> {
  const kind = kindOrNotFound(kindName);
  const template = body.template ?? (await storeTemplate(platform, store.id, kind)).template;
  checkTemplate(template);
  const { look, scope, from } = await previewScope(platform, store, latest, body.order);
  try {
    return { kind, rendered_from: from, ...renderParts(template, look, scope) };
  } catch (err) {
    throw new PlatformError('invalid_data', 'invalid_template', (err as Error).message);
  }
}

/** Send the store's template, rendered as its preview, to the merchant's own email (never deduplicated: each click sends one). */
export async function sendTestNotification(
  platform: Platform,
  store: ScopedStore,
  kindName: string,
  latest: LatestOrder | null,
): Promise<{ message_id: string; to: string }> {
  const kind = kindOrNotFound(kindName);
  const to = await merchantAddress(platform, store.id);
  if (!to) throw new PlatformError('conflict', 'no_merchant_email', 'The store’s owner has no email to send a test to');
  const { scope } = await previewScope(platform, store, latest, 'latest');
  return { message_id: await sendNotification(platform, store, kind, to, scope), to };
}
