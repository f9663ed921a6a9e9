import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { debitGiftCard } from '../../src/giftcards/index.js';
import { useTestApp } from '../helpers/app.js';
import { anAddress, givenAddress, givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore, type As } from '../helpers/factories.js';
import { settleLeftBehind, stopAfterWrites } from '../helpers/outbox.js';
import { givenProductReview } from '../helpers/product-reviews.js';

/**
 * Customers, addresses, gift cards and reviews record every committed change once
 * (docs/events.md, "Every committed change, once"): each write path below runs in a process
 * that "stops" right after the write; the answer is the normal one (500 for a delete, which
 * stops after removing the document), no event is recorded yet, and the maintenance sweep
 * then records each event once, with the payload the API showed, and takes it off the document.
 */
describe('Events carried by their writes: customers, addresses, gift cards, reviews', () => {
  const { app, api } = useTestApp('event_outbox_customers');
  let as: As;
  let storeId: string;
  let stopped: { restore(): void } | null = null;
  before(async () => {
    const shop = await givenMerchantWithStore(api);
    as = shop.as;
    storeId = shop.store.id;
  });
  afterEach(() => {
    stopped?.restore();
    stopped = null;
  });

  const events = (key: string) => app.platform.db.collection('events').find({ idempotency_key: key }).toArray();
  const stored = (collection: string, id: string) => app.platform.db.collection(collection).findOne({ _id: new ObjectId(id) });

  /** A process that stops after its writes; `settleOnly`: one whose deletes complete, but which settles nothing. */
  const stop = (settleOnly = false) => {
    if (!settleOnly) {
      stopped = stopAfterWrites(app.platform);
      return;
    }
    const events = app.platform.events;
    const { settle } = events;
    events.settle = async () => {};
    stopped = { restore: () => void (events.settle = settle) };
  };

  const ok = async (res: Promise<{ status: number; body: any }>, status = 200) => {
    const reply = await res;
    expect(reply.status, JSON.stringify(reply.body)).to.equal(status);
    return reply.body?.data;
  };
  const getCustomer = (id: string) => ok(api.get(`/v1/customers/${id}`, as));
  const givenGiftCard = () => ok(api.post('/v1/products/gift-cards', { initial_value: 1000 }, as), 201);
  /** A product of its own to review: its id. */
  const givenTeapot = async () => (await ok(api.post('/v1/products', { title: 'Teapot', variants: [{ price: 1500 }] }, as), 201)).id as string;

  /** What a case did while stopped: its answer, the events it must have left behind (key and expected payload), the documents that carried them. */
  type Acted = { status: number; body?: any; left: [key: string, payload: () => unknown][]; carriers: [collection: string, id: string][] };
  type Case = { title: string; status: number; act(): Promise<Acted> };

  const cases: Case[] = [
    {
      title: 'POST /v1/customers (customer.created)',
      status: 201,
      async act() {
        stop();
        const res = await api.post('/v1/customers', { email: `c-${new ObjectId().toHexString()}@example.com`, first_name: 'Ada' }, as);
        const id = res.body.data?.id;
        return { ...res, left: [[`customer.created:${id}`, () => ({ customer: res.body.data })]], carriers: [['customers', id]] };
      },
    },
    {
      title: 'PATCH /v1/customers/:id without a rename (customer.updated)',
      status: 200,
      async act() {
        const c = await givenCustomer(api, as);
        stop();
        const res = await api.patch(`/v1/customers/${c.id}`, { note: 'prefers mornings' }, as);
        return { ...res, left: [[`customer.updated:${c.id}:v2`, () => ({ customer: res.body.data, changed: ['note'] })]], carriers: [['customers', c.id]] };
      },
    },
    {
      title: 'PATCH /v1/customers/:id with a rename (customer.updated)',
      status: 200,
      async act() {
        const c = await givenCustomer(api, as, { first_name: 'Ada', last_name: 'Lovelace' });
        stop();
        const res = await api.patch(`/v1/customers/${c.id}`, { last_name: 'King' }, as);
        return {
          ...res,
          left: [[`customer.updated:${c.id}:v2`, () => ({ customer: res.body.data, changed: ['last_name'] })]],
          carriers: [['customers', c.id]],
        };
      },
    },
    {
      title: 'POST /v1/customers/:id/addresses, the first: the default (customer_address.created, customer.updated)',
      status: 201,
      async act() {
        const c = await givenCustomer(api, as);
        stop();
        const res = await api.post(`/v1/customers/${c.id}/addresses`, anAddress(), as);
        const id = res.body.data?.id;
        expect(res.body.data?.default).to.equal(true);
        const customer = await getCustomer(c.id);
        expect(customer.default_address_id).to.equal(id);
        return {
          ...res,
          left: [
            [`customer_address.created:${id}`, () => ({ customer_address: res.body.data })],
            [`customer.updated:${c.id}:v2`, () => ({ customer, changed: ['default_address_id'] })],
          ],
          carriers: [
            ['customer_addresses', id],
            ['customers', c.id],
          ],
        };
      },
    },
    {
      title: 'POST /v1/customers/:id/addresses, another (customer_address.created)',
      status: 201,
      async act() {
        const c = await givenCustomer(api, as);
        await givenAddress(api, as, c.id);
        stop();
        const res = await api.post(`/v1/customers/${c.id}/addresses`, anAddress({ city: 'Shelbyville' }), as);
        const id = res.body.data?.id;
        expect(res.body.data?.default).to.equal(false);
        return { ...res, left: [[`customer_address.created:${id}`, () => ({ customer_address: res.body.data })]], carriers: [['customer_addresses', id]] };
      },
    },
    {
      title: 'PATCH /v1/customers/:id/addresses/:addressId (customer_address.updated)',
      status: 200,
      async act() {
        const c = await givenCustomer(api, as);
        const a = await givenAddress(api, as, c.id);
        stop();
        const res = await api.patch(`/v1/customers/${c.id}/addresses/${a.id}`, { city: 'Capital City' }, as);
        return {
          ...res,
          left: [[`customer_address.updated:${a.id}:v2`, () => ({ customer_address: res.body.data, changed: ['city'] })]],
          carriers: [['customer_addresses', a.id]],
        };
      },
    },
    {
      title: 'DELETE /v1/customers/:id/addresses/:addressId (customer_address.deleted)',
      status: 500,
      async act() {
        const c = await givenCustomer(api, as);
        await givenAddress(api, as, c.id);
        const a = await givenAddress(api, as, c.id, { city: 'Shelbyville' });
        stop();
        const res = await api.delete(`/v1/customers/${c.id}/addresses/${a.id}`, as);
        expect(await stored('customer_addresses', a.id)).to.equal(null);
        return { ...res, left: [[`customer_address.deleted:${a.id}`, () => ({ customer_address: a })]], carriers: [] };
      },
    },
    {
      title: 'POST /v1/customers/:id/addresses/:addressId/default (customer.updated)',
      status: 200,
      async act() {
        const c = await givenCustomer(api, as);
        await givenAddress(api, as, c.id);
        const b = await givenAddress(api, as, c.id, { city: 'Shelbyville' });
        stop();
        const res = await api.post(`/v1/customers/${c.id}/addresses/${b.id}/default`, undefined, as);
        expect(res.body.data).to.deep.equal({ ...b, default: true });
        const customer = await getCustomer(c.id);
        expect(customer.default_address_id).to.equal(b.id);
        return { ...res, left: [[`customer.updated:${c.id}:v3`, () => ({ customer, changed: ['default_address_id'] })]], carriers: [['customers', c.id]] };
      },
    },
    {
      title: 'DELETE of the default address: the oldest remaining one promoted (customer.updated)',
      status: 204,
      async act() {
        const c = await givenCustomer(api, as);
        const a = await givenAddress(api, as, c.id);
        const b = await givenAddress(api, as, c.id, { city: 'Shelbyville' });
        stop(true);
        const res = await api.delete(`/v1/customers/${c.id}/addresses/${a.id}`, as);
        const customer = await getCustomer(c.id);
        expect(customer.default_address_id).to.equal(b.id);
        return { ...res, left: [[`customer.updated:${c.id}:v3`, () => ({ customer, changed: ['default_address_id'] })]], carriers: [['customers', c.id]] };
      },
    },
    {
      title: 'POST /v1/products/gift-cards (gift_card.created)',
      status: 201,
      async act() {
        stop();
        const res = await api.post('/v1/products/gift-cards', { initial_value: 2500 }, as);
        const { code: _code, ...card } = res.body.data ?? {};
        return { ...res, left: [[`gift_card.created:${card.id}`, () => ({ gift_card: card })]], carriers: [['gift_cards', card.id]] };
      },
    },
    {
      title: 'POST /v1/products/gift-cards/:id/disable (gift_card.disabled)',
      status: 200,
      async act() {
        const card = await givenGiftCard();
        stop();
        const res = await api.post(`/v1/products/gift-cards/${card.id}/disable`, undefined, as);
        return { ...res, left: [[`gift_card.disabled:${card.id}:v2`, () => ({ gift_card: res.body.data })]], carriers: [['gift_cards', card.id]] };
      },
    },
    {
      title: 'debitGiftCard, for the checkout (gift_card.debited)',
      status: 200,
      async act() {
        const card = await givenGiftCard();
        stop();
        const balance = await debitGiftCard(app.platform, storeId, card.id, 400);
        expect(balance).to.equal(600);
        const after = await ok(api.get(`/v1/products/gift-cards/${card.id}`, as));
        expect(after.balance).to.equal(600);
        return { status: 200, left: [[`gift_card.debited:${card.id}:v2`, () => ({ gift_card: after, amount: 400 })]], carriers: [['gift_cards', card.id]] };
      },
    },
    {
      title: 'POST /v1/reviews (review.created)',
      status: 201,
      async act() {
        const product = await ok(api.post('/v1/products', { title: 'Kettle', variants: [{ price: 2500 }] }, as), 201);
        stop();
        const res = await api.post('/v1/reviews', { product_id: product.id, author_name: 'Bo', rating: 5, body: 'Boils fast' }, as);
        const id = res.body.data?.id;
        return { ...res, left: [[`review.created:${id}`, () => ({ review: res.body.data })]], carriers: [['reviews', id]] };
      },
    },
    {
      title: 'PATCH /v1/reviews/:id (review.updated, changed status)',
      status: 200,
      async act() {
        const r = await givenProductReview(api, as, { product_id: await givenTeapot() });
        stop();
        const res = await api.patch(`/v1/reviews/${r.id}`, { status: 'hidden' }, as);
        return { ...res, left: [[`review.updated:${r.id}:v2`, () => ({ review: res.body.data, changed: ['status'] })]], carriers: [['reviews', r.id]] };
      },
    },
    {
      title: 'POST /v1/reviews/:id/reply (review.replied)',
      status: 200,
      async act() {
        const r = await givenProductReview(api, as, { product_id: await givenTeapot() });
        stop();
        const res = await api.post(`/v1/reviews/${r.id}/reply`, { body: 'Thank you!' }, as);
        return { ...res, left: [[`review.replied:${r.id}:v2`, () => ({ review: res.body.data })]], carriers: [['reviews', r.id]] };
      },
    },
    {
      title: 'DELETE /v1/reviews/:id/reply (review.updated, changed reply)',
      status: 204,
      async act() {
        const r = await givenProductReview(api, as, { product_id: await givenTeapot() });
        await ok(api.post(`/v1/reviews/${r.id}/reply`, { body: 'Thank you!' }, as));
        stop();
        const res = await api.delete(`/v1/reviews/${r.id}/reply`, as);
        const review = await ok(api.get(`/v1/reviews/${r.id}`, as));
        expect(review).to.include({ reply: null, version: 3 });
        return { ...res, left: [[`review.updated:${r.id}:v3`, () => ({ review, changed: ['reply'] })]], carriers: [['reviews', r.id]] };
      },
    },
    {
      title: 'DELETE /v1/reviews/:id (review.deleted)',
      status: 500,
      async act() {
        const r = await givenProductReview(api, as, { product_id: await givenTeapot() });
        stop();
        const res = await api.delete(`/v1/reviews/${r.id}`, as);
        expect(await stored('reviews', r.id)).to.equal(null);
        return { ...res, left: [[`review.deleted:${r.id}`, () => ({ review: r })]], carriers: [] };
      },
    },
  ];

  for (const { title, status, act } of cases) {
    it(`records what a stopped process left behind, once: ${title}`, async () => {
      const acted = await act();
      stopped?.restore();
      stopped = null;
      expect(acted.status, JSON.stringify(acted.body)).to.equal(status);
      const data = acted.body?.data;
      if (data && typeof data === 'object') {
        expect(data).to.not.have.property('pending_events');
        expect(data).to.not.have.property('events_pending_since');
      }
      for (const [key] of acted.left) expect(await events(key), key).to.have.length(0);
      for (const [collection, id] of acted.carriers)
        expect((await stored(collection, id))?.pending_events, `${collection} ${id}`).to.have.length.of.at.least(1);

      expect(await settleLeftBehind(app.platform)).to.be.at.least(acted.left.length);
      for (const [key, payload] of acted.left) {
        const recorded = await events(key);
        expect(recorded, key).to.have.length(1);
        expect(recorded[0]!.payload, key).to.deep.equal(await payload());
        expect(recorded[0]!.store_id.toHexString()).to.equal(storeId);
      }
      for (const [collection, id] of acted.carriers) {
        const doc = await stored(collection, id);
        expect(doc, `${collection} ${id}`).to.not.equal(null);
        expect(doc).to.not.have.property('pending_events');
        expect(doc).to.not.have.property('events_pending_since');
      }
      expect(await settleLeftBehind(app.platform)).to.equal(0);
      for (const [key] of acted.left) expect(await events(key), key).to.have.length(1);
      expect(await app.platform.db.collection('event_intents').countDocuments()).to.equal(0);
    });
  }
});
