import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { DISABLE_AFTER_FAILED_DELIVERIES, LAST_ATTEMPT, sendClaimed } from '../../src/webhooks/deliveries/delivery.js';
import { fanOutEvents } from '../../src/webhooks/deliveries/fan-out.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';
import { settleLeftBehind, stopAfterWrites } from '../helpers/outbox.js';
import { givenSubscription } from '../helpers/webhooks.js';

/**
 * Every committed change records its event once (docs/events.md, "Every committed change,
 * once"), for inventory, payment providers, stores and webhook subscriptions: each write path
 * is run by a process that stops right after the write; the sweep then records the event the
 * write carried, once, with the payload the response showed.
 */
describe('Events carried by their writes: inventory, payment providers, stores, webhook subscriptions (the outbox)', () => {
  const { app, api } = useTestApp('event_outbox_commerce');
  let stopped: { restore(): void } | null = null;
  afterEach(() => {
    stopped?.restore();
    stopped = null;
  });

  const SUBSCRIPTIONS = '/v1/operations/webhook-subscriptions';
  const TARGET = 'https://hooks.example.com/emporium';
  const db = () => app.platform.db;
  const events = (key: string) => db().collection('events').find({ idempotency_key: key }).toArray();
  const stored = (collection: string, id: string | ObjectId) =>
    db()
      .collection(collection)
      .findOne({ _id: typeof id === 'string' ? new ObjectId(id) : id });
  const withoutSecret = <T extends Record<string, unknown>>({ secret: _secret, ...view }: T) => view;

  /** A shop with a product of one variant (denying overselling) and an active location. */
  async function givenStockedShop(): Promise<GivenMerchantWithStore & { variant: string; location: string }> {
    const shop = await givenMerchantWithStore(api);
    const product = await api.post('/v1/products', { title: 'Stocked', variants: [{ price: 100 }] }, shop.as);
    expect(product.status, JSON.stringify(product.body)).to.equal(201);
    const location = await api.post('/v1/inventory/locations', { name: 'Warehouse' }, shop.as);
    expect(location.status, JSON.stringify(location.body)).to.equal(201);
    return { ...shop, variant: product.body.data.variants[0].id, location: location.body.data.id };
  }

  /**
   * One write path: `act` makes the write (the process stops after it); the event it must have
   * carried is named by `key` and shows `payload`, both from what the response showed.
   */
  type Case = {
    name: string;
    collection: string;
    act(): Promise<{ res: Reply; status: number; id: string; key: string; payload: Record<string, unknown>; read?: () => Promise<Reply> }>;
  };

  const cases: Case[] = [
    {
      name: 'POST /v1/stores (store.created)',
      collection: 'stores',
      async act() {
        const { merchant } = await givenMerchantWithStore(api);
        const res = await api.post('/v1/stores', { name: 'Second shop', subdomain: `second-${new ObjectId().toHexString()}` }, { token: merchant.token });
        const id = res.body.data.id;
        return {
          res,
          status: 201,
          id,
          key: `store.created:${id}`,
          payload: { store: res.body.data },
          read: () => api.get(`/v1/stores/${id}`, { token: merchant.token }),
        };
      },
    },
    {
      name: 'PATCH /v1/stores/:id (store.updated)',
      collection: 'stores',
      async act() {
        const { as } = await givenMerchantWithStore(api);
        const res = await api.patch(`/v1/stores/${as.storeId}`, { name: 'Renamed', currency: 'EUR' }, as);
        return {
          res,
          status: 200,
          id: as.storeId,
          key: `store.updated:${as.storeId}:v2`,
          payload: { store: res.body.data, changed: ['name', 'currency'] },
          read: () => api.get(`/v1/stores/${as.storeId}`, as),
        };
      },
    },
    {
      name: 'POST /v1/inventory/locations (inventory_location.created)',
      collection: 'inventory_locations',
      async act() {
        const { as } = await givenMerchantWithStore(api);
        const res = await api.post('/v1/inventory/locations', { name: 'Back room', city: 'Lyon' }, as);
        const id = res.body.data.id;
        return {
          res,
          status: 201,
          id,
          key: `inventory_location.created:${id}`,
          payload: { location: res.body.data },
          read: () => api.get(`/v1/inventory/locations/${id}`, as),
        };
      },
    },
    {
      name: 'PATCH /v1/inventory/locations/:id (inventory_location.updated)',
      collection: 'inventory_locations',
      async act() {
        const { as, location } = await givenStockedShop();
        const res = await api.patch(`/v1/inventory/locations/${location}`, { name: 'Front', zip: '69001' }, as);
        return {
          res,
          status: 200,
          id: location,
          key: `inventory_location.updated:${location}:v2`,
          payload: { location: res.body.data, changed: ['name', 'zip'] },
          read: () => api.get(`/v1/inventory/locations/${location}`, as),
        };
      },
    },
    {
      name: 'POST /v1/inventory/locations/:id/deactivate (inventory_location.updated)',
      collection: 'inventory_locations',
      async act() {
        const { as, location } = await givenStockedShop();
        const res = await api.post(`/v1/inventory/locations/${location}/deactivate`, undefined, as);
        return { res, status: 200, id: location, key: `inventory_location.updated:${location}:v2`, payload: { location: res.body.data, changed: ['active'] } };
      },
    },
    {
      name: 'POST /v1/inventory/locations/:id/activate (inventory_location.updated)',
      collection: 'inventory_locations',
      async act() {
        const { as, location } = await givenStockedShop();
        expect((await api.post(`/v1/inventory/locations/${location}/deactivate`, undefined, as)).status).to.equal(200);
        const res = await api.post(`/v1/inventory/locations/${location}/activate`, undefined, as);
        return { res, status: 200, id: location, key: `inventory_location.updated:${location}:v3`, payload: { location: res.body.data, changed: ['active'] } };
      },
    },
    {
      name: 'POST /v1/inventory/levels/set, a level not there yet (inventory_level.updated)',
      collection: 'inventory_levels',
      async act() {
        const { as, variant, location } = await givenStockedShop();
        const res = await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: location, available: 12 }, as);
        const id = res.body.data.id;
        return {
          res,
          status: 200,
          id,
          key: `inventory_level.updated:${id}:v1`,
          payload: { inventory_level: res.body.data, reason: 'set' },
          read: () => api.get(`/v1/inventory/levels?variant_id=${variant}`, as),
        };
      },
    },
    {
      name: 'POST /v1/inventory/levels/set, an existing level (inventory_level.updated)',
      collection: 'inventory_levels',
      async act() {
        const { as, variant, location } = await givenStockedShop();
        expect(
          (await api.post('/v1/inventory/levels/adjust', { variant_id: variant, location_id: location, delta: 4, reason: 'received' }, as)).status,
        ).to.equal(200);
        const res = await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: location, available: 9 }, as);
        const id = res.body.data.id;
        return { res, status: 200, id, key: `inventory_level.updated:${id}:v2`, payload: { inventory_level: res.body.data, reason: 'set' } };
      },
    },
    {
      name: 'POST /v1/inventory/levels/adjust, a level not there yet (inventory_level.updated)',
      collection: 'inventory_levels',
      async act() {
        const { as, variant, location } = await givenStockedShop();
        const res = await api.post('/v1/inventory/levels/adjust', { variant_id: variant, location_id: location, delta: 6, reason: 'received' }, as);
        const id = res.body.data.id;
        return { res, status: 200, id, key: `inventory_level.updated:${id}:v1`, payload: { inventory_level: res.body.data, delta: 6, reason: 'received' } };
      },
    },
    {
      name: 'POST /v1/inventory/levels/adjust, an existing level, below the floor check (inventory_level.updated)',
      collection: 'inventory_levels',
      async act() {
        const { as, variant, location } = await givenStockedShop();
        expect((await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: location, available: 5 }, as)).status).to.equal(200);
        const res = await api.post('/v1/inventory/levels/adjust', { variant_id: variant, location_id: location, delta: -5, reason: 'damaged' }, as);
        const id = res.body.data.id;
        expect(res.body.data).to.include({ available: 0, on_hand: 0 });
        return { res, status: 200, id, key: `inventory_level.updated:${id}:v2`, payload: { inventory_level: res.body.data, delta: -5, reason: 'damaged' } };
      },
    },
    {
      name: 'PUT /v1/payments/providers/:provider, first save (payment_provider.updated)',
      collection: 'payment_providers',
      async act() {
        const { as } = await givenMerchantWithStore(api);
        const res = await api.put('/v1/payments/providers/manual', { enabled: true, instructions: 'Pay at the counter' }, as);
        const doc = await db()
          .collection('payment_providers')
          .findOne({ store_id: new ObjectId(as.storeId), provider: 'manual' });
        const id = doc!._id.toHexString();
        return {
          res,
          status: 200,
          id,
          key: `payment_provider.updated:${id}:v1`,
          payload: { payment_provider: res.body.data, changed: ['enabled', 'instructions'] },
          read: () => api.get('/v1/payments/providers', as),
        };
      },
    },
    {
      name: 'PUT /v1/payments/providers/:provider, an update (payment_provider.updated)',
      collection: 'payment_providers',
      async act() {
        const { as } = await givenMerchantWithStore(api);
        expect((await api.put('/v1/payments/providers/manual', { enabled: true }, as)).status).to.equal(200);
        const res = await api.put('/v1/payments/providers/manual', { instructions: 'Cash only', test_mode: false }, as);
        expect(res.body.data).to.include({ enabled: true, test_mode: false, instructions: 'Cash only' });
        const doc = await db()
          .collection('payment_providers')
          .findOne({ store_id: new ObjectId(as.storeId), provider: 'manual' });
        const id = doc!._id.toHexString();
        return {
          res,
          status: 200,
          id,
          key: `payment_provider.updated:${id}:v2`,
          payload: { payment_provider: res.body.data, changed: ['test_mode', 'instructions'] },
        };
      },
    },
    {
      name: `POST ${SUBSCRIPTIONS} (webhook_subscription.created)`,
      collection: 'webhook_subscriptions',
      async act() {
        const { as } = await givenMerchantWithStore(api);
        const res = await api.post(SUBSCRIPTIONS, { target_url: TARGET, event_types: ['order.created', 'product.*'], description: 'Sync' }, as);
        const id = res.body.data.id;
        return {
          res,
          status: 201,
          id,
          key: `webhook_subscription.created:${id}`,
          payload: { webhook_subscription: withoutSecret(res.body.data) },
          read: () => api.get(`${SUBSCRIPTIONS}/${id}`, as),
        };
      },
    },
    {
      name: `PATCH ${SUBSCRIPTIONS}/:id (webhook_subscription.updated)`,
      collection: 'webhook_subscriptions',
      async act() {
        const { as } = await givenMerchantWithStore(api);
        const { id } = await givenSubscription(api, as, { event_types: ['store.*'] });
        const res = await api.patch(`${SUBSCRIPTIONS}/${id}`, { event_types: ['store.updated', 'order.*'], description: 'Changed' }, as);
        return {
          res,
          status: 200,
          id,
          key: `webhook_subscription.updated:${id}:v2`,
          payload: { webhook_subscription: res.body.data, changed: ['event_types', 'description'] },
        };
      },
    },
    {
      name: `POST ${SUBSCRIPTIONS}/:id/rotate-secret (webhook_subscription.updated)`,
      collection: 'webhook_subscriptions',
      async act() {
        const { as } = await givenMerchantWithStore(api);
        const { id } = await givenSubscription(api, as, { event_types: ['store.*'] });
        const res = await api.post(`${SUBSCRIPTIONS}/${id}/rotate-secret`, { grace_period_seconds: 600 }, as);
        expect(res.body.data.previous_secret_expires_at).to.be.a('string');
        return {
          res,
          status: 200,
          id,
          key: `webhook_subscription.updated:${id}:v2`,
          payload: { webhook_subscription: withoutSecret(res.body.data), changed: ['secret'] },
        };
      },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: answers as usual when the process stops after the write, and the sweep records the event once`, async () => {
      stopped = stopAfterWrites(app.platform);
      const { res, status, id, key, payload, read } = await c.act();
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(JSON.stringify(res.body)).to.not.match(/pending_events|events_pending_since/);
      expect(await events(key), key).to.have.length(0);
      const left = await stored(c.collection, id);
      expect(left!.pending_events.map((e: { idempotency_key: string }) => e.idempotency_key)).to.include(key);
      expect(left!.events_pending_since).to.be.instanceOf(Date);
      // What the API shows never includes what the document carries.
      if (read) {
        const shown = await read();
        expect(shown.status).to.equal(200);
        expect(JSON.stringify(shown.body)).to.not.match(/pending_events|events_pending_since/);
      }
      stopped.restore();
      stopped = null;

      expect(await settleLeftBehind(app.platform)).to.be.at.least(1);
      const recorded = await events(key);
      expect(recorded, key).to.have.length(1);
      expect(recorded[0]!.payload).to.deep.equal(payload);
      const after = await stored(c.collection, id);
      expect(after).to.not.have.property('pending_events');
      expect(after).to.not.have.property('events_pending_since');
      await settleLeftBehind(app.platform);
      expect(await events(key)).to.have.length(1);
    });
  }

  it(`DELETE ${SUBSCRIPTIONS}/:id (webhook_subscription.deleted): a delete the process did not record is recorded once the subscription is gone`, async () => {
    const { as } = await givenMerchantWithStore(api);
    const view = withoutSecret(await givenSubscription(api, as, { event_types: ['store.*'] }));
    stopped = stopAfterWrites(app.platform);
    const deleted = await api.delete(`${SUBSCRIPTIONS}/${view.id}`, as);
    expect(deleted.status).to.equal(500); // the process "stopped" after the delete
    stopped.restore();
    stopped = null;
    expect(await stored('webhook_subscriptions', view.id)).to.equal(null);
    const key = `webhook_subscription.deleted:${view.id}`;
    expect(await events(key)).to.have.length(0);
    expect(
      await db()
        .collection('event_intents')
        .countDocuments({ entity_id: new ObjectId(view.id) }),
    ).to.equal(1);

    await settleLeftBehind(app.platform);
    const recorded = await events(key);
    expect(recorded).to.have.length(1);
    expect(recorded[0]!.payload).to.deep.equal({ webhook_subscription: view });
    expect(
      await db()
        .collection('event_intents')
        .countDocuments({ entity_id: new ObjectId(view.id) }),
    ).to.equal(0);
    expect((await api.delete(`${SUBSCRIPTIONS}/${view.id}`, as)).status).to.equal(404);
  });

  it('webhook_subscription.disabled: the auto-disable carries its event, recorded by the sweep when the process stopped', async () => {
    const { as } = await givenMerchantWithStore(api);
    const { id } = await givenSubscription(api, as, { event_types: ['store.*'] });
    // One failed delivery short of the limit, with a secret that cannot be opened: the next send fails without the network.
    await db()
      .collection('webhook_subscriptions')
      .updateOne(
        { _id: new ObjectId(id) },
        { $set: { consecutive_failed_deliveries: DISABLE_AFTER_FAILED_DELIVERIES - 1, 'secret.ciphertext': 'k1.damaged' } },
      );
    const eventId = new ObjectId();
    await db()
      .collection('events')
      .insertOne({
        _id: eventId,
        type: 'store.updated',
        store_id: new ObjectId(as.storeId),
        payload: { store: { id: as.storeId } },
        idempotency_key: `test:${eventId.toHexString()}`,
        created_at: new Date(),
      });
    const [held] = await fanOutEvents(app.platform, [eventId.toHexString()], 'test-holder');
    expect(held).to.not.equal(undefined);
    // Its last attempt.
    await db()
      .collection('webhook_deliveries')
      .updateOne({ _id: held!.delivery._id }, { $set: { next_attempt: LAST_ATTEMPT } });
    held!.delivery.next_attempt = LAST_ATTEMPT;

    stopped = stopAfterWrites(app.platform);
    expect(await sendClaimed(app.platform, held!, 'test-holder')).to.equal('failed');
    stopped.restore();
    stopped = null;
    const key = `webhook_subscription.disabled:${id}:v2`;
    expect(await events(key)).to.have.length(0);
    const view = (await api.get(`${SUBSCRIPTIONS}/${id}`, as)).body.data;
    expect(view).to.include({ active: false, disabled_reason: 'failing' });
    expect((await stored('webhook_subscriptions', id))!.pending_events).to.have.length(1);

    await settleLeftBehind(app.platform);
    const recorded = await events(key);
    expect(recorded).to.have.length(1);
    expect(recorded[0]!.payload.webhook_subscription).to.deep.include({
      id,
      target_url: TARGET,
      owner: view.owner,
      active: false,
      disabled_reason: 'failing',
      disabled_at: view.disabled_at,
      health: 'disabled',
      failure_streak: view.failure_streak,
      last_error: view.last_error,
    });
    expect(await stored('webhook_subscriptions', id)).to.not.have.property('pending_events');
  });

  it('loses no increment when 20 adjusts of one level race: +20, and 20 events each showing the level its own adjust made', async () => {
    const { as, variant, location } = await givenStockedShop();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.post('/v1/inventory/levels/adjust', { variant_id: variant, location_id: location, delta: 1, reason: 'received' }, as),
      ),
    );
    expect(replies.map((r) => r.status)).to.deep.equal(Array.from({ length: 20 }, () => 200));
    // The first one created the level: each adjust made the version that is its count.
    expect(replies.map((r) => r.body.data.available).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    const id = replies[0]!.body.data.id as string;
    const level = (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${location}`, as)).body.data;
    expect(level).to.have.length(1);
    expect(level[0]).to.include({ id, available: 20, on_hand: 20 });
    const recorded = await db().collection('events').find({ type: 'inventory_level.updated', 'payload.inventory_level.id': id }).toArray();
    expect(recorded).to.have.length(20);
    for (const e of recorded) {
      const version = Number(/:v(\d+)$/.exec(e.idempotency_key as string)![1]);
      expect(e.payload.inventory_level.available, e.idempotency_key).to.equal(version);
      expect(e.payload).to.include({ delta: 1, reason: 'received' });
    }
    expect(new Set(recorded.map((e) => e.idempotency_key)).size).to.equal(20);
    // Each response is exactly what its event shows.
    const byAvailable = new Map(recorded.map((e) => [e.payload.inventory_level.available as number, e.payload.inventory_level]));
    for (const r of replies) expect(byAvailable.get(r.body.data.available)).to.deep.equal(r.body.data);
    expect(await stored('inventory_levels', id)).to.not.have.property('pending_events');
  });
});
