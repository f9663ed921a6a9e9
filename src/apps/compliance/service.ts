import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { getCustomer } from '../../customers/index.js';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError, notFound } from '../../errors.js';
import { carried, type PendingEvent } from '../../events/index.js';
import { IdString, parseObjectId } from '../../ids.js';
import { listCustomerOrders } from '../../orders/index.js';
import { findStoreById } from '../../stores/index.js';
import { afterCursor, PageQuery, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { appDeliveryReadiness, webhookDeliveries } from '../../webhooks/index.js';
import { LIFECYCLE_CONTRACT_VERSION, type ComplianceTopic } from '../manifest/types.js';
import { complianceRequests, type ComplianceRequestDocument, type ComplianceSource } from './models.js';
import { apps } from '../partners/models.js';
import { installations, type InstallationDocument } from '../installations/models.js';

/**
 * The compliance producer (spec 4.7, 5, 6.2; docs/apps.md, Compliance webhooks): a merchant's
 * privacy request for a customer or the whole shop becomes one compliance notice per app
 * installed in the store, each an event addressed to that installation and exclusive to it,
 * delivered by the webhook engine to the app's subscription, signed with the app's secret.
 * Every request is recorded (who, when, which customer, which apps were told and which events
 * told them), and so is the `shop.redact` the platform sends on its own 48 hours after an
 * uninstall.
 *
 * A request is one insert that carries its events (the outbox, docs/events.md): it is recorded
 * with its notices or not at all. Its `key` is unique: a merchant's Idempotency-Key (beside the
 * replayed response of the idempotency layer, which expires) or the uninstall it follows, so a
 * retry never sends twice.
 */

const StoreId = IdString();
const Email = z.string().trim().toLowerCase().max(254).pipe(z.email());
const OrderIds = z.array(IdString()).max(1000);

/** The bodies of the three producer routes. */
export const CustomerDataRequestBody = z
  .strictObject({ store_id: StoreId, customer_id: IdString().optional(), email: Email.optional(), orders_requested: OrderIds.optional() })
  .refine((b) => b.customer_id !== undefined || b.email !== undefined, { message: 'give customer_id, email or both', path: ['customer_id'] });
export const CustomerRedactBody = z
  .strictObject({ store_id: StoreId, customer_id: IdString().optional(), email: Email.optional(), orders_to_redact: OrderIds.optional() })
  .refine((b) => b.customer_id !== undefined || b.email !== undefined, { message: 'give customer_id, email or both', path: ['customer_id'] });
export const ShopRedactBody = z.strictObject({ store_id: StoreId });

export type ComplianceInput =
  | { topic: 'customers.data_request'; body: z.infer<typeof CustomerDataRequestBody> }
  | { topic: 'customers.redact'; body: z.infer<typeof CustomerRedactBody> }
  | { topic: 'shop.redact'; body: z.infer<typeof ShopRedactBody> };

export type Store = { id: string; subdomain: string };

/** The orders a customer request covers when the merchant names none: the customer's orders (at most 1,000). */
async function ordersOf(platform: Platform, storeId: string, customerId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: ObjectId | undefined;
  for (;;) {
    const page = await listCustomerOrders(platform, storeId, customerId, { limit: 100, cursor });
    ids.push(...page.items.map((o) => o.id));
    if (!page.nextCursor || ids.length >= 1000) return ids.slice(0, 1000);
    cursor = new ObjectId(ids.at(-1)!);
  }
}

/**
 * A merchant's compliance request. Refused (409 `app_webhooks_not_configured`, naming the apps)
 * when an app installed in the store cannot be told: no subscription (installed before app
 * webhooks), a subscription the platform disabled after failing deliveries, or no signing
 * secret. A store with no app installed records the request with no apps.
 */
export async function requestCompliance(platform: Platform, merchantId: string, store: Store, idempotencyKey: string | undefined, input: ComplianceInput) {
  if (!idempotencyKey) {
    throw new PlatformError(
      'invalid_data',
      'idempotency_key_required',
      'A compliance request needs an Idempotency-Key header, so a retry never notifies the apps twice',
    );
  }
  const key = `merchant:${merchantId}:${store.id}:${input.topic}:${idempotencyKey}`;
  const existing = await complianceRequests(platform.db).findOne({ key });
  if (existing) return presentRequest(platform, existing);

  let customer: ComplianceRequestDocument['customer'] = null;
  let orderIds: string[] = [];
  if (input.topic !== 'shop.redact') {
    const body = input.body;
    const found = body.customer_id ? await getCustomer(platform, store.id, body.customer_id) : null; // 404 for another store's customer
    customer = { id: found?.id ?? null, email: body.email ?? found?.email ?? null, phone: found?.phone ?? null };
    const named = input.topic === 'customers.data_request' ? input.body.orders_requested : input.body.orders_to_redact;
    orderIds = named ?? (found ? await ordersOf(platform, store.id, found.id) : []);
  }

  const active = await installations(platform.db)
    .find({ store_id: new ObjectId(store.id), status: 'active' })
    .sort({ _id: 1 })
    .toArray();
  const appDocs = await apps(platform.db)
    .find({ _id: { $in: active.map((i) => i.app_id) } }, { projection: { _id: 1, handle: 1 } })
    .toArray();
  const handles = new Map(appDocs.map((a) => [a._id.toHexString(), a.handle]));
  const readiness = await appDeliveryReadiness(
    platform,
    active.map((i) => ({ installationId: i._id, appId: i.app_id })),
  );
  const unready = readiness.flatMap((r, i) =>
    r.ready ? [] : [{ handle: handles.get(active[i]!.app_id.toHexString()) ?? active[i]!.app_id.toHexString(), reason: r.reason! }],
  );
  if (unready.length > 0) {
    throw new PlatformError(
      'conflict',
      'app_webhooks_not_configured',
      `Apps installed in this store cannot receive compliance webhooks: ${unready.map((u) => u.handle).join(', ')}. Their partners must re-authorize the install or rotate a signing secret, or the app must be uninstalled`,
      { details: unready.map((u) => `apps.${u.handle}: ${READINESS_TEXT[u.reason]}`) },
    );
  }
  const doc = await record(platform, {
    key,
    store,
    topic: input.topic,
    source: 'merchant',
    requestedBy: new ObjectId(merchantId),
    customer,
    orderIds,
    told: active.map((i) => ({ installation: i, handle: handles.get(i.app_id.toHexString()) ?? '' })),
  });
  platform.log.info({ event: 'apps.compliance_requested', request_id: doc._id.toHexString(), store_id: store.id, topic: input.topic, apps: doc.apps.length });
  return presentRequest(platform, doc);
}

const READINESS_TEXT: Record<NonNullable<Awaited<ReturnType<typeof appDeliveryReadiness>>[number]['reason']>, string> = {
  no_subscription: 'has no webhook subscription for this store (installed before app webhooks: the partner must re-authorize the install)',
  subscription_disabled: 'its webhook subscription was disabled after failing deliveries (the partner must fix the endpoint and re-authorize the install)',
  no_signing_secret: 'the app has no webhook signing secret (its partner must rotate one)',
};

type RecordInput = {
  key: string;
  store: Store;
  topic: ComplianceTopic;
  source: ComplianceSource;
  requestedBy: ObjectId | null;
  customer: ComplianceRequestDocument['customer'];
  orderIds: string[];
  told: { installation: InstallationDocument; handle: string }[];
};

/** Insert the request carrying one notice per app; a request with the same key already there is answered instead. */
async function record(platform: Platform, input: RecordInput): Promise<ComplianceRequestDocument> {
  const id = new ObjectId();
  const now = platform.clock.now();
  const pending: PendingEvent[] = input.told.map(({ installation, handle }) => {
    const payload = noticePayload(id, input, installation, handle, now);
    const key = `${input.topic}:${id.toHexString()}:${installation._id.toHexString()}`;
    const options = { recipient: { type: 'app_installation' as const, id: installation._id, exclusive: true } };
    // One call per topic, each naming its type (test/platform/architecture.test.ts reads them).
    switch (input.topic) {
      case 'customers.data_request':
        return platform.events.pending('customers.data_request', installation.store_id, payload, key, options);
      case 'customers.redact':
        return platform.events.pending('customers.redact', installation.store_id, payload, key, options);
      case 'shop.redact':
        return platform.events.pending('shop.redact', installation.store_id, payload, key, options);
    }
  });
  const doc: ComplianceRequestDocument = {
    _id: id,
    key: input.key,
    store_id: new ObjectId(input.store.id),
    topic: input.topic,
    source: input.source,
    requested_by: input.requestedBy,
    customer: input.customer,
    order_ids: input.orderIds,
    apps: input.told.map(({ installation, handle }, i) => ({
      app_id: installation.app_id,
      handle,
      installation_id: installation._id,
      event_id: pending[i]!._id,
    })),
    created_at: now,
  };
  try {
    await complianceRequests(platform.db).insertOne({ ...doc, ...(pending.length > 0 ? carried(pending) : {}) });
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const first = await complianceRequests(platform.db).findOne({ key: input.key });
    if (first) return first;
    throw err;
  }
  if (pending.length > 0) await platform.events.settle(complianceRequests(platform.db), id, pending);
  return doc;
}

/**
 * A notice's payload (docs/apps.md, Compliance webhooks), Shopify's shape with the platform's
 * names: the shop, the customer and orders for customer topics, the request's id, the app's
 * installation, and the lifecycle contract version.
 */
function noticePayload(requestId: ObjectId, input: RecordInput, installation: InstallationDocument, handle: string, now: Date): Record<string, unknown> {
  const base = {
    contract_version: LIFECYCLE_CONTRACT_VERSION,
    request: { id: requestId.toHexString(), source: input.source, requested_at: now.toISOString() },
    shop: { id: input.store.id, subdomain: input.store.subdomain },
    app: { id: installation.app_id.toHexString(), handle },
    installation_id: installation._id.toHexString(),
  };
  if (input.topic === 'shop.redact') return base;
  const orders = input.topic === 'customers.data_request' ? { orders_requested: input.orderIds } : { orders_to_redact: input.orderIds };
  return { ...base, customer: input.customer, ...orders };
}

/**
 * The maintenance sweep `maintenance.app-shop-redact`: `shop.redact` to each app uninstalled
 * at least APP_SHOP_REDACT_DELAY_SECONDS ago (and not re-installed since), once per uninstall,
 * recorded as a compliance request (source `uninstall`). Returns how many it sent.
 */
export async function sendDueShopRedactions(platform: Platform, limit = 100): Promise<number> {
  const now = platform.clock.now();
  const due = await installations(platform.db)
    .find({ shop_redact_due_at: { $lte: now }, status: 'uninstalled' })
    .sort({ shop_redact_due_at: 1 })
    .limit(limit)
    .toArray();
  let sent = 0;
  for (const installation of due) {
    const app = await apps(platform.db).findOne({ _id: installation.app_id }, { projection: { handle: 1 } });
    const store = await findStoreById(platform, installation.store_id.toHexString());
    await record(platform, {
      key: `uninstall:${installation._id.toHexString()}:${installation.grant_id.toHexString()}`,
      store: { id: installation.store_id.toHexString(), subdomain: store?.subdomain ?? '' },
      topic: 'shop.redact',
      source: 'uninstall',
      requestedBy: null,
      customer: null,
      orderIds: [],
      told: [{ installation, handle: app?.handle ?? '' }],
    });
    // Done for this uninstall (a re-install meanwhile has cleared the due date already: then nothing changes).
    await installations(platform.db).updateOne(
      { _id: installation._id, status: 'uninstalled', grant_id: installation.grant_id },
      { $set: { shop_redact_due_at: null, shop_redacted_at: now } },
    );
    sent++;
  }
  return sent;
}

export type ComplianceRequestView = Awaited<ReturnType<typeof presentRequest>>;

/** A request with each app's delivery state (one read of the deliveries). */
async function presentRequest(platform: Platform, doc: ComplianceRequestDocument) {
  return (await presentRequests(platform, [doc]))[0]!;
}

async function presentRequests(platform: Platform, docs: ComplianceRequestDocument[]) {
  const eventIds = docs.flatMap((d) => d.apps.map((a) => a.event_id));
  const found =
    eventIds.length > 0
      ? await webhookDeliveries(platform.db)
          .find({ event_id: { $in: eventIds } })
          .toArray()
      : [];
  const byEvent = new Map(found.map((d) => [d.event_id.toHexString(), d]));
  return docs.map((d) => ({
    id: d._id.toHexString(),
    store_id: d.store_id.toHexString(),
    topic: d.topic,
    source: d.source,
    requested_by: d.requested_by?.toHexString() ?? null,
    customer: d.customer,
    order_ids: d.order_ids,
    apps: d.apps.map((a) => {
      const delivery = byEvent.get(a.event_id.toHexString());
      return {
        app_id: a.app_id.toHexString(),
        handle: a.handle,
        installation_id: a.installation_id.toHexString(),
        event_id: a.event_id.toHexString(),
        // `pending` until the event is fanned out to the app's subscription.
        delivery: delivery
          ? {
              id: delivery._id.toHexString(),
              status: delivery.status,
              attempt_count: delivery.attempts.length,
              last_status: delivery.attempts.at(-1)?.status ?? null,
              last_error: delivery.attempts.at(-1)?.error ?? null,
              completed_at: delivery.completed_at?.toISOString() ?? null,
            }
          : { id: null, status: 'pending' as const, attempt_count: 0, last_status: null, last_error: null, completed_at: null },
      };
    }),
    created_at: d.created_at.toISOString(),
  }));
}

export const ComplianceListQuery = PageQuery.extend({
  store_id: IdString().optional(),
  topic: z.enum(['customers.data_request', 'customers.redact', 'shop.redact']).optional(),
  source: z.enum(['merchant', 'uninstall']).optional(),
}).strict();

/** Operators: every store's compliance requests, oldest first, with their delivery state. */
export async function listComplianceRequests(platform: Platform, q: z.infer<typeof ComplianceListQuery>) {
  const filter = {
    ...(q.store_id ? { store_id: new ObjectId(q.store_id) } : {}),
    ...(q.topic ? { topic: q.topic } : {}),
    ...(q.source ? { source: q.source } : {}),
    ...afterCursor(q),
  };
  const { items, nextCursor } = await findPage(complianceRequests(platform.db), filter, q.limit);
  return { items: await presentRequests(platform, items), nextCursor };
}

export async function getComplianceRequest(platform: Platform, requestId: string) {
  const id = parseObjectId(requestId);
  const doc = id ? await complianceRequests(platform.db).findOne({ _id: id }) : null;
  if (!doc) throw notFound('Compliance request');
  return presentRequest(platform, doc);
}
