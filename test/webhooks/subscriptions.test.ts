import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import type { Platform } from '../../src/platform.js';
import { openSecret } from '../../src/webhooks/subscriptions/signing.js';
import { subscriptions } from '../../src/webhooks/subscriptions/models.js';
import { createSubscription, updateSubscription, MAX_SUBSCRIPTIONS_PER_STORE } from '../../src/webhooks/subscriptions/service.js';
import type { Resolver } from '../../src/outbound/index.js';
import { useTestApp } from '../helpers/app.js';
import { counts, findPlaintext, snapshot } from '../helpers/database.js';
import { givenMerchantWithStore, type As } from '../helpers/factories.js';
import { givenSubscription } from '../helpers/webhooks.js';

const PATH = '/v1/operations/webhook-subscriptions';
const FIELDS = [
  'id',
  'target_url',
  'event_types',
  'active',
  'description',
  'disabled_reason',
  'disabled_at',
  'owner',
  'secret_rotated_at',
  'previous_secret_expires_at',
  'health',
  'failure_streak',
  'last_error',
  'failing_since',
  'last_success_at',
  'created_at',
  'updated_at',
];
const TARGET = 'https://hooks.example.com/emporium';

describe('Webhook subscriptions (/v1/operations/webhook-subscriptions)', () => {
  const { app, api } = useTestApp('webhook_subscriptions');
  let platform: Platform;
  /** Every secret any response showed, to scan the database and logs for at the end. */
  const secretsSeen: string[] = [];
  before(async () => {
    platform = app.platform;
  });

  /** A subscription (givenSubscription), its secret kept for the scan at the end. */
  async function subscribe(as: As, body: Record<string, unknown> = {}) {
    const subscription = await givenSubscription(api, as, body);
    secretsSeen.push(subscription.secret);
    return subscription;
  }

  const eventsOf = (id: string) => platform.db.collection('events').find({ 'payload.webhook_subscription.id': id }).sort({ _id: 1 }).toArray();

  describe('POST', () => {
    it('creates a subscription owned by the merchant, shows its secret once and records webhook_subscription.created', async () => {
      const { merchant, store, as } = await givenMerchantWithStore(api);
      const res = await api.post(PATH, { target_url: TARGET, event_types: ['order.created', 'product.*'], description: ' Fulfilment sync ' }, as);
      expect(res.status).to.equal(201);
      const { secret, ...view } = res.body.data;
      secretsSeen.push(secret);
      expect(secret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(view).to.have.all.keys(...FIELDS);
      expect(view).to.deep.include({
        target_url: TARGET,
        event_types: ['order.created', 'product.*'],
        active: true,
        description: 'Fulfilment sync',
        disabled_reason: null,
        disabled_at: null,
        owner: { type: 'merchant', id: merchant.id },
        previous_secret_expires_at: null,
      });
      expect(view.secret_rotated_at).to.equal(view.created_at);
      // Stored sealed, opening to the secret shown.
      const doc = await subscriptions(platform.db).findOne({ _id: new ObjectId(view.id) });
      expect(doc!.store_id.toHexString()).to.equal(store.id);
      expect(openSecret(platform.config.secretsKeys, doc!.secret!)).to.equal(secret);
      // Never again: not in get, list, or the event.
      const got = await api.get(`${PATH}/${view.id}`, as);
      expect(got.body.data).to.deep.equal(view);
      expect((await api.get(PATH, as)).body.data).to.deep.equal([view]);
      const [event] = await eventsOf(view.id);
      expect(event).to.include({ type: 'webhook_subscription.created', idempotency_key: `webhook_subscription.created:${view.id}` });
      expect(event!.store_id.toHexString()).to.equal(store.id);
      expect(event!.payload).to.deep.equal({ webhook_subscription: view });
    });

    it('takes every documented wildcard, drops duplicates and may start inactive', async () => {
      const { as } = await givenMerchantWithStore(api);
      const sub = await subscribe(as, { event_types: ['*', 'order.*', 'order.created', 'order.*'], active: false, description: '' });
      expect(sub).to.include({ active: false, description: null });
      expect(sub.event_types).to.deep.equal(['*', 'order.*', 'order.created']);
    });

    it('stores the URL as parsed and accepts plain http to loopback outside production', async () => {
      const { as } = await givenMerchantWithStore(api);
      expect((await subscribe(as, { target_url: 'HTTPS://Hooks.Example.com:8443/a?b=1' })).target_url).to.equal('https://hooks.example.com:8443/a?b=1');
      expect((await subscribe(as, { target_url: 'http://127.0.0.1:4567/hooks' })).target_url).to.equal('http://127.0.0.1:4567/hooks');
      expect((await subscribe(as, { target_url: 'http://localhost:4567' })).target_url).to.equal('http://localhost:4567/');
    });

    it('refuses bad input with path-prefixed details naming the bad event types, and changes nothing', async () => {
      const { as } = await givenMerchantWithStore(api);
      const before = await counts(platform.db);
      const cases: [unknown, RegExp][] = [
        [{ event_types: ['order.created'] }, /body\.target_url/],
        [{ target_url: TARGET }, /body\.event_types/],
        [{ target_url: TARGET, event_types: [] }, /body\.event_types: must name at least one event type/],
        [{ target_url: TARGET, event_types: 'order.created' }, /body\.event_types/],
        [{ target_url: TARGET, event_types: Array.from({ length: 51 }, () => 'order.created') }, /body\.event_types: must name at most 50/],
        [
          { target_url: TARGET, event_types: ['order.created', 'order.exploded', 'nope.*', 'Order.Created'] },
          /body\.event_types\.1: "order\.exploded" is not a known event type[\s\S]*body\.event_types\.2: "nope\.\*"[\s\S]*body\.event_types\.3: "Order\.Created"/,
        ],
        [{ target_url: TARGET, event_types: ['order.'] }, /body\.event_types\.0: "order\."/],
        [{ target_url: TARGET, event_types: [42] }, /body\.event_types\.0/],
        [{ target_url: TARGET, event_types: ['x'.repeat(101)] }, /body\.event_types\.0/],
        [{ target_url: TARGET, event_types: ['order.created'], active: 'yes' }, /body\.active/],
        [{ target_url: TARGET, event_types: ['order.created'], description: 'd'.repeat(501) }, /body\.description/],
        [{ target_url: TARGET, event_types: ['order.created'], description: 5 }, /body\.description/],
        [{ target_url: 5, event_types: ['order.created'] }, /body\.target_url/],
        [{ target_url: '', event_types: ['order.created'] }, /body\.target_url/],
        [{ target_url: TARGET, event_types: ['order.created'], secret: 'whsec_mine' }, /body: Unrecognized key: "secret"/],
        [{ target_url: TARGET, event_types: ['order.created'], owner: { type: 'merchant' } }, /body: Unrecognized key: "owner"/],
      ];
      for (const [body, detail] of cases) {
        const res = await api.post(PATH, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect((await api.post(`${PATH}?x=1`, { target_url: TARGET, event_types: ['order.created'] }, as)).status).to.equal(400);
      expect(await counts(platform.db)).to.deep.equal(before);
    });

    it('refuses targets that break the target rules with 400 invalid_target_url, and changes nothing', async () => {
      const { as } = await givenMerchantWithStore(api);
      const before = await counts(platform.db);
      const cases: [string, RegExp][] = [
        ['http://hooks.example.com/', /must use https; plain http is allowed only to localhost/],
        ['http://10.0.0.1/', /must use https/],
        ['ftp://hooks.example.com/', /must use https/],
        ['https://user:pw@hooks.example.com/', /credentials/],
        ['https://hooks.example.com/#x', /fragment/],
        ['hooks.example.com', /absolute URL/],
      ];
      for (const [url, reason] of cases) {
        const res = await api.post(PATH, { target_url: url, event_types: ['order.created'] }, as);
        expect(res.status, url).to.equal(400);
        expect(res.body.error.code, url).to.equal('invalid_target_url');
        expect(res.body.error.message, url).to.match(reason);
        expect(res.body.error.details, url).to.have.length(1);
        expect(res.body.error.details[0], url).to.match(/^body\.target_url: /);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
    });

    it('replays a retried Idempotency-Key with the same secret and creates one subscription', async () => {
      const { as } = await givenMerchantWithStore(api);
      const headers = { 'idempotency-key': 'sub-1' };
      const body = { target_url: TARGET, event_types: ['order.*'] };
      const first = await api.post(PATH, body, { ...as, headers });
      const second = await api.post(PATH, body, { ...as, headers });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      secretsSeen.push(first.body.data.secret);
      expect((await api.get(PATH, as)).body.data).to.have.length(1);
    });

    it(`allows at most ${MAX_SUBSCRIPTIONS_PER_STORE} subscriptions per store (409), and another store is not affected`, async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      const docs = Array.from({ length: MAX_SUBSCRIPTIONS_PER_STORE - 1 }, () => {
        const now = new Date();
        return {
          _id: new ObjectId(),
          store_id: new ObjectId(store.id),
          owner: { type: 'merchant' as const, id: new ObjectId() },
          target_url: TARGET,
          event_types: ['*'],
          description: null,
          active: true,
          disabled_reason: null,
          disabled_at: null,
          consecutive_failed_deliveries: 0,
          secret: { ciphertext: 'x', created_at: now },
          previous_secret: null,
          version: 1,
          created_at: now,
          updated_at: now,
        };
      });
      await subscriptions(platform.db).insertMany(docs);
      await subscribe(as); // the 50th
      const before = await counts(platform.db);
      const res = await api.post(PATH, { target_url: TARGET, event_types: ['*'] }, as);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('subscription_limit_reached');
      expect(await counts(platform.db)).to.deep.equal(before);
      await subscribe(other.as);
      // Deleting one makes room again.
      expect((await api.delete(`${PATH}/${docs[0]!._id.toHexString()}`, as)).status).to.equal(204);
      await subscribe(as);
    });

    it('never goes over the limit when creations race', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const now = new Date();
      await subscriptions(platform.db).insertMany(
        Array.from({ length: MAX_SUBSCRIPTIONS_PER_STORE - 3 }, () => ({
          _id: new ObjectId(),
          store_id: new ObjectId(store.id),
          owner: { type: 'merchant' as const, id: new ObjectId() },
          target_url: TARGET,
          event_types: ['*'],
          description: null,
          active: true,
          disabled_reason: null,
          disabled_at: null,
          consecutive_failed_deliveries: 0,
          secret: { ciphertext: 'x', created_at: now },
          previous_secret: null,
          version: 1,
          created_at: now,
          updated_at: now,
        })),
      );
      const replies = await Promise.all(Array.from({ length: 8 }, () => api.post(PATH, { target_url: TARGET, event_types: ['*'] }, as)));
      for (const r of replies) {
        expect([201, 409]).to.include(r.status);
        if (r.status === 201) secretsSeen.push(r.body.data.secret);
      }
      const created = replies.filter((r) => r.status === 201).length;
      expect(created).to.be.at.least(1).and.at.most(3);
      expect(await subscriptions(platform.db).countDocuments({ store_id: new ObjectId(store.id) })).to.be.at.most(MAX_SUBSCRIPTIONS_PER_STORE);
      expect(await platform.db.collection('events').countDocuments({ type: 'webhook_subscription.created', store_id: new ObjectId(store.id) })).to.equal(
        created,
      );
    });

    it('needs a session and a store the merchant owns (403 otherwise)', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const before = await counts(platform.db);
      const body = { target_url: TARGET, event_types: ['*'] };
      expect((await api.post(PATH, body)).status).to.equal(401);
      expect((await api.get(PATH)).status).to.equal(401);
      const forbidden = await api.post(PATH, body, { token: a.merchant.token, storeId: b.store.id });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body.error.code).to.equal('store_forbidden');
      expect((await api.get(PATH, { token: a.merchant.token, storeId: b.store.id })).status).to.equal(403);
      const sub = await subscribe(b.as);
      const after = await counts(platform.db);
      const asA = { token: a.merchant.token, storeId: b.store.id };
      expect((await api.get(`${PATH}/${sub.id}`, asA)).status).to.equal(403);
      expect((await api.patch(`${PATH}/${sub.id}`, { active: false }, asA)).status).to.equal(403);
      expect((await api.delete(`${PATH}/${sub.id}`, asA)).status).to.equal(403);
      expect((await api.post(`${PATH}/${sub.id}/rotate-secret`, {}, asA)).status).to.equal(403);
      expect((await api.post(PATH, body, { token: a.merchant.token })).body.error.code).to.equal('store_required');
      expect(await counts(platform.db)).to.not.deep.equal(before);
      expect(await counts(platform.db)).to.deep.equal(after);
    });
  });

  describe('GET', () => {
    it("lists only the store's subscriptions with cursor pagination", async () => {
      const { as } = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      await subscribe(other.as);
      const subs = [];
      for (let i = 0; i < 3; i++) subs.push(await subscribe(as, { description: `n${i}` }));
      const first = await api.get(`${PATH}?limit=2`, as);
      expect(first.status).to.equal(200);
      expect(first.body.data.map((s: any) => s.id)).to.deep.equal([subs[0].id, subs[1].id]);
      for (const s of first.body.data) expect(s).to.have.all.keys(...FIELDS);
      const second = await api.get(`${PATH}?limit=2&cursor=${first.body.page.next_cursor}`, as);
      expect(second.body.data.map((s: any) => s.id)).to.deep.equal([subs[2].id]);
      expect(second.body.page.next_cursor).to.equal(null);
      expect((await api.get(`${PATH}?limit=0`, as)).status).to.equal(400);
      expect((await api.get(`${PATH}?cursor=nope`, as)).status).to.equal(400);
      expect((await api.get(`${PATH}?active=true`, as)).status).to.equal(400);
    });

    it("answers 404 for an unknown id, a malformed id and another store's id", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const theirs = await subscribe(b.as);
      for (const id of [theirs.id, new ObjectId().toHexString(), 'not-an-id', 'ABCDEF0123456789ABCDEF01']) {
        const res = await api.get(`${PATH}/${id}`, a.as);
        expect(res.status, id).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
    });
  });

  describe('PATCH', () => {
    it('changes the given fields, checks a new target, and records webhook_subscription.updated with the changed fields', async () => {
      const { as } = await givenMerchantWithStore(api);
      const sub = await subscribe(as, { description: 'first' });
      const res = await api.patch(
        `${PATH}/${sub.id}`,
        { target_url: 'https://other.example.com/in', event_types: ['customer.*', 'customer.*'], description: null },
        as,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.have.all.keys(...FIELDS);
      expect(res.body.data).to.deep.include({ target_url: 'https://other.example.com/in', event_types: ['customer.*'], description: null, active: true });
      expect(res.body.data.secret_rotated_at).to.equal(sub.secret_rotated_at);
      const events = await eventsOf(sub.id);
      expect(events.map((e) => e.type)).to.deep.equal(['webhook_subscription.created', 'webhook_subscription.updated']);
      expect(events[1]!.idempotency_key).to.equal(`webhook_subscription.updated:${sub.id}:v2`);
      expect(events[1]!.payload).to.deep.equal({ webhook_subscription: res.body.data, changed: ['target_url', 'event_types', 'description'] });
      const paused = await api.patch(`${PATH}/${sub.id}`, { active: false }, as);
      expect(paused.body.data.active).to.equal(false);
      expect((await eventsOf(sub.id))[2]!.idempotency_key).to.equal(`webhook_subscription.updated:${sub.id}:v3`);
    });

    it('re-enabling a subscription the platform disabled clears the reason and the failure counts', async () => {
      const { as } = await givenMerchantWithStore(api);
      const sub = await subscribe(as);
      const disabledAt = new Date('2026-01-02T03:04:05.000Z');
      await subscriptions(platform.db).updateOne(
        { _id: new ObjectId(sub.id) },
        { $set: { active: false, disabled_reason: 'failing', disabled_at: disabledAt, consecutive_failed_deliveries: 7, consecutive_gone_deliveries: 3 } },
      );
      const shown = (await api.get(`${PATH}/${sub.id}`, as)).body.data;
      expect(shown).to.include({ active: false, disabled_reason: 'failing', disabled_at: disabledAt.toISOString() });
      // A change that is not re-enabling keeps the record.
      await api.patch(`${PATH}/${sub.id}`, { description: 'looking into it' }, as);
      expect((await api.get(`${PATH}/${sub.id}`, as)).body.data.disabled_reason).to.equal('failing');
      const res = await api.patch(`${PATH}/${sub.id}`, { active: true }, as);
      expect(res.body.data).to.include({ active: true, disabled_reason: null, disabled_at: null });
      const doc = await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) });
      expect(doc!.consecutive_failed_deliveries).to.equal(0);
      expect(doc!.consecutive_gone_deliveries).to.equal(0);
    });

    it('refuses bad input and bad targets and changes nothing', async () => {
      const { as } = await givenMerchantWithStore(api);
      const sub = await subscribe(as);
      const before = await counts(platform.db);
      const stored = await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) });
      const cases: [unknown, string, RegExp][] = [
        [{}, 'invalid_input', /body: give at least one of/],
        [{ event_types: [] }, 'invalid_input', /body\.event_types/],
        [{ event_types: ['order.nope'] }, 'invalid_input', /body\.event_types\.0: "order\.nope"/],
        [{ active: null }, 'invalid_input', /body\.active/],
        [{ target_url: null }, 'invalid_input', /body\.target_url/],
        [{ secret: 'x' }, 'invalid_input', /Unrecognized key: "secret"/],
        [{ owner: null }, 'invalid_input', /Unrecognized key: "owner"/],
        [{ disabled_reason: null }, 'invalid_input', /Unrecognized key: "disabled_reason"/],
        [{ target_url: 'http://example.com/' }, 'invalid_target_url', /body\.target_url: must use https/],
        [{ target_url: 'https://a:b@example.com/', active: true }, 'invalid_target_url', /credentials/],
      ];
      for (const [body, code, detail] of cases) {
        const res = await api.patch(`${PATH}/${sub.id}`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code, JSON.stringify(body)).to.equal(code);
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      expect(await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) })).to.deep.equal(stored);
    });

    it("answers 404 for another store's id and changes nothing", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const theirs = await subscribe(b.as);
      const stored = await subscriptions(platform.db).findOne({ _id: new ObjectId(theirs.id) });
      const before = await counts(platform.db);
      for (const body of [{ active: false }, { target_url: 'http://example.com/' }]) {
        const res = await api.patch(`${PATH}/${theirs.id}`, body, a.as);
        expect(res.status).to.equal(404);
      }
      expect((await api.patch(`${PATH}/nope`, { active: false }, a.as)).status).to.equal(404);
      expect(await counts(platform.db)).to.deep.equal(before);
      expect(await subscriptions(platform.db).findOne({ _id: new ObjectId(theirs.id) })).to.deep.equal(stored);
    });
  });

  describe('DELETE', () => {
    it('deletes and records webhook_subscription.deleted with the subscription as it was', async () => {
      const { as } = await givenMerchantWithStore(api);
      const sub = await subscribe(as);
      const { secret: _secret, ...view } = sub;
      const res = await api.delete(`${PATH}/${sub.id}`, as);
      expect(res.status).to.equal(204);
      expect((await api.get(`${PATH}/${sub.id}`, as)).status).to.equal(404);
      expect((await api.delete(`${PATH}/${sub.id}`, as)).status).to.equal(404);
      const events = await eventsOf(sub.id);
      expect(events[1]).to.include({ type: 'webhook_subscription.deleted', idempotency_key: `webhook_subscription.deleted:${sub.id}` });
      expect(events[1]!.payload).to.deep.equal({ webhook_subscription: view });
    });

    it("answers 404 for another store's id and keeps it", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const theirs = await subscribe(b.as);
      const before = await counts(platform.db);
      expect((await api.delete(`${PATH}/${theirs.id}`, a.as)).status).to.equal(404);
      expect(await counts(platform.db)).to.deep.equal(before);
      expect((await api.get(`${PATH}/${theirs.id}`, b.as)).status).to.equal(200);
    });
  });

  describe('POST /:id/rotate-secret', () => {
    it('returns a new secret once and keeps the previous one signing for the grace period (default one day)', async () => {
      const { as } = await givenMerchantWithStore(api);
      const sub = await subscribe(as);
      const oldSecret = sub.secret;
      const before = Date.now();
      const res = await api.post(`${PATH}/${sub.id}/rotate-secret`, {}, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { secret, ...view } = res.body.data;
      secretsSeen.push(secret);
      expect(secret)
        .to.match(/^whsec_/)
        .and.not.equal(oldSecret);
      expect(view).to.have.all.keys(...FIELDS);
      const expires = Date.parse(view.previous_secret_expires_at);
      expect(expires).to.be.within(before + 86_400_000 - 1000, Date.now() + 86_400_000 + 1000);
      expect(Date.parse(view.secret_rotated_at)).to.be.at.least(Date.parse(sub.secret_rotated_at));
      const doc = await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) });
      expect(openSecret(platform.config.secretsKeys, doc!.secret!)).to.equal(secret);
      expect(openSecret(platform.config.secretsKeys, doc!.previous_secret!)).to.equal(oldSecret);
      expect(doc!.previous_secret!.expires_at.getTime()).to.equal(expires);
      expect((await api.get(`${PATH}/${sub.id}`, as)).body.data).to.deep.equal(view);
      const events = await eventsOf(sub.id);
      expect(events[1]).to.include({ type: 'webhook_subscription.updated', idempotency_key: `webhook_subscription.updated:${sub.id}:v2` });
      expect(events[1]!.payload).to.deep.equal({ webhook_subscription: view, changed: ['secret'] });
    });

    it('takes a chosen grace period; 0 drops the previous secret at once; a second rotation replaces the previous one', async () => {
      const { as } = await givenMerchantWithStore(api);
      const sub = await subscribe(as);
      const first = await api.post(`${PATH}/${sub.id}/rotate-secret`, { grace_period_seconds: 604800 }, as);
      secretsSeen.push(first.body.data.secret);
      expect(Date.parse(first.body.data.previous_secret_expires_at) - Date.parse(first.body.data.secret_rotated_at)).to.equal(604_800_000);
      const second = await api.post(`${PATH}/${sub.id}/rotate-secret`, { grace_period_seconds: 60 }, as);
      secretsSeen.push(second.body.data.secret);
      let doc = await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) });
      expect(openSecret(platform.config.secretsKeys, doc!.previous_secret!)).to.equal(first.body.data.secret);
      const now = await api.post(`${PATH}/${sub.id}/rotate-secret`, { grace_period_seconds: 0 }, as);
      secretsSeen.push(now.body.data.secret);
      expect(now.body.data.previous_secret_expires_at).to.equal(null);
      doc = await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) });
      expect(doc!.previous_secret).to.equal(null);
      expect(openSecret(platform.config.secretsKeys, doc!.secret!)).to.equal(now.body.data.secret);
      expect(doc!.version).to.equal(4);
    });

    it("refuses bad input, another store's id and unknown ids, and changes nothing", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const sub = await subscribe(a.as);
      const theirs = await subscribe(b.as);
      const before = await counts(platform.db);
      const stored = await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) });
      const cases: [unknown, RegExp][] = [
        [{ grace_period_seconds: -1 }, /body\.grace_period_seconds/],
        [{ grace_period_seconds: 604801 }, /body\.grace_period_seconds/],
        [{ grace_period_seconds: 1.5 }, /body\.grace_period_seconds/],
        [{ grace_period_seconds: '60' }, /body\.grace_period_seconds/],
        [{ grace: 60 }, /Unrecognized key: "grace"/],
      ];
      for (const [body, detail] of cases) {
        const res = await api.post(`${PATH}/${sub.id}/rotate-secret`, body, a.as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.details.join('\n')).to.match(detail);
      }
      expect((await api.post(`${PATH}/${theirs.id}/rotate-secret`, {}, a.as)).status).to.equal(404);
      expect((await api.post(`${PATH}/${new ObjectId().toHexString()}/rotate-secret`, {}, a.as)).status).to.equal(404);
      expect((await api.post(`${PATH}/x/rotate-secret`, {}, a.as)).status).to.equal(404);
      expect(await counts(platform.db)).to.deep.equal(before);
      expect(await subscriptions(platform.db).findOne({ _id: new ObjectId(sub.id) })).to.deep.equal(stored);
    });
  });

  describe('production target rules (service)', () => {
    const prod = loadConfig({
      APP_ENV: 'production',
      SECRETS_KEYS: `k1:${Buffer.alloc(32, 9).toString('base64url')}`,
      MONGODB_URL: 'mongodb://127.0.0.1:1/none',
      MESSAGE_RELAY_URL: 'https://relay.example',
      MESSAGE_RELAY_TOKEN: 'relay-token-0123456789',
      WEBHOOK_TARGET_ALLOWLIST: 'partner-vpn.example',
    });
    const resolver: Resolver = async (host) => {
      const table: Record<string, string> = { 'public.example': '93.184.216.34', 'intranet.example': '10.2.3.4', 'partner-vpn.example': '10.9.9.9' };
      if (!table[host]) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return [{ address: table[host]!, family: 4 }];
    };

    it('refuses private targets at creation and update unless allow-listed', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      const prodPlatform = { ...platform, config: prod };
      const owner = { type: 'merchant' as const, id: merchant.id };
      const input = (target_url: string) => ({ target_url, event_types: ['*'], active: true, description: null });
      const before = await counts(platform.db);
      for (const [url, reason] of [
        ['https://intranet.example/hooks', /resolves to 10\.2\.3\.4, which is a private address/],
        ['https://localhost/', /loopback/],
        ['https://169.254.169.254/', /link-local/],
        ['https://[::ffff:127.0.0.1]/', /loopback/],
        ['http://public.example/', /must use https when APP_ENV is production/],
        ['http://localhost:3000/', /must use https when APP_ENV is production/],
        ['https://nowhere.example/', /could not be resolved/],
      ] as const) {
        try {
          await createSubscription(prodPlatform, store.id, owner, input(url), { resolver });
          expect.fail(`${url} was accepted`);
        } catch (err: any) {
          expect(err.code, url).to.equal('invalid_target_url');
          expect(err.kind, url).to.equal('invalid_data');
          expect(err.message, url).to.match(reason);
        }
      }
      // Nothing changes but the records of the address refusals for operators (docs/operations.md, Security enforcement).
      const { enforcement_events: _recorded, ...after } = await counts(platform.db);
      const { enforcement_events: _before, ...unchanged } = before;
      expect(after).to.deep.equal(unchanged);
      const ok = await createSubscription(prodPlatform, store.id, owner, input('https://public.example/hooks'), { resolver });
      secretsSeen.push(ok.secret);
      const vpn = await createSubscription(prodPlatform, store.id, owner, input('https://partner-vpn.example/hooks'), { resolver });
      secretsSeen.push(vpn.secret);
      try {
        await updateSubscription(prodPlatform, store.id, ok.id, { target_url: 'https://intranet.example/' }, { resolver });
        expect.fail('update accepted a private target');
      } catch (err: any) {
        expect(err.code).to.equal('invalid_target_url');
      }
      expect((await subscriptions(platform.db).findOne({ _id: new ObjectId(ok.id) }))!.target_url).to.equal('https://public.example/hooks');
    });
  });

  describe('secrets at rest and in logs', () => {
    it('no plaintext signing secret is in the database or the log', async () => {
      expect(secretsSeen.length).to.be.greaterThan(10);
      // findPlaintext for one secret (the helper's exact check), then one snapshot for all of them.
      expect(await findPlaintext(platform.db, secretsSeen[0]!)).to.deep.equal([]);
      const everything = JSON.stringify(await snapshot(platform.db));
      const logs = app.logLines.join('');
      for (const secret of secretsSeen) {
        expect(secret).to.match(/^whsec_/);
        // The part after the prefix: a secret stored or logged without it would leak as well.
        expect(everything.includes(secret.slice(6)), secret).to.equal(false);
        expect(logs.includes(secret.slice(6)), secret).to.equal(false);
      }
    });
  });
});
