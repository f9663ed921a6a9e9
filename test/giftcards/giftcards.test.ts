import { expect } from 'chai';
import { debitGiftCard, findGiftCardByCode } from '../../src/giftcards/index.js';
import type { Platform } from '../../src/platform.js';
import { useTestApp } from '../helpers/app.js';
import { givenCustomer } from '../helpers/customers.js';
import { counts, findPlaintext } from '../helpers/database.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

const PATH = '/v1/products/gift-cards';
const FIELDS = [
  'id',
  'last_characters',
  'initial_value',
  'balance',
  'currency',
  'status',
  'expires_on',
  'note',
  'customer_id',
  'created_at',
  'updated_at',
  'disabled_at',
];

/** A date `days` from today (UTC), as YYYY-MM-DD. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('Gift cards (/v1/products/gift-cards)', () => {
  const { app, api } = useTestApp('giftcards');
  let platform: Platform;
  before(async () => {
    platform = app.platform;
  });

  describe('POST /v1/products/gift-cards', () => {
    it('issues a card with a generated code shown once, in the store currency, and records gift_card.created', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const customer = (await givenCustomer(api, as, { email: 'birthday@example.com' })).id as string;
      const res = await api.post(PATH, { initial_value: 5000, note: 'Birthday', customer_id: customer, expires_on: dayFromToday(30) }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const card = res.body.data;
      expect(card).to.have.all.keys(...FIELDS, 'code');
      expect(card.code).to.match(/^[A-HJ-NP-Z2-9]{4} [A-HJ-NP-Z2-9]{4} [A-HJ-NP-Z2-9]{4} [A-HJ-NP-Z2-9]{4}$/);
      expect(card).to.include({
        initial_value: 5000,
        balance: 5000,
        currency: 'USD',
        status: 'active',
        note: 'Birthday',
        customer_id: customer,
        expires_on: dayFromToday(30),
        disabled_at: null,
      });
      expect(card.last_characters).to.equal(card.code.replace(/ /g, '').slice(-4));

      const read = await api.get(`${PATH}/${card.id}`, as);
      expect(read.status).to.equal(200);
      expect(read.body.data).to.have.all.keys(...FIELDS);
      expect(read.body.data).to.deep.equal(Object.fromEntries(Object.entries(card).filter(([k]) => k !== 'code')));

      const event = await platform.db.collection('events').findOne({ idempotency_key: `gift_card.created:${card.id}` });
      expect(event?.type).to.equal('gift_card.created');
      expect(event?.store_id.toHexString()).to.equal(store.id);
      expect(event?.payload).to.deep.equal({ gift_card: read.body.data });
    });

    it('never stores or logs the code: only a keyed hash and the last four characters', async () => {
      const { as } = await givenMerchantWithStore(api);
      const generated = await api.post(PATH, { initial_value: 1000 }, as);
      const given = await api.post(PATH, { initial_value: 1000, code: 'gift-ab12-cd34-ef56' }, as);
      expect(given.status).to.equal(201);
      expect(given.body.data.code).to.equal('GIFTAB12CD34EF56');
      expect(given.body.data.last_characters).to.equal('EF56');
      const plain = generated.body.data.code.replace(/ /g, '');
      for (const needle of [generated.body.data.code, plain, plain.slice(0, 12), 'GIFTAB12CD34EF56', 'gift-ab12-cd34-ef56', 'GIFTAB12CD34']) {
        expect(await findPlaintext(platform.db, needle), needle).to.deep.equal([]);
        expect(
          app.logLines.filter((l) => l.includes(needle)),
          needle,
        ).to.deep.equal([]);
      }
      const doc = await platform.db.collection('gift_cards').findOne({ _id: { $exists: true }, last_characters: 'EF56' });
      expect(doc?.code_hash).to.match(/^[^:]+:[0-9a-f]{64}$/);
    });

    it('replays the create response, code included, for a retried Idempotency-Key, issuing one card', async () => {
      const { as } = await givenMerchantWithStore(api);
      const headers = { 'idempotency-key': 'gift-card-1' };
      const first = await api.post(PATH, { initial_value: 2500 }, { ...as, headers });
      const second = await api.post(PATH, { initial_value: 2500 }, { ...as, headers });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      const list = await api.get(PATH, as);
      expect(list.body.data).to.have.length(1);
      expect(await findPlaintext(platform.db, first.body.data.code.replace(/ /g, ''))).to.deep.equal([]);
    });

    it('refuses a code already used in the store with 409, but another store may use it', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      expect((await api.post(PATH, { initial_value: 100, code: 'SAMECODE1' }, a.as)).status).to.equal(201);
      const before = await counts(platform.db);
      const again = await api.post(PATH, { initial_value: 100, code: 'same-code 1' }, a.as);
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('gift_card_code_taken');
      expect(await counts(platform.db)).to.deep.equal(before);
      expect((await api.post(PATH, { initial_value: 100, code: 'samecode1' }, b.as)).status).to.equal(201);
    });

    it('refuses bad input with path-prefixed details and changes nothing', async () => {
      const { as } = await givenMerchantWithStore(api);
      const before = await counts(platform.db);
      const cases: [unknown, RegExp][] = [
        [{}, /body\.initial_value/],
        [{ initial_value: 0 }, /body\.initial_value/],
        [{ initial_value: -5 }, /body\.initial_value/],
        [{ initial_value: 10.5 }, /body\.initial_value/],
        [{ initial_value: '100' }, /body\.initial_value/],
        [{ initial_value: 10_000_001 }, /body\.initial_value/],
        [{ initial_value: 100, code: 'SHORT' }, /body\.code/],
        [{ initial_value: 100, code: 'A'.repeat(21) }, /body\.code/],
        [{ initial_value: 100, code: 'HAS_UNDERSCORE' }, /body\.code/],
        [{ initial_value: 100, code: 'ÄÖÜÄÖÜÄÖÜ' }, /body\.code/],
        [{ initial_value: 100, code: 12345678 }, /body\.code/],
        [{ initial_value: 100, expires_on: '2020-01-01' }, /body\.expires_on: must be a date after today/],
        [{ initial_value: 100, expires_on: dayFromToday(0) }, /body\.expires_on: must be a date after today/],
        [{ initial_value: 100, expires_on: '2030-02-30' }, /body\.expires_on/],
        [{ initial_value: 100, expires_on: '2030-01-01T00:00:00Z' }, /body\.expires_on/],
        [{ initial_value: 100, customer_id: 'cus_1' }, /body\.customer_id/],
        [{ initial_value: 100, customer_id: 'A'.repeat(24) }, /body\.customer_id/],
        [{ initial_value: 100, note: 'x'.repeat(501) }, /body\.note/],
        [{ initial_value: 100, currency: 'EUR' }, /body: Unrecognized key: "currency"/],
        [{ initial_value: 100, balance: 5 }, /body: Unrecognized key: "balance"/],
        [[1, 2], /body/],
      ];
      for (const [body, detail] of cases) {
        const res = await api.post(PATH, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
    });

    it('refuses a customer_id that is not a customer of this store, changing nothing', async () => {
      const mine = await givenMerchantWithStore(api);
      const theirs = await givenMerchantWithStore(api);
      const stranger = (await givenCustomer(api, theirs.as, { email: 'stranger@example.com' })).id as string;
      expect(stranger).to.match(/^[0-9a-f]{24}$/);
      const before = await counts(platform.db);
      for (const customer_id of [stranger, '0'.repeat(24)]) {
        const res = await api.post(PATH, { initial_value: 100, customer_id }, mine.as);
        expect(res.status, customer_id).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details).to.deep.equal(['body.customer_id: is not a customer of this store']);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      // Nothing was priced either: the store's currency is still free to change.
      expect((await api.patch(`/v1/stores/${mine.store.id}`, { currency: 'EUR' }, { token: mine.merchant.token })).status).to.equal(200);
      // null (no customer) is still accepted.
      expect((await api.post(PATH, { initial_value: 100, customer_id: null }, mine.as)).status).to.equal(201);
    });

    it('needs a session and a store the merchant owns', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      expect((await api.post(PATH, { initial_value: 100 })).status).to.equal(401);
      expect((await api.post(PATH, { initial_value: 100 }, { token: a.merchant.token })).body.error.code).to.equal('store_required');
      const before = await counts(platform.db);
      const forbidden = await api.post(PATH, { initial_value: 100 }, { token: a.merchant.token, storeId: b.store.id });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body.error.code).to.equal('store_forbidden');
      expect((await api.get(PATH, { token: a.merchant.token, storeId: b.store.id })).status).to.equal(403);
      expect(await counts(platform.db)).to.deep.equal(before);
    });
  });

  describe('GET /v1/products/gift-cards', () => {
    it("lists the store's cards in creation order with cursor pagination and a status filter", async () => {
      const { as } = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      await api.post(PATH, { initial_value: 999 }, other.as);
      const ids: string[] = [];
      for (const value of [100, 200, 300]) ids.push((await api.post(PATH, { initial_value: value }, as)).body.data.id);
      await api.post(`${PATH}/${ids[1]}/disable`, undefined, as);

      const first = await api.get(`${PATH}?limit=2`, as);
      expect(first.status).to.equal(200);
      expect(first.body.data.map((c: any) => c.id)).to.deep.equal(ids.slice(0, 2));
      expect(first.body.data[0]).to.have.all.keys(...FIELDS);
      const second = await api.get(`${PATH}?limit=2&cursor=${first.body.page.next_cursor}`, as);
      expect(second.body.data.map((c: any) => c.id)).to.deep.equal(ids.slice(2));
      expect(second.body.page.next_cursor).to.equal(null);

      expect((await api.get(`${PATH}?status=active`, as)).body.data.map((c: any) => c.id)).to.deep.equal([ids[0], ids[2]]);
      expect((await api.get(`${PATH}?status=disabled`, as)).body.data.map((c: any) => c.id)).to.deep.equal([ids[1]]);
    });

    it('refuses bad filters and paging input', async () => {
      const { as } = await givenMerchantWithStore(api);
      for (const query of ['status=expired', 'limit=0', 'limit=251', 'cursor=nope', 'code=ABCD']) {
        const res = await api.get(`${PATH}?${query}`, as);
        expect(res.status, query).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
    });
  });

  describe('GET /v1/products/gift-cards/:id and POST .../:id/disable', () => {
    it('disables a card once (idempotently) and records gift_card.disabled once', async () => {
      const { as } = await givenMerchantWithStore(api);
      const card = (await api.post(PATH, { initial_value: 100 }, as)).body.data;
      const first = await api.post(`${PATH}/${card.id}/disable`, undefined, as);
      expect(first.status).to.equal(200);
      expect(first.body.data.status).to.equal('disabled');
      expect(first.body.data.disabled_at).to.be.a('string');
      const second = await api.post(`${PATH}/${card.id}/disable`, {}, as);
      expect(second.status).to.equal(200);
      expect(second.body.data).to.deep.equal(first.body.data);
      const events = await platform.db.collection('events').find({ type: 'gift_card.disabled', 'payload.gift_card.id': card.id }).toArray();
      expect(events).to.have.length(1);
      expect(events[0]!.payload).to.deep.equal({ gift_card: first.body.data });
    });

    it("answers 404 for another store's card and for ids that do not exist, changing nothing", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const theirs = (await api.post(PATH, { initial_value: 100 }, b.as)).body.data;
      const before = await counts(platform.db);
      for (const id of [theirs.id, '0'.repeat(24), 'not-an-id']) {
        const read = await api.get(`${PATH}/${id}`, a.as);
        expect(read.status, id).to.equal(404);
        expect(read.body.error.code).to.equal('not_found');
        expect((await api.post(`${PATH}/${id}/disable`, undefined, a.as)).status, id).to.equal(404);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      expect((await api.get(`${PATH}/${theirs.id}`, b.as)).body.data.status).to.equal('active');
      expect((await api.get(`${PATH}/${theirs.id}`, { token: a.merchant.token, storeId: b.store.id })).status).to.equal(403);
    });

    it('refuses a body or query on disable', async () => {
      const { as } = await givenMerchantWithStore(api);
      const card = (await api.post(PATH, { initial_value: 100 }, as)).body.data;
      expect((await api.post(`${PATH}/${card.id}/disable`, { reason: 'x' }, as)).status).to.equal(400);
      expect((await api.get(`${PATH}/${card.id}?x=1`, as)).status).to.equal(400);
      expect((await api.get(`${PATH}/${card.id}`, as)).body.data.status).to.equal('active');
    });
  });

  describe('findGiftCardByCode and debitGiftCard (for the checkout)', () => {
    it('finds a card by its code in any spacing or case, only in its own store', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const created = (await api.post(PATH, { initial_value: 700 }, a.as)).body.data;
      const { code, ...view } = created;
      expect(await findGiftCardByCode(platform, a.store.id, code)).to.deep.equal(view);
      expect(await findGiftCardByCode(platform, a.store.id, code.toLowerCase().replace(/ /g, '-'))).to.deep.equal(view);
      expect(await findGiftCardByCode(platform, b.store.id, code)).to.equal(null);
      expect(await findGiftCardByCode(platform, a.store.id, 'ABCDEFGHJKLMNPQR')).to.equal(null);
      expect(await findGiftCardByCode(platform, a.store.id, 'bad')).to.equal(null);
      expect(await findGiftCardByCode(platform, 'not-a-store', code)).to.equal(null);
    });

    it('debits the balance, records gift_card.debited, and refuses more than the balance', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const card = (await api.post(PATH, { initial_value: 1000 }, as)).body.data;
      expect(await debitGiftCard(platform, store.id, card.id, 300)).to.equal(700);
      expect(await debitGiftCard(platform, store.id, card.id, 700)).to.equal(0);
      await expectConflict(debitGiftCard(platform, store.id, card.id, 1), 'insufficient_balance');
      expect((await api.get(`${PATH}/${card.id}`, as)).body.data.balance).to.equal(0);
      const events = await platform.db.collection('events').find({ type: 'gift_card.debited', 'payload.gift_card.id': card.id }).sort({ _id: 1 }).toArray();
      expect(events.map((e) => [e.payload.amount, e.payload.gift_card.balance])).to.deep.equal([
        [300, 700],
        [700, 0],
      ]);
    });

    it('refuses disabled, expired, foreign and bad debits', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const card = (await api.post(PATH, { initial_value: 1000, expires_on: dayFromToday(1) }, a.as)).body.data;
      await expectError(debitGiftCard(platform, b.store.id, card.id, 1), 'not_found');
      await expectError(debitGiftCard(platform, a.store.id, '0'.repeat(24), 1), 'not_found');
      for (const amount of [0, -1, 1.5, Number.NaN]) await expectError(debitGiftCard(platform, a.store.id, card.id, amount), 'invalid_amount');

      const later = { ...platform, clock: { now: () => new Date(`${dayFromToday(2)}T00:00:00.000Z`) } };
      await expectConflict(debitGiftCard(later, a.store.id, card.id, 1), 'gift_card_expired');
      const lastMoment = { ...platform, clock: { now: () => new Date(`${dayFromToday(1)}T23:59:59.999Z`) } };
      expect(await debitGiftCard(lastMoment, a.store.id, card.id, 1)).to.equal(999);

      await api.post(`${PATH}/${card.id}/disable`, undefined, a.as);
      await expectConflict(debitGiftCard(platform, a.store.id, card.id, 1), 'gift_card_disabled');
      expect((await api.get(`${PATH}/${card.id}`, a.as)).body.data.balance).to.equal(999);
    });

    it('never takes the balance below zero under 20 parallel debits', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const card = (await api.post(PATH, { initial_value: 1000 }, as)).body.data;
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => debitGiftCard(platform, store.id, card.id, 150)));
      const ok = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(ok).to.have.length(6);
      expect(refused.map((r) => r.reason.code)).to.deep.equal(Array(14).fill('insufficient_balance'));
      expect((await api.get(`${PATH}/${card.id}`, as)).body.data.balance).to.equal(100);
      expect(await platform.db.collection('events').countDocuments({ type: 'gift_card.debited', 'payload.gift_card.id': card.id })).to.equal(6);
    });
  });
});

async function expectError(promise: Promise<unknown>, code: string) {
  try {
    await promise;
  } catch (err) {
    expect((err as { code?: string }).code).to.equal(code);
    return err as { kind: string };
  }
  expect.fail(`expected ${code}`);
}

async function expectConflict(promise: Promise<unknown>, code: string) {
  const err = await expectError(promise, code);
  expect(err?.kind).to.equal('conflict');
}
