import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { claimCouponRedemption, evaluateCoupon, undoCouponRedemption, type CouponRedemption } from '../../src/coupons/index.js';
import type { Platform } from '../../src/platform.js';
import { useTestApp } from '../helpers/app.js';
import { givenCoupon } from '../helpers/coupons.js';
import { counts } from '../helpers/database.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

const PATH = '/v1/coupons';
const FIELDS = [
  'id',
  'code',
  'type',
  'value',
  'currency',
  'minimum_subtotal',
  'usage_limit',
  'usage_limit_per_customer',
  'usage_count',
  'starts_at',
  'ends_at',
  'active',
  'created_at',
  'updated_at',
];
const PAST = '2020-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T00:00:00.000Z';

describe('Coupons (/v1/coupons)', () => {
  const { app, api } = useTestApp('coupons');
  let platform: Platform;
  before(async () => {
    platform = app.platform;
  });

  let seq = 0;
  /** One use counted for a new order (as the orders domain claims it); refusals are thrown. */
  async function redeem(storeId: string, couponId: string, customerKey: string | null = null): Promise<CouponRedemption> {
    const r = { key: `op-${++seq}.0`, coupon_id: couponId, order_id: new ObjectId().toHexString(), customer_key: customerKey };
    const outcome = await claimCouponRedemption(platform, storeId, r);
    if (outcome.outcome === 'refused') throw outcome.error;
    expect(outcome.outcome).to.equal('applied');
    return r;
  }
  const usageCount = async (as: { token: string; storeId: string }, id: string) => (await api.get(`${PATH}/${id}`, as)).body.data.usage_count;

  describe('POST /v1/coupons', () => {
    it('creates a coupon with defaults in the store currency and records coupon.created', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const res = await api.post(PATH, { code: 'Summer-10', type: 'percentage', value: 10 }, as);
      expect(res.status).to.equal(201);
      expect(res.body.data).to.have.all.keys(...FIELDS);
      expect(res.body.data).to.include({
        code: 'Summer-10',
        type: 'percentage',
        value: 10,
        currency: 'USD',
        minimum_subtotal: null,
        usage_limit: null,
        usage_limit_per_customer: null,
        usage_count: 0,
        starts_at: null,
        ends_at: null,
        active: true,
      });
      const event = await platform.db.collection('events').findOne({ idempotency_key: `coupon.created:${res.body.data.id}` });
      expect(event?.type).to.equal('coupon.created');
      expect(event?.store_id.toHexString()).to.equal(store.id);
      expect(event?.payload).to.deep.equal({ coupon: res.body.data });
      expect((await api.get(`${PATH}/${res.body.data.id}`, as)).body.data).to.deep.equal(res.body.data);
    });

    it('takes every field, and times with an offset come back in UTC', async () => {
      const { as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, {
        code: 'BIG_SPENDER',
        type: 'fixed_amount',
        value: 1500,
        minimum_subtotal: 10000,
        usage_limit: 100,
        usage_limit_per_customer: 1,
        starts_at: '2026-01-01T01:00:00+01:00',
        ends_at: '2099-12-31T23:59:59Z',
        active: false,
      });
      expect(coupon).to.include({ type: 'fixed_amount', value: 1500, minimum_subtotal: 10000, usage_limit: 100, usage_limit_per_customer: 1, active: false });
      expect(coupon.starts_at).to.equal('2026-01-01T00:00:00.000Z');
      expect(coupon.ends_at).to.equal('2099-12-31T23:59:59.000Z');
      const free = await givenCoupon(api, as, { code: 'ship', type: 'free_shipping' });
      expect(free.value).to.equal(null);
    });

    it('refuses a code already used in the store, in any case, with 409; another store may use it', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      await givenCoupon(api, a.as, { code: 'WELCOME', type: 'free_shipping' });
      const before = await counts(platform.db);
      for (const code of ['WELCOME', 'welcome', 'WelCome']) {
        const res = await api.post(PATH, { code, type: 'percentage', value: 5 }, a.as);
        expect(res.status, code).to.equal(409);
        expect(res.body.error.code).to.equal('coupon_code_taken');
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      await givenCoupon(api, b.as, { code: 'welcome', type: 'free_shipping' });
    });

    it('replays a retried Idempotency-Key and creates one coupon', async () => {
      const { as } = await givenMerchantWithStore(api);
      const headers = { 'idempotency-key': 'coupon-1' };
      const body = { code: 'ONCE-ONLY', type: 'free_shipping' };
      const first = await api.post(PATH, body, { ...as, headers });
      const second = await api.post(PATH, body, { ...as, headers });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      expect((await api.get(PATH, as)).body.data).to.have.length(1);
    });

    it('refuses bad input, field by field and across fields, and changes nothing', async () => {
      const { as } = await givenMerchantWithStore(api);
      const before = await counts(platform.db);
      const cases: [unknown, RegExp][] = [
        [{ type: 'percentage', value: 10 }, /body\.code/],
        [{ code: 'AB', type: 'percentage', value: 10 }, /body\.code: must be at least 3/],
        [{ code: 'A'.repeat(41), type: 'percentage', value: 10 }, /body\.code: must be at most 40/],
        [{ code: 'HAS SPACE', type: 'percentage', value: 10 }, /body\.code: must be letters/],
        [{ code: 'ÉTÉ2026', type: 'percentage', value: 10 }, /body\.code: must be letters/],
        [{ code: 'OK1', type: 'bogo', value: 10 }, /body\.type/],
        [{ code: 'OK1', type: 'percentage' }, /body\.value: is required for percentage/],
        [{ code: 'OK1', type: 'percentage', value: 0 }, /body\.value/],
        [{ code: 'OK1', type: 'percentage', value: 101 }, /body\.value: must be a whole percent/],
        [{ code: 'OK1', type: 'percentage', value: 12.5 }, /body\.value/],
        [{ code: 'OK1', type: 'fixed_amount' }, /body\.value: is required for fixed_amount/],
        [{ code: 'OK1', type: 'fixed_amount', value: -100 }, /body\.value/],
        [{ code: 'OK1', type: 'fixed_amount', value: 9.99 }, /body\.value/],
        [{ code: 'OK1', type: 'free_shipping', value: 10 }, /body\.value: is not allowed for free_shipping/],
        [{ code: 'OK1', type: 'free_shipping', minimum_subtotal: -1 }, /body\.minimum_subtotal/],
        [{ code: 'OK1', type: 'free_shipping', usage_limit: 0 }, /body\.usage_limit/],
        [{ code: 'OK1', type: 'free_shipping', usage_limit_per_customer: 1.5 }, /body\.usage_limit_per_customer/],
        [{ code: 'OK1', type: 'free_shipping', starts_at: '2026-01-01' }, /body\.starts_at: must be an ISO 8601/],
        [{ code: 'OK1', type: 'free_shipping', starts_at: FUTURE, ends_at: PAST }, /body\.ends_at: must be after starts_at/],
        [{ code: 'OK1', type: 'free_shipping', starts_at: PAST, ends_at: PAST }, /body\.ends_at: must be after starts_at/],
        [{ code: 'OK1', type: 'free_shipping', active: 'yes' }, /body\.active/],
        [{ code: 'OK1', type: 'free_shipping', usage_count: 5 }, /body: Unrecognized key: "usage_count"/],
        [{ code: 'OK1', type: 'fixed_amount', value: 100, currency: 'EUR' }, /body: Unrecognized key: "currency"/],
      ];
      for (const [body, detail] of cases) {
        const res = await api.post(PATH, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
    });

    it('needs a session and a store the merchant owns (403 otherwise)', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const before = await counts(platform.db);
      expect((await api.post(PATH, { code: 'X12', type: 'free_shipping' })).status).to.equal(401);
      const forbidden = await api.post(PATH, { code: 'X12', type: 'free_shipping' }, { token: a.merchant.token, storeId: b.store.id });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body.error.code).to.equal('store_forbidden');
      expect((await api.get(PATH, { token: a.merchant.token, storeId: b.store.id })).status).to.equal(403);
      expect((await api.post(`${PATH}/evaluate`, { code: 'X12', subtotal: 1, shipping: 0 }, { token: a.merchant.token, storeId: b.store.id })).status).to.equal(
        403,
      );
      expect(await counts(platform.db)).to.deep.equal(before);
    });
  });

  describe('GET /v1/coupons', () => {
    it("lists the store's coupons with cursor pagination, ?active and a case-insensitive ?query prefix", async () => {
      const { as } = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      await givenCoupon(api, other.as, { code: 'SUMMER-OTHER', type: 'free_shipping' });
      const summer = await givenCoupon(api, as, { code: 'summer-10', type: 'percentage', value: 10 });
      const summer2 = await givenCoupon(api, as, { code: 'SUMMER_20', type: 'percentage', value: 20, active: false });
      const winter = await givenCoupon(api, as, { code: 'Winter', type: 'free_shipping' });
      const sum = await givenCoupon(api, as, { code: 'SUM', type: 'free_shipping' });

      const first = await api.get(`${PATH}?limit=3`, as);
      expect(first.body.data.map((c: any) => c.id)).to.deep.equal([summer.id, summer2.id, winter.id]);
      const second = await api.get(`${PATH}?limit=3&cursor=${first.body.page.next_cursor}`, as);
      expect(second.body.data.map((c: any) => c.id)).to.deep.equal([sum.id]);
      expect(second.body.page.next_cursor).to.equal(null);

      const ids = async (query: string) => (await api.get(`${PATH}?${query}`, as)).body.data.map((c: any) => c.code);
      expect(await ids('query=sUmMeR')).to.deep.equal(['summer-10', 'SUMMER_20']);
      expect(await ids('query=summer-')).to.deep.equal(['summer-10']);
      expect(await ids('query=sum')).to.deep.equal(['summer-10', 'SUMMER_20', 'SUM']);
      expect(await ids('query=SUMMERS')).to.deep.equal([]);
      expect(await ids('active=false')).to.deep.equal(['SUMMER_20']);
      expect(await ids('active=true&query=summer')).to.deep.equal(['summer-10']);
    });

    it('refuses bad filters', async () => {
      const { as } = await givenMerchantWithStore(api);
      for (const query of ['active=yes', 'query=a%20b', 'query=', 'query=.*', 'limit=0', 'cursor=x', 'type=percentage']) {
        const res = await api.get(`${PATH}?${query}`, as);
        expect(res.status, query).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
    });
  });

  describe('PATCH and DELETE /v1/coupons/:id', () => {
    it('updates fields, checks the rules on the result, and records coupon.updated per change', async () => {
      const { as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, { code: 'FLEX', type: 'percentage', value: 10, starts_at: '2026-01-01T00:00:00Z' });
      const first = await api.patch(`${PATH}/${coupon.id}`, { value: 15, active: false }, as);
      expect(first.status).to.equal(200);
      expect(first.body.data).to.include({ value: 15, active: false, code: 'FLEX' });
      const before = await counts(platform.db);
      for (const [body, detail] of [
        [{ type: 'free_shipping' }, /body\.value: is not allowed for free_shipping/],
        [{ type: 'fixed_amount', value: null }, /body\.value: is required for fixed_amount/],
        [{ value: 150 }, /body\.value: must be a whole percent/],
        [{ ends_at: '2025-12-31T00:00:00Z' }, /body\.ends_at: must be after starts_at/],
        [{}, /body: give at least one field/],
        [{ usage_count: 0 }, /body: Unrecognized key: "usage_count"/],
        [{ code: 'x' }, /body\.code/],
      ] as [unknown, RegExp][]) {
        const res = await api.patch(`${PATH}/${coupon.id}`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      const second = await api.patch(`${PATH}/${coupon.id}`, { type: 'free_shipping', value: null, code: 'flex-ship' }, as);
      expect(second.status).to.equal(200);
      expect(second.body.data).to.include({ type: 'free_shipping', value: null, code: 'flex-ship' });
      const events = await platform.db.collection('events').find({ type: 'coupon.updated', 'payload.coupon.id': coupon.id }).sort({ _id: 1 }).toArray();
      expect(events.map((e) => e.idempotency_key)).to.deep.equal([`coupon.updated:${coupon.id}:v2`, `coupon.updated:${coupon.id}:v3`]);
      expect(events.map((e) => e.payload.changed)).to.deep.equal([
        ['value', 'active'],
        ['code', 'type', 'value'],
      ]);
      expect(events[1]!.payload.coupon).to.deep.equal(second.body.data);
    });

    it('refuses to rename to a code the store uses in another case (409), but allows re-casing its own', async () => {
      const { as } = await givenMerchantWithStore(api);
      await givenCoupon(api, as, { code: 'TAKEN', type: 'free_shipping' });
      const mine = await givenCoupon(api, as, { code: 'MINE', type: 'free_shipping' });
      const res = await api.patch(`${PATH}/${mine.id}`, { code: 'taken' }, as);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('coupon_code_taken');
      expect((await api.get(`${PATH}/${mine.id}`, as)).body.data.code).to.equal('MINE');
      expect((await api.patch(`${PATH}/${mine.id}`, { code: 'mine' }, as)).body.data.code).to.equal('mine');
    });

    it('deletes a coupon for good, records coupon.deleted, and frees its code', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, { code: 'GONE', type: 'free_shipping' });
      const res = await api.delete(`${PATH}/${coupon.id}`, as);
      expect(res.status).to.equal(204);
      expect((await api.get(`${PATH}/${coupon.id}`, as)).status).to.equal(404);
      expect((await api.delete(`${PATH}/${coupon.id}`, as)).status).to.equal(404);
      const event = await platform.db.collection('events').findOne({ idempotency_key: `coupon.deleted:${coupon.id}` });
      expect(event?.store_id.toHexString()).to.equal(store.id);
      expect(event?.payload).to.deep.equal({ coupon });
      await givenCoupon(api, as, { code: 'gone', type: 'free_shipping' });
    });

    it("answers 404 for another store's coupon on get, update and delete, changing nothing", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const theirs = await givenCoupon(api, b.as, { code: 'THEIRS', type: 'percentage', value: 10 });
      const before = await counts(platform.db);
      for (const id of [theirs.id, '0'.repeat(24), 'nope']) {
        for (const res of [
          await api.get(`${PATH}/${id}`, a.as),
          await api.patch(`${PATH}/${id}`, { value: 50 }, a.as),
          await api.delete(`${PATH}/${id}`, a.as),
        ]) {
          expect(res.status, id).to.equal(404);
          expect(res.body.error.code).to.equal('not_found');
        }
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      expect((await api.get(`${PATH}/${theirs.id}`, b.as)).body.data).to.deep.equal(theirs);
      for (const res of [
        await api.get(`${PATH}/${theirs.id}`, { token: a.merchant.token, storeId: b.store.id }),
        await api.patch(`${PATH}/${theirs.id}`, { value: 50 }, { token: a.merchant.token, storeId: b.store.id }),
        await api.delete(`${PATH}/${theirs.id}`, { token: a.merchant.token, storeId: b.store.id }),
      ])
        expect(res.status).to.equal(403);
      expect(await counts(platform.db)).to.deep.equal(before);
    });
  });

  describe('evaluateCoupon and POST /v1/coupons/evaluate', () => {
    it('answers the evaluation table', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      await givenCoupon(api, other.as, { code: 'OTHERS', type: 'percentage', value: 50 });
      await givenCoupon(api, as, { code: 'PCT15', type: 'percentage', value: 15 });
      await givenCoupon(api, as, { code: 'PCT100', type: 'percentage', value: 100 });
      await givenCoupon(api, as, { code: 'FIX1000', type: 'fixed_amount', value: 1000 });
      await givenCoupon(api, as, { code: 'SHIPFREE', type: 'free_shipping' });
      await givenCoupon(api, as, { code: 'OFF', type: 'percentage', value: 10, active: false });
      await givenCoupon(api, as, { code: 'SOON', type: 'percentage', value: 10, starts_at: FUTURE });
      await givenCoupon(api, as, { code: 'OVER', type: 'percentage', value: 10, ends_at: PAST });
      const used = await givenCoupon(api, as, { code: 'ONCE', type: 'percentage', value: 10, usage_limit: 1 });
      await redeem(store.id, used.id);
      const perCustomer = await givenCoupon(api, as, { code: 'PERCUST', type: 'percentage', value: 10, usage_limit_per_customer: 2 });
      for (let i = 0; i < 2; i++) await redeem(store.id, perCustomer.id, 'email:twice@example.com');
      await givenCoupon(api, as, { code: 'MIN50', type: 'fixed_amount', value: 500, minimum_subtotal: 5000 });
      await givenCoupon(api, as, { code: 'PCTMIN', type: 'percentage', value: 10, minimum_subtotal: 100 });

      const usd = { subtotal: 999, shipping: 499, currency: 'USD' };
      const table: [string, Record<string, unknown>, unknown][] = [
        ['PCT15', usd, { subtotal: 149, shipping: 0 }], // 149.85 rounds down
        ['pct15', { ...usd, subtotal: 1 }, { subtotal: 0, shipping: 0 }],
        ['PCT100', usd, { subtotal: 999, shipping: 0 }],
        ['FIX1000', usd, { subtotal: 999, shipping: 0 }], // never more than the subtotal
        ['FIX1000', { ...usd, subtotal: 5000 }, { subtotal: 1000, shipping: 0 }],
        ['ShipFree', usd, { subtotal: 0, shipping: 499 }],
        ['SHIPFREE', { ...usd, shipping: 0 }, { subtotal: 0, shipping: 0 }],
        ['SHIPFREE', { ...usd, currency: 'EUR' }, { subtotal: 0, shipping: 499 }], // no amounts, any currency
        ['PCT15', { ...usd, currency: 'EUR' }, { subtotal: 149, shipping: 0 }],
        ['NOPE', usd, 'not_found'],
        ['OTHERS', usd, 'not_found'],
        ['bad code!', usd, 'not_found'],
        ['OFF', usd, 'inactive'],
        ['SOON', usd, 'not_started'],
        ['OVER', usd, 'expired'],
        ['ONCE', usd, 'usage_limit_reached'],
        ['PERCUST', { ...usd, customer_id: 'c'.repeat(24), customer_usage_count: 2 }, 'customer_usage_limit_reached'],
        ['PERCUST', { ...usd, customer_id: 'c'.repeat(24), customer_usage_count: 1 }, { subtotal: 99, shipping: 0 }],
        ['PERCUST', usd, { subtotal: 99, shipping: 0 }],
        ['PERCUST', { ...usd, customer_id: 'd'.repeat(24) }, { subtotal: 99, shipping: 0 }], // counted from its redemptions: none
        ['PERCUST', { ...usd, customer_email: 'twice@example.com' }, 'customer_usage_limit_reached'],
        ['PERCUST', { ...usd, redeeming: true }, 'customer_required'],
        ['MIN50', { ...usd, subtotal: 4999 }, 'minimum_subtotal_not_met'],
        ['MIN50', { ...usd, subtotal: 5000 }, { subtotal: 500, shipping: 0 }],
        ['FIX1000', { ...usd, currency: 'EUR' }, 'currency_mismatch'],
        ['PCTMIN', { ...usd, currency: 'EUR' }, 'currency_mismatch'],
      ];
      for (const [code, cart, expected] of table) {
        const result = await evaluateCoupon(platform, store.id, code, cart as any);
        const label = `${code} ${JSON.stringify(cart)}`;
        if (typeof expected === 'string') {
          expect(result, label).to.deep.equal({ applicable: false, reason: expected });
        } else {
          expect(result.applicable, label).to.equal(true);
          if (result.applicable) {
            expect(result.discount, label).to.deep.equal(expected);
            expect(result.coupon.code.toUpperCase()).to.equal(code.toUpperCase());
          }
        }
        if (cart.currency === 'USD' && !('customer_email' in cart) && !('redeeming' in cart)) {
          const { currency: _currency, ...body } = cart;
          const res = await api.post(`${PATH}/evaluate`, { code, ...body }, as);
          expect(res.status, label).to.equal(200);
          expect(res.body.data, label).to.deep.equal(result);
        }
      }
    });

    it('judges start and end against the clock, ends_at exclusive', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      await givenCoupon(api, as, { code: 'WINDOW', type: 'percentage', value: 10, starts_at: '2030-01-01T00:00:00Z', ends_at: '2030-02-01T00:00:00Z' });
      const at = (iso: string) => ({ ...platform, clock: { now: () => new Date(iso) } });
      const cart = { subtotal: 1000, shipping: 0, currency: 'USD' };
      const reason = async (iso: string) => {
        const r = await evaluateCoupon(at(iso), store.id, 'WINDOW', cart);
        return r.applicable ? 'applicable' : r.reason;
      };
      expect(await reason('2029-12-31T23:59:59.999Z')).to.equal('not_started');
      expect(await reason('2030-01-01T00:00:00.000Z')).to.equal('applicable');
      expect(await reason('2030-01-31T23:59:59.999Z')).to.equal('applicable');
      expect(await reason('2030-02-01T00:00:00.000Z')).to.equal('expired');
    });

    it('changes nothing and refuses bad input', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, { code: 'LIMITED', type: 'percentage', value: 10, usage_limit: 1 });
      const before = await counts(platform.db);
      for (let i = 0; i < 3; i++)
        expect((await api.post(`${PATH}/evaluate`, { code: 'LIMITED', subtotal: 100, shipping: 0 }, as)).body.data.applicable).to.equal(true);
      for (const body of [
        { subtotal: 100, shipping: 0 },
        { code: 'LIMITED', subtotal: -1, shipping: 0 },
        { code: 'LIMITED', subtotal: 1.5, shipping: 0 },
        { code: 'LIMITED', subtotal: 100 },
        { code: 'LIMITED', subtotal: 100, shipping: 0, currency: 'EUR' },
        { code: 'LIMITED', subtotal: 100, shipping: 0, customer_id: 'x' },
      ]) {
        const res = await api.post(`${PATH}/evaluate`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      expect((await api.get(`${PATH}/${coupon.id}`, as)).body.data.usage_count).to.equal(0);
      for (const cart of [
        { subtotal: -1, shipping: 0, currency: 'USD' },
        { subtotal: 0.5, shipping: 0, currency: 'USD' },
        { subtotal: 1, shipping: 0, currency: 'usd' },
      ]) {
        try {
          await evaluateCoupon(platform, store.id, 'LIMITED', cart);
          expect.fail('expected invalid_cart');
        } catch (err) {
          expect((err as { code: string }).code).to.equal('invalid_cart');
        }
      }
    });
  });

  describe('redemptions (claimCouponRedemption, for the orders domain)', () => {
    it('lets exactly 10 of 30 parallel claims through a usage limit of 10', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, { code: 'TEN', type: 'percentage', value: 10, usage_limit: 10 });
      const results = await Promise.allSettled(Array.from({ length: 30 }, () => redeem(store.id, coupon.id)));
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(10);
      expect(refused.map((r) => r.reason.code)).to.deep.equal(Array(20).fill('usage_limit_reached'));
      expect(await usageCount(as, coupon.id)).to.equal(10);
      expect(await platform.db.collection('coupon_redemptions').countDocuments({ coupon_id: new ObjectId(coupon.id), voided: false })).to.equal(10);
    });

    it('holds a per-customer limit under concurrency: 10 parallel claims of one customer against a limit of 2', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, { code: 'TWICE', type: 'percentage', value: 10, usage_limit_per_customer: 2 });
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => redeem(store.id, coupon.id, 'customer:c1')));
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(2);
      expect(refused.map((r) => r.reason.code)).to.deep.equal(Array(8).fill('customer_usage_limit_reached'));
      expect(await usageCount(as, coupon.id)).to.equal(2);
      await redeem(store.id, coupon.id, 'customer:c2');
      await expectCode(redeem(store.id, coupon.id, null), 'customer_required');
      expect(await usageCount(as, coupon.id)).to.equal(3);
    });

    it('counts a claim repeated with the same key once; an undone claim counts nothing, and a voided one never can', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, { code: 'ONCE-ONLY', type: 'free_shipping', usage_limit: 5, usage_limit_per_customer: 1 });
      const r = await redeem(store.id, coupon.id, 'customer:c1');
      expect(await claimCouponRedemption(platform, store.id, r)).to.deep.equal({ outcome: 'applied' });
      expect(await usageCount(as, coupon.id)).to.equal(1);
      await undoCouponRedemption(platform, store.id, r, { void: false });
      expect(await usageCount(as, coupon.id)).to.equal(0);
      expect(await platform.db.collection('coupon_redemptions').countDocuments({ coupon_id: new ObjectId(coupon.id) })).to.equal(0);

      // Undone by another process before the claim ran (a takeover): the late claim finds it voided.
      const late = { key: 'op-late.0', coupon_id: coupon.id, order_id: new ObjectId().toHexString(), customer_key: 'customer:c1' };
      await undoCouponRedemption(platform, store.id, late, { void: true });
      expect(await claimCouponRedemption(platform, store.id, late)).to.deep.equal({ outcome: 'voided' });
      expect(await usageCount(as, coupon.id)).to.equal(0);
      expect(await platform.db.collection('coupon_redemptions').countDocuments({ coupon_id: new ObjectId(coupon.id), voided: false })).to.equal(0);
      await redeem(store.id, coupon.id, 'customer:c1');
      expect((await api.get(`${PATH}/${coupon.id}`, as)).body.data).to.include({ usage_count: 1 });
    });

    it('counts unlimited coupons, and follows a changed usage limit', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const coupon = await givenCoupon(api, as, { code: 'MANY', type: 'free_shipping' });
      for (let i = 0; i < 3; i++) await redeem(store.id, coupon.id);
      expect(await usageCount(as, coupon.id)).to.equal(3);

      await api.patch(`${PATH}/${coupon.id}`, { usage_limit: 2 }, as);
      await expectCode(redeem(store.id, coupon.id), 'usage_limit_reached');
      const cart = { subtotal: 100, shipping: 10, currency: 'USD' };
      expect(await evaluateCoupon(platform, store.id, 'MANY', cart)).to.deep.equal({ applicable: false, reason: 'usage_limit_reached' });

      await api.patch(`${PATH}/${coupon.id}`, { usage_limit: 4 }, as);
      await redeem(store.id, coupon.id);
      expect(await usageCount(as, coupon.id)).to.equal(4);
      await expectCode(redeem(store.id, coupon.id), 'usage_limit_reached');

      await api.patch(`${PATH}/${coupon.id}`, { usage_limit: null }, as);
      await redeem(store.id, coupon.id);
      expect(await usageCount(as, coupon.id)).to.equal(5);
    });

    it("refuses inactive, unstarted, expired and other stores' coupons, counting nothing", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const off = await givenCoupon(api, a.as, { code: 'OFF', type: 'free_shipping', active: false });
      const soon = await givenCoupon(api, a.as, { code: 'SOON', type: 'free_shipping', starts_at: FUTURE });
      const over = await givenCoupon(api, a.as, { code: 'OVER', type: 'free_shipping', ends_at: PAST });
      await expectCode(redeem(a.store.id, off.id), 'coupon_inactive');
      await expectCode(redeem(a.store.id, soon.id), 'coupon_not_started');
      await expectCode(redeem(a.store.id, over.id), 'coupon_expired');
      await expectCode(redeem(b.store.id, off.id), 'coupon_not_found');
      const ids = [off.id, soon.id, over.id].map((id: string) => new ObjectId(id));
      expect(await platform.db.collection('coupons').countDocuments({ _id: { $in: ids } })).to.equal(3);
      expect(await platform.db.collection('coupons').countDocuments({ _id: { $in: ids }, usage_count: { $gt: 0 } })).to.equal(0);
      expect(await platform.db.collection('coupon_redemptions').countDocuments({ coupon_id: { $in: ids } })).to.equal(0);
    });
  });
});

async function expectCode(promise: Promise<unknown>, code: string) {
  try {
    await promise;
  } catch (err) {
    expect((err as { code?: string }).code).to.equal(code);
    return;
  }
  expect.fail(`expected ${code}`);
}
