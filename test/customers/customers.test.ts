import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { clearCustomerKey, recordCustomerOrder } from '../../src/customers/index.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { anAddress, givenAddress, givenCustomer } from '../helpers/customers.js';
import { givenMerchant, givenMerchantWithStore, givenStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';

describe('Customers (/v1/customers)', () => {
  const { app, api } = useTestApp('customers');

  const eventsOf = (type: string, key: string) => app.platform.db.collection('events').find({ type, idempotency_key: key }).toArray();

  describe('POST /v1/customers', () => {
    it('creates a customer with zero totals in the store currency and records customer.created', async () => {
      const s = await givenMerchantWithStore(api);
      const res = await api.post(
        '/v1/customers',
        {
          email: '  Ada.Lovelace@Example.COM ',
          first_name: 'Ada',
          last_name: 'Lovelace',
          phone: '+44 20 7946 0000',
          accepts_marketing: true,
          tags: ['vip', 'vip', 'early'],
          note: 'Met at the fair',
        },
        s.as,
      );
      expect(res.status).to.equal(201);
      const c = res.body.data;
      expect(c).to.have.all.keys(
        'id',
        'email',
        'first_name',
        'last_name',
        'phone',
        'accepts_marketing',
        'tags',
        'note',
        'orders_count',
        'total_spent',
        'currency',
        'default_address_id',
        'created_at',
        'updated_at',
      );
      expect(c).to.deep.include({
        email: 'ada.lovelace@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        accepts_marketing: true,
        orders_count: 0,
        total_spent: 0,
        currency: 'USD',
        default_address_id: null,
      });
      expect(c.tags).to.deep.equal(['vip', 'early']);
      const [event] = await eventsOf('customer.created', `customer.created:${c.id}`);
      expect(event?.store_id.toHexString()).to.equal(s.store.id);
      expect(event?.payload).to.deep.equal({ customer: c });
    });

    it('defaults the optional fields', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as, { email: 'plain@example.com' });
      expect(c).to.deep.include({ first_name: null, last_name: null, phone: null, accepts_marketing: false, note: null, tags: [] });
    });

    it('refuses an email already used in the same store (any case) with 409, but allows it in another store', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      await givenCustomer(api, a.as, { email: 'dup@example.com' });
      const before = await counts(app.platform.db);
      const res = await api.post('/v1/customers', { email: 'DUP@example.com' }, a.as);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('email_taken');
      expect(await counts(app.platform.db)).to.deep.equal(before);
      await givenCustomer(api, b.as, { email: 'dup@example.com' });
    });

    it('refuses bad input, including the counters, and changes nothing', async () => {
      const s = await givenMerchantWithStore(api);
      const before = await counts(app.platform.db);
      for (const body of [
        {},
        { email: 'not-an-email' },
        { email: 'a@example.com', orders_count: 3 },
        { email: 'a@example.com', total_spent: 100 },
        { email: 'a@example.com', default_address_id: '000000000000000000000000' },
        { email: 'a@example.com', accepts_marketing: 'yes' },
        { email: 'a@example.com', tags: 'vip' },
        { email: 'a@example.com', tags: [''] },
        { email: 'a@example.com', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
        { email: 'a@example.com', phone: 'call me' },
        { email: 'a@example.com', first_name: 'x'.repeat(101) },
        { email: 'a@example.com', note: 'x'.repeat(5001) },
        { email: 'a@example.com', store_id: s.store.id },
      ]) {
        const res = await api.post('/v1/customers', body, s.as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('replays a retried Idempotency-Key', async () => {
      const s = await givenMerchantWithStore(api);
      const headers = { 'idempotency-key': 'create-customer-1' };
      const first = await api.post('/v1/customers', { email: 'once@example.com' }, { ...s.as, headers });
      const second = await api.post('/v1/customers', { email: 'once@example.com' }, { ...s.as, headers });
      expect(first.status).to.equal(201);
      expect(second.body).to.deep.equal(first.body);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
    });
  });

  describe('GET /v1/customers', () => {
    it("lists the store's customers only, with cursor pagination", async () => {
      const s = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      await givenCustomer(api, other.as);
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push((await givenCustomer(api, s.as)).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: Reply = await api.get(`/v1/customers?limit=2${cursor ? `&cursor=${cursor}` : ''}`, s.as);
        expect(res.status).to.equal(200);
        seen.push(...res.body.data.map((c: { id: string }) => c.id));
        cursor = res.body.page.next_cursor;
        pages++;
      } while (cursor);
      expect(seen).to.deep.equal(created);
      expect(pages).to.equal(3);
    });

    it('searches by email or name prefix, case-insensitively, treating the query literally', async () => {
      const s = await givenMerchantWithStore(api);
      const ada = await givenCustomer(api, s.as, { email: 'ada@math.example', first_name: 'Ada', last_name: 'Lovelace' });
      const alan = await givenCustomer(api, s.as, { email: 'turing@bletchley.example', first_name: 'Alan', last_name: 'Turing' });
      const dots = await givenCustomer(api, s.as, { email: 'a.b+c@dots.example' });
      const other = await givenMerchantWithStore(api);
      await givenCustomer(api, other.as, { email: 'ada@elsewhere.example', first_name: 'Ada' });
      const search = async (q: string) => {
        const res = await api.get(`/v1/customers?query=${encodeURIComponent(q)}`, s.as);
        expect(res.status, q).to.equal(200);
        return res.body.data.map((c: { id: string }) => c.id);
      };
      expect(await search('ADA')).to.deep.equal([ada.id]);
      expect(await search('a')).to.deep.equal([ada.id, alan.id, dots.id]);
      expect(await search('lovelace')).to.deep.equal([ada.id]);
      expect(await search('alan tur')).to.deep.equal([alan.id]);
      expect(await search('TURING@')).to.deep.equal([alan.id]);
      expect(await search('a.b+c')).to.deep.equal([dots.id]);
      expect(await search('a.b')).to.deep.equal([dots.id]);
      expect(await search('.*')).to.deep.equal([]);
      expect(await search('(')).to.deep.equal([]);
      expect(await search('velace')).to.deep.equal([]);
    });

    it('finds a customer under their new name after an update, and not the old one', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as, { email: 'grace@navy.example', first_name: 'Grace', last_name: 'Brewster' });
      await api.patch(`/v1/customers/${c.id}`, { last_name: 'Hopper' }, s.as);
      expect((await api.get('/v1/customers?query=hopper', s.as)).body.data.map((x: any) => x.id)).to.deep.equal([c.id]);
      expect((await api.get('/v1/customers?query=grace hopper', s.as)).body.data.map((x: any) => x.id)).to.deep.equal([c.id]);
      expect((await api.get('/v1/customers?query=brewster', s.as)).body.data).to.deep.equal([]);
    });

    it('refuses bad query input', async () => {
      const s = await givenMerchantWithStore(api);
      for (const q of ['limit=0', 'limit=251', 'cursor=nope', 'query=', `query=${'x'.repeat(101)}`, 'sort=email']) {
        const res = await api.get(`/v1/customers?${q}`, s.as);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
    });
  });

  describe('GET and PATCH /v1/customers/:id', () => {
    it('reads and updates a customer and records customer.updated per change', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as, { first_name: 'Old' });
      expect((await api.get(`/v1/customers/${c.id}`, s.as)).body.data).to.deep.equal(c);
      const res = await api.patch(
        `/v1/customers/${c.id}`,
        { first_name: 'New', phone: '', tags: ['a'], accepts_marketing: true, email: 'NEW@example.com' },
        s.as,
      );
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ first_name: 'New', phone: null, tags: ['a'], accepts_marketing: true, email: 'new@example.com' });
      const [event] = await eventsOf('customer.updated', `customer.updated:${c.id}:v2`);
      expect(event?.payload.changed).to.have.members(['first_name', 'phone', 'tags', 'accepts_marketing', 'email']);
      expect(event?.payload.customer).to.deep.equal(res.body.data);
      const cleared = await api.patch(`/v1/customers/${c.id}`, { first_name: null, note: 'hello' }, s.as);
      expect(cleared.body.data).to.deep.include({ first_name: null, note: 'hello' });
      expect(await eventsOf('customer.updated', `customer.updated:${c.id}:v3`)).to.have.length(1);
    });

    it('refuses changing the email to one another customer of the store has (409), and bad updates, changing nothing', async () => {
      const s = await givenMerchantWithStore(api);
      await givenCustomer(api, s.as, { email: 'taken@example.com' });
      const c = await givenCustomer(api, s.as, { email: 'mine@example.com' });
      const before = await counts(app.platform.db);
      const conflict = await api.patch(`/v1/customers/${c.id}`, { email: 'Taken@example.com' }, s.as);
      expect(conflict.status).to.equal(409);
      expect(conflict.body.error.code).to.equal('email_taken');
      for (const body of [{}, { orders_count: 5 }, { total_spent: 1 }, { email: 'bad' }, { accepts_marketing: null }, { tags: null }, { id: 'x' }]) {
        const res = await api.patch(`/v1/customers/${c.id}`, body, s.as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.get(`/v1/customers/${c.id}`, s.as)).body.data).to.deep.equal(c);
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });
  });

  describe('recordCustomerOrder (service, for the orders domain)', () => {
    it('adds orders and refunds atomically, shown through GET, with one customer.updated per call', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      await recordCustomerOrder(app.platform, s.store.id, c.id, { key: 'op-a.0', amount: 2599, countDelta: 1 });
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => recordCustomerOrder(app.platform, s.store.id, c.id, { key: `op-b${i}.0`, amount: 1000, countDelta: 1 })),
      );
      const refunded = await recordCustomerOrder(app.platform, s.store.id, c.id, { key: 'op-c.0', amount: -599, countDelta: 0 });
      expect(refunded).to.deep.include({ orders_count: 11, total_spent: 12000, currency: 'USD' });
      const got = await api.get(`/v1/customers/${c.id}`, s.as);
      expect(got.body.data).to.deep.include({ orders_count: 11, total_spent: 12000 });
      const events = await app.platform.db.collection('events').find({ type: 'customer.updated', 'payload.customer.id': c.id }).toArray();
      expect(events).to.have.length(12);
      expect(new Set(events.map((e) => e.idempotency_key)).size).to.equal(12);
    });

    it('counts a step repeated with the same key once (a retry after a crash), concurrent repeats included', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      await Promise.all(Array.from({ length: 5 }, () => recordCustomerOrder(app.platform, s.store.id, c.id, { key: 'op-x.0', amount: 700, countDelta: 1 })));
      const again = await recordCustomerOrder(app.platform, s.store.id, c.id, { key: 'op-x.0', amount: 700, countDelta: 1 });
      expect(again).to.deep.include({ orders_count: 1, total_spent: 700 });
      expect(await app.platform.db.collection('events').countDocuments({ type: 'customer.updated', 'payload.customer.id': c.id })).to.equal(1);
      await clearCustomerKey(app.platform, s.store.id, c.id, ['op-x.0']);
      expect((await app.platform.db.collection('customers').findOne({ _id: new ObjectId(c.id) }))?.pending_ops).to.deep.equal([]);
      expect((await api.get(`/v1/customers/${c.id}`, s.as)).body.data).to.deep.include({ orders_count: 1, total_spent: 700 });
    });

    it("answers not found for another store's customer and refuses non-integer amounts", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, b.as);
      let error: any = null;
      await recordCustomerOrder(app.platform, a.store.id, c.id, { key: 'op-d.0', amount: 100, countDelta: 1 }).catch((e) => (error = e));
      expect(error?.kind).to.equal('not_found');
      error = null;
      await recordCustomerOrder(app.platform, b.store.id, c.id, { key: 'op-e.0', amount: 10.5, countDelta: 1 }).catch((e) => (error = e));
      expect(error).to.be.instanceOf(Error);
      expect((await api.get(`/v1/customers/${c.id}`, b.as)).body.data).to.deep.include({ orders_count: 0, total_spent: 0 });
    });
  });

  describe('addresses (/v1/customers/:id/addresses)', () => {
    it('creates addresses; the first becomes the default; records customer_address.created', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      const res = await api.post(
        `/v1/customers/${c.id}/addresses`,
        anAddress({
          first_name: 'Ada',
          last_name: 'Lovelace',
          company: '',
          address2: 'Flat 2',
          province: 'Illinois',
          province_code: 'IL',
          zip: '62701',
          phone: '+1 217 555 0100',
        }),
        s.as,
      );
      expect(res.status).to.equal(201);
      const first = res.body.data;
      expect(first).to.have.all.keys(
        'id',
        'customer_id',
        'first_name',
        'last_name',
        'company',
        'address1',
        'address2',
        'city',
        'province',
        'province_code',
        'country_code',
        'zip',
        'phone',
        'default',
        'created_at',
        'updated_at',
      );
      expect(first).to.deep.include({ customer_id: c.id, company: null, address2: 'Flat 2', country_code: 'US', default: true });
      const second = await givenAddress(api, s.as, c.id, { city: 'Shelbyville' });
      expect(second.default).to.equal(false);
      expect((await api.get(`/v1/customers/${c.id}`, s.as)).body.data.default_address_id).to.equal(first.id);
      const [event] = await eventsOf('customer_address.created', `customer_address.created:${first.id}`);
      expect(event?.payload).to.deep.equal({ customer_address: first });
      const list = await api.get(`/v1/customers/${c.id}/addresses?limit=1`, s.as);
      expect(list.body.data.map((a: any) => a.id)).to.deep.equal([first.id]);
      const rest = await api.get(`/v1/customers/${c.id}/addresses?cursor=${list.body.page.next_cursor}`, s.as);
      expect(rest.body.data.map((a: any) => a.id)).to.deep.equal([second.id]);
      expect(rest.body.page.next_cursor).to.equal(null);
    });

    it('moves the default: one default at a time, kept on the customer', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      const a = await givenAddress(api, s.as, c.id);
      const b = await givenAddress(api, s.as, c.id);
      const res = await api.post(`/v1/customers/${c.id}/addresses/${b.id}/default`, undefined, s.as);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ id: b.id, default: true });
      const list = (await api.get(`/v1/customers/${c.id}/addresses`, s.as)).body.data;
      expect(list.map((x: any) => [x.id, x.default])).to.deep.equal([
        [a.id, false],
        [b.id, true],
      ]);
      const customer = (await api.get(`/v1/customers/${c.id}`, s.as)).body.data;
      expect(customer.default_address_id).to.equal(b.id);
      const event = await app.platform.db.collection('events').findOne({ type: 'customer.updated', 'payload.customer.default_address_id': b.id });
      expect(event?.payload.changed).to.deep.equal(['default_address_id']);
    });

    it('deleting the default promotes the oldest remaining address; deleting the last leaves none', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      const a = await givenAddress(api, s.as, c.id);
      const b = await givenAddress(api, s.as, c.id);
      const d = await givenAddress(api, s.as, c.id);
      await api.post(`/v1/customers/${c.id}/addresses/${d.id}/default`, undefined, s.as);
      const del = await api.delete(`/v1/customers/${c.id}/addresses/${d.id}`, s.as);
      expect(del.status).to.equal(204);
      expect((await api.get(`/v1/customers/${c.id}`, s.as)).body.data.default_address_id).to.equal(a.id);
      expect(await eventsOf('customer_address.deleted', `customer_address.deleted:${d.id}`)).to.have.length(1);
      await api.delete(`/v1/customers/${c.id}/addresses/${b.id}`, s.as);
      expect((await api.get(`/v1/customers/${c.id}`, s.as)).body.data.default_address_id).to.equal(a.id);
      await api.delete(`/v1/customers/${c.id}/addresses/${a.id}`, s.as);
      expect((await api.get(`/v1/customers/${c.id}`, s.as)).body.data.default_address_id).to.equal(null);
      expect((await api.get(`/v1/customers/${c.id}/addresses`, s.as)).body.data).to.deep.equal([]);
      expect((await api.delete(`/v1/customers/${c.id}/addresses/${a.id}`, s.as)).status).to.equal(404);
      const again = await givenAddress(api, s.as, c.id);
      expect(again.default).to.equal(true);
    });

    it('updates an address and records customer_address.updated', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      const a = await givenAddress(api, s.as, c.id);
      const res = await api.patch(`/v1/customers/${c.id}/addresses/${a.id}`, { city: 'Capital City', zip: '12345', address2: null }, s.as);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ city: 'Capital City', zip: '12345', address2: null, default: true });
      const [event] = await eventsOf('customer_address.updated', `customer_address.updated:${a.id}:v2`);
      expect(event?.payload.changed).to.have.members(['city', 'zip', 'address2']);
      expect((await api.get(`/v1/customers/${c.id}/addresses/${a.id}`, s.as)).body.data).to.deep.equal(res.body.data);
    });

    it('refuses bad addresses and bad updates, changing nothing', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      const a = await givenAddress(api, s.as, c.id);
      const before = await counts(app.platform.db);
      for (const body of [
        {},
        { city: 'X', country_code: 'US' },
        anAddress({ country_code: 'us' }),
        anAddress({ country_code: 'XX' }),
        anAddress({ country_code: 'UK' }),
        anAddress({ country_code: 'USA' }),
        anAddress({ address1: '' }),
        anAddress({ zip: 'x'.repeat(21) }),
        anAddress({ default: true }),
        anAddress({ customer_id: c.id }),
      ]) {
        const res = await api.post(`/v1/customers/${c.id}/addresses`, body, s.as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
      for (const body of [{}, { city: null }, { country_code: 'ZZ' }, { address1: '  ' }, { default: true }]) {
        const res = await api.patch(`/v1/customers/${c.id}/addresses/${a.id}`, body, s.as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.post(`/v1/customers/${c.id}/addresses/${a.id}/default`, { now: true }, s.as)).status).to.equal(400);
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect((await api.get(`/v1/customers/${c.id}/addresses/${a.id}`, s.as)).body.data).to.deep.equal(a);
    });

    it('holds at most 100 addresses per customer, even under concurrent creates', async () => {
      const s = await givenMerchantWithStore(api);
      const c = await givenCustomer(api, s.as);
      const results = await Promise.all(
        Array.from({ length: 104 }, (_, i) => api.post(`/v1/customers/${c.id}/addresses`, anAddress({ zip: String(i) }), s.as)),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((x) => x === 201)).to.have.length(100);
      expect(statuses.filter((x) => x === 409)).to.have.length(4);
      expect(results.find((r) => r.status === 409)?.body.error.code).to.equal('address_limit_reached');
      const customerDoc = await app.platform.db.collection('customers').findOne({ email: c.email });
      const stored = await app.platform.db.collection('customer_addresses').countDocuments({ customer_id: customerDoc!._id });
      expect(stored).to.equal(100);
      const defaults = (await api.get(`/v1/customers/${c.id}/addresses?limit=250`, s.as)).body.data.filter((x: any) => x.default);
      expect(defaults).to.have.length(1);
      // Deleting one frees a slot.
      await api.delete(`/v1/customers/${c.id}/addresses/${defaults[0].id}`, s.as);
      expect((await api.post(`/v1/customers/${c.id}/addresses`, anAddress(), s.as)).status).to.equal(201);
    });
  });

  describe('store isolation', () => {
    it("answers 404 for another store's customers and addresses, and changes nothing", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      const theirs = await givenCustomer(api, b.as, { email: 'theirs@example.com' });
      const theirAddress = await givenAddress(api, b.as, theirs.id);
      // The same merchant's other store is no different: ids are scoped to X-Store-Id.
      const sibling = await givenStore(api, b.merchant);
      const mine = await givenCustomer(api, a.as);
      const before = await counts(app.platform.db);
      const theirsBefore = (await api.get(`/v1/customers/${theirs.id}`, b.as)).body.data;
      for (const as of [a.as, { token: b.merchant.token, storeId: sibling.id }]) {
        const attempts: Reply[] = [
          await api.get(`/v1/customers/${theirs.id}`, as),
          await api.patch(`/v1/customers/${theirs.id}`, { first_name: 'Hijack' }, as),
          await api.get(`/v1/customers/${theirs.id}/addresses`, as),
          await api.post(`/v1/customers/${theirs.id}/addresses`, anAddress(), as),
          await api.get(`/v1/customers/${theirs.id}/addresses/${theirAddress.id}`, as),
          await api.patch(`/v1/customers/${theirs.id}/addresses/${theirAddress.id}`, { city: 'Hijack' }, as),
          await api.delete(`/v1/customers/${theirs.id}/addresses/${theirAddress.id}`, as),
          await api.post(`/v1/customers/${theirs.id}/addresses/${theirAddress.id}/default`, undefined, as),
        ];
        for (const res of attempts) {
          expect(res.status, JSON.stringify(res.body)).to.equal(404);
          expect(res.body.error.code).to.equal('not_found');
        }
      }
      // Another customer's address through one's own customer id is not found either.
      expect((await api.patch(`/v1/customers/${mine.id}/addresses/${theirAddress.id}`, { city: 'Hijack' }, a.as)).status).to.equal(404);
      expect((await api.delete(`/v1/customers/${mine.id}/addresses/${theirAddress.id}`, a.as)).status).to.equal(404);
      expect((await api.get('/v1/customers/not-an-id', a.as)).status).to.equal(404);
      expect((await api.get(`/v1/customers/${mine.id}/addresses/nope`, a.as)).status).to.equal(404);
      expect((await api.get('/v1/customers?query=theirs', a.as)).body.data).to.deep.equal([]);
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect((await api.get(`/v1/customers/${theirs.id}`, b.as)).body.data).to.deep.equal(theirsBefore);
      expect((await api.get(`/v1/customers/${theirs.id}/addresses/${theirAddress.id}`, b.as)).body.data).to.deep.equal(theirAddress);
    });

    it('answers 403 for an X-Store-Id the caller does not own, 401 without a session', async () => {
      const b = await givenMerchantWithStore(api);
      const intruder = await givenMerchant(api);
      const theirs = await givenCustomer(api, b.as);
      for (const res of [
        await api.get('/v1/customers', { token: intruder.token, storeId: b.store.id }),
        await api.post('/v1/customers', { email: 'x@example.com' }, { token: intruder.token, storeId: b.store.id }),
        await api.get(`/v1/customers/${theirs.id}`, { token: intruder.token, storeId: b.store.id }),
        await api.get(`/v1/customers/${theirs.id}/addresses`, { token: intruder.token, storeId: b.store.id }),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body.error.code).to.equal('store_forbidden');
      }
      expect((await api.get('/v1/customers', { storeId: b.store.id })).status).to.equal(401);
      expect((await api.get('/v1/customers', { token: intruder.token })).body.error.code).to.equal('store_required');
    });
  });
});
