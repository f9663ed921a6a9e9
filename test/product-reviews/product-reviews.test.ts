import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import type { Platform } from '../../src/platform.js';
import { productRatingSummary } from '../../src/product-reviews/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenCustomer } from '../helpers/customers.js';
import { counts } from '../helpers/database.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { givenProductReview } from '../helpers/product-reviews.js';

const PATH = '/v1/reviews';
const FIELDS = [
  'id',
  'product_id',
  'customer_id',
  'author_name',
  'author_email',
  'rating',
  'title',
  'body',
  'status',
  'reply',
  'version',
  'created_at',
  'updated_at',
];

describe('Reviews (/v1/reviews)', () => {
  const { app, api } = useTestApp('reviews');
  let platform: Platform;
  before(async () => {
    platform = app.platform;
  });

  /** A merchant with a store that has one product to review. */
  async function givenStoreWithProduct() {
    const shop = await givenMerchantWithStore(api);
    const product = await api.post('/v1/products', { title: 'Teapot', variants: [{ price: 1500 }] }, shop.as);
    expect(product.status, JSON.stringify(product.body)).to.equal(201);
    return { ...shop, productId: product.body.data.id as string };
  }

  const eventsOf = (key: string) => platform.db.collection('events').find({ idempotency_key: key }).toArray();

  describe('POST /v1/reviews', () => {
    it('records a review with defaults (pending, no reply) and emits review.created', async () => {
      const { store, as, productId } = await givenStoreWithProduct();
      const res = await api.post(PATH, { product_id: productId, author_name: '  Ada  ', rating: 5, body: '  Lovely <b>teapot</b> & cups\n' }, as);
      expect(res.status).to.equal(201);
      expect(res.body.data).to.have.all.keys(...FIELDS);
      expect(res.body.data).to.include({
        product_id: productId,
        customer_id: null,
        author_name: 'Ada',
        author_email: null,
        rating: 5,
        title: null,
        body: '  Lovely <b>teapot</b> & cups\n',
        status: 'pending',
        reply: null,
        version: 1,
      });
      const [event] = await eventsOf(`review.created:${res.body.data.id}`);
      expect(event?.type).to.equal('review.created');
      expect(event?.store_id.toHexString()).to.equal(store.id);
      expect(event?.payload).to.deep.equal({ review: res.body.data });
      expect((await api.get(`${PATH}/${res.body.data.id}`, as)).body.data).to.deep.equal(res.body.data);
      // Stored as given: the markup is text, escaped only when rendered.
      const stored = await platform.db.collection('reviews').findOne({ _id: new ObjectId(res.body.data.id) });
      expect(stored?.body).to.equal('  Lovely <b>teapot</b> & cups\n');
    });

    it('takes every field: a customer of the store, a normalised email, a title and a status', async () => {
      const { as, productId } = await givenStoreWithProduct();
      const customer = await givenCustomer(api, as, { email: 'grace@example.com' });
      const review = await givenProductReview(api, as, {
        product_id: productId,
        customer_id: customer.id,
        author_name: 'Grace',
        author_email: '  Grace@Example.COM ',
        rating: 3,
        title: '  Fine  ',
        body: 'Does the job.',
        status: 'published',
      });
      expect(review).to.include({ customer_id: customer.id, author_email: 'grace@example.com', rating: 3, title: 'Fine', status: 'published' });
      const empty = await givenProductReview(api, as, {
        product_id: productId,
        author_name: 'X',
        rating: 1,
        body: 'b',
        title: '',
        author_email: null,
        customer_id: null,
      });
      expect(empty).to.include({ title: null, author_email: null, customer_id: null });
    });

    it('replays a retried Idempotency-Key and records one review', async () => {
      const { as, productId } = await givenStoreWithProduct();
      const headers = { 'idempotency-key': 'review-import-1' };
      const body = { product_id: productId, author_name: 'Imported', rating: 4, body: 'Good' };
      const first = await api.post(PATH, body, { ...as, headers });
      const second = await api.post(PATH, body, { ...as, headers });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      expect((await api.get(PATH, as)).body.data).to.have.length(1);
    });

    it("refuses bad input, including unknown and other stores' products and customers (400), and changes nothing", async () => {
      const { as, productId } = await givenStoreWithProduct();
      const other = await givenStoreWithProduct();
      const otherCustomer = await givenCustomer(api, other.as, { email: 'someone@example.com' });
      const ok = { product_id: productId, author_name: 'Ada', rating: 4, body: 'Nice' };
      const before = await counts(platform.db);
      const cases: [unknown, RegExp][] = [
        [{ ...ok, rating: 0 }, /body\.rating: must be a whole number from 1 to 5/],
        [{ ...ok, rating: 6 }, /body\.rating: must be a whole number from 1 to 5/],
        [{ ...ok, rating: 2.5 }, /body\.rating: must be a whole number from 1 to 5/],
        [{ ...ok, rating: '4' }, /body\.rating/],
        [{ ...ok, rating: undefined }, /body\.rating/],
        [{ ...ok, product_id: 'nope' }, /body\.product_id: must be a product id/],
        [{ ...ok, product_id: '0123456789abcdef01234567' }, /body\.product_id: is not a product of this store/],
        [{ ...ok, product_id: other.productId }, /body\.product_id: is not a product of this store/],
        [{ ...ok, customer_id: '0123456789abcdef01234567' }, /body\.customer_id: is not a customer of this store/],
        [{ ...ok, customer_id: otherCustomer.id }, /body\.customer_id: is not a customer of this store/],
        [{ ...ok, author_name: '   ' }, /body\.author_name: must not be empty/],
        [{ ...ok, author_name: 'a'.repeat(101) }, /body\.author_name: must be at most 100/],
        [{ ...ok, author_email: 'not-an-email' }, /body\.author_email: must be an email address/],
        [{ ...ok, title: 't'.repeat(201) }, /body\.title: must be at most 200/],
        [{ ...ok, body: '' }, /body\.body: must not be empty/],
        [{ ...ok, body: ' \n\t ' }, /body\.body: must not be only whitespace/],
        [{ ...ok, body: 'b'.repeat(5001) }, /body\.body: must be at most 5000/],
        [{ ...ok, body: 'broken \ud800 text' }, /body\.body: must be valid Unicode text/],
        [{ ...ok, status: 'approved' }, /body\.status/],
        [{ ...ok, reply: { body: 'x' } }, /body: Unrecognized key: "reply"/],
        [{ ...ok, version: 3 }, /body: Unrecognized key: "version"/],
      ];
      for (const [body, detail] of cases) {
        const res = await api.post(PATH, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      const both = await api.post(PATH, { ...ok, product_id: other.productId, customer_id: otherCustomer.id }, as);
      expect(both.body.error.details).to.have.length(2);
      expect((await api.send('POST', PATH, '{"product_id":', as)).status).to.equal(400);
      expect(await counts(platform.db)).to.deep.equal(before);
      // The limits themselves are accepted.
      await givenProductReview(api, as, { ...ok, author_name: 'a'.repeat(100), title: 't'.repeat(200), body: 'b'.repeat(5000), rating: 1 });
      await givenProductReview(api, as, { ...ok, body: 'emoji 🍵 fine' });
    });
  });

  describe('GET /v1/reviews', () => {
    it("lists the store's reviews in creation order, filtered by product, status and rating, page by page", async () => {
      const { as, productId } = await givenStoreWithProduct();
      const second = await api.post('/v1/products', { title: 'Cup', variants: [{ price: 500 }] }, as);
      const cupId = second.body.data.id as string;
      const made = [];
      for (const [product, rating, status] of [
        [productId, 5, 'published'],
        [cupId, 4, 'pending'],
        [productId, 4, 'hidden'],
        [productId, 1, 'published'],
        [cupId, 5, 'published'],
      ] as const) {
        made.push(await givenProductReview(api, as, { product_id: product, author_name: 'A', rating, body: 'text', status }));
      }
      const ids = (res: { body: any }) => (res.body.data as { id: string }[]).map((r) => r.id);
      expect(ids(await api.get(PATH, as))).to.deep.equal(made.map((r) => r.id));
      expect(ids(await api.get(`${PATH}?product_id=${productId}`, as))).to.deep.equal([made[0].id, made[2].id, made[3].id]);
      expect(ids(await api.get(`${PATH}?status=published`, as))).to.deep.equal([made[0].id, made[3].id, made[4].id]);
      expect(ids(await api.get(`${PATH}?rating=4`, as))).to.deep.equal([made[1].id, made[2].id]);
      expect(ids(await api.get(`${PATH}?product_id=${productId}&status=published&rating=5`, as))).to.deep.equal([made[0].id]);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: any } = await api.get(`${PATH}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, as);
        expect(page.status).to.equal(200);
        seen.push(...ids(page));
        cursor = page.body.page.next_cursor;
      } while (cursor);
      expect(seen).to.deep.equal(made.map((r) => r.id));

      for (const q of ['rating=0', 'rating=2.5', 'rating=six', 'status=approved', 'product_id=xyz', 'limit=0', 'cursor=garbage', 'sort=rating']) {
        const res = await api.get(`${PATH}?${q}`, as);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code, q).to.equal('invalid_input');
      }
    });
  });

  describe('PATCH /v1/reviews/:id (moderation)', () => {
    it('moves between pending, published and hidden, with a version and a review.updated event per change', async () => {
      const { as, productId } = await givenStoreWithProduct();
      const review = await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 4, body: 'ok' });
      let version = 1;
      for (const status of ['published', 'hidden', 'published', 'pending', 'hidden', 'pending']) {
        const res = await api.patch(`${PATH}/${review.id}`, { status }, as);
        expect(res.status, status).to.equal(200);
        version += 1;
        expect(res.body.data).to.include({ status, version, rating: 4, body: 'ok' });
        const [event] = await eventsOf(`review.updated:${review.id}:v${version}`);
        expect(event?.payload).to.deep.equal({ review: res.body.data, changed: ['status'] });
      }
      // The status it already has: nothing changes, no event.
      const same = await api.patch(`${PATH}/${review.id}`, { status: 'pending' }, as);
      expect(same.status).to.equal(200);
      expect(same.body.data.version).to.equal(version);
      expect(await eventsOf(`review.updated:${review.id}:v${version + 1}`)).to.have.length(0);
    });

    it('lets the merchant change only the status: author fields and bad input are 400 and change nothing', async () => {
      const { as, productId } = await givenStoreWithProduct();
      const review = await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 4, body: 'ok' });
      const before = await counts(platform.db);
      const cases: [unknown, RegExp][] = [
        [{ rating: 5 }, /body: Unrecognized key: "rating"/],
        [{ body: 'better' }, /body: Unrecognized key: "body"/],
        [{ author_name: 'B', status: 'published' }, /body: Unrecognized key: "author_name"/],
        [{ title: 'x' }, /body: Unrecognized key: "title"/],
        [{ status: 'deleted' }, /body\.status/],
        [{}, /body\.status/],
      ];
      for (const [body, detail] of cases) {
        const res = await api.patch(`${PATH}/${review.id}`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect(await counts(platform.db)).to.deep.equal(before);
      expect((await api.get(`${PATH}/${review.id}`, as)).body.data).to.deep.equal(review);
    });
  });

  describe('replies', () => {
    it('sets, replaces and deletes the merchant reply, with events', async () => {
      const { as, productId } = await givenStoreWithProduct();
      const review = await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 2, body: 'Chipped' });
      const set = await api.post(`${PATH}/${review.id}/reply`, { body: 'Sorry! <script>x</script> We will replace it.' }, as);
      expect(set.status).to.equal(200);
      expect(set.body.data.reply.body).to.equal('Sorry! <script>x</script> We will replace it.');
      expect(Date.parse(set.body.data.reply.replied_at)).to.be.a('number').and.not.NaN;
      expect(set.body.data.version).to.equal(2);
      expect((await eventsOf(`review.replied:${review.id}:v2`))[0]?.payload).to.deep.equal({ review: set.body.data });

      const replaced = await api.post(`${PATH}/${review.id}/reply`, { body: 'Replacement sent.' }, as);
      expect(replaced.status).to.equal(200);
      expect(replaced.body.data.reply.body).to.equal('Replacement sent.');
      expect(replaced.body.data.version).to.equal(3);
      expect(await eventsOf(`review.replied:${review.id}:v3`)).to.have.length(1);

      const before = await counts(platform.db);
      for (const body of [{}, { body: '' }, { body: '   ' }, { body: 'x'.repeat(5001) }, { body: 'ok', replied_at: '2020-01-01T00:00:00Z' }]) {
        const res = await api.post(`${PATH}/${review.id}/reply`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
      expect(await counts(platform.db)).to.deep.equal(before);

      const removed = await api.delete(`${PATH}/${review.id}/reply`, as);
      expect(removed.status).to.equal(204);
      const after = (await api.get(`${PATH}/${review.id}`, as)).body.data;
      expect(after).to.include({ reply: null, version: 4 });
      expect((await eventsOf(`review.updated:${review.id}:v4`))[0]?.payload).to.deep.equal({ review: after, changed: ['reply'] });

      const again = await api.delete(`${PATH}/${review.id}/reply`, as);
      expect(again.status).to.equal(404);
      expect(again.body.error.code).to.equal('reply_not_found');
    });
  });

  describe('DELETE /v1/reviews/:id', () => {
    it('deletes the review and emits review.deleted with it as it was', async () => {
      const { as, productId } = await givenStoreWithProduct();
      const review = await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 3, body: 'meh' });
      expect((await api.delete(`${PATH}/${review.id}`, as)).status).to.equal(204);
      expect((await eventsOf(`review.deleted:${review.id}`))[0]?.payload).to.deep.equal({ review });
      expect((await api.get(`${PATH}/${review.id}`, as)).status).to.equal(404);
      expect((await api.delete(`${PATH}/${review.id}`, as)).status).to.equal(404);
    });
  });

  describe('GET /v1/reviews/summary', () => {
    it('counts only published reviews, with a one-decimal average and the distribution', async () => {
      const { as, store, productId } = await givenStoreWithProduct();
      const other = await api.post('/v1/products', { title: 'Cup', variants: [{ price: 500 }] }, as);
      const empty = await api.get(`${PATH}/summary?product_id=${productId}`, as);
      expect(empty.status).to.equal(200);
      expect(empty.body.data).to.deep.equal({ product_id: productId, count: 0, average: null, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } });

      for (const rating of [5, 5, 4, 2]) await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating, body: 'x', status: 'published' });
      await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 1, body: 'x' }); // pending
      await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 1, body: 'x', status: 'hidden' });
      await givenProductReview(api, as, { product_id: other.body.data.id, author_name: 'A', rating: 1, body: 'x', status: 'published' });
      const later = await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 3, body: 'x' });

      const summary = await api.get(`${PATH}/summary?product_id=${productId}`, as);
      // 16 / 4 = 4.0
      expect(summary.body.data).to.deep.equal({ product_id: productId, count: 4, average: 4, distribution: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 2 } });

      // Publishing moves it into the summary: 19 / 5 = 3.8; hiding takes it out again.
      await api.patch(`${PATH}/${later.id}`, { status: 'published' }, as);
      expect(await productRatingSummary(platform, store.id, productId)).to.deep.equal({
        product_id: productId,
        count: 5,
        average: 3.8,
        distribution: { 1: 0, 2: 1, 3: 1, 4: 1, 5: 2 },
      });
      await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 5, body: 'x', status: 'published' });
      expect((await productRatingSummary(platform, store.id, productId)).average).to.equal(4); // 24 / 6
      await givenProductReview(api, as, { product_id: productId, author_name: 'A', rating: 5, body: 'x', status: 'published' });
      expect((await productRatingSummary(platform, store.id, productId)).average).to.equal(4.1); // 29 / 7 = 4.142...
      await api.patch(`${PATH}/${later.id}`, { status: 'hidden' }, as);
      expect(await productRatingSummary(platform, store.id, productId)).to.include({ count: 6, average: 4.3 }); // 26 / 6 = 4.333
    });

    it("rounds halves up and refuses a missing, malformed or other store's product", async () => {
      const a = await givenStoreWithProduct();
      const b = await givenStoreWithProduct();
      for (const rating of [4, 5, 5, 5])
        await givenProductReview(api, a.as, { product_id: a.productId, author_name: 'A', rating, body: 'x', status: 'published' });
      expect((await productRatingSummary(platform, a.store.id, a.productId)).average).to.equal(4.8); // 19 / 4 = 4.75
      expect((await productRatingSummary(platform, b.store.id, a.productId)).count).to.equal(0);

      const missing = await api.get(`${PATH}/summary`, a.as);
      expect(missing.status).to.equal(400);
      expect(missing.body.error.details.join('\n')).to.match(/query\.product_id/);
      expect((await api.get(`${PATH}/summary?product_id=abc`, a.as)).status).to.equal(400);
      expect((await api.get(`${PATH}/summary?product_id=${a.productId}&x=1`, a.as)).status).to.equal(400);
      expect((await api.get(`${PATH}/summary?product_id=${a.productId}`, b.as)).status).to.equal(404);
      expect((await api.get(`${PATH}/summary?product_id=0123456789abcdef01234567`, a.as)).status).to.equal(404);
    });
  });

  describe('store isolation', () => {
    it("answers 404 for another store's review ids and changes nothing", async () => {
      const a = await givenStoreWithProduct();
      const b = await givenStoreWithProduct();
      const theirs = await givenProductReview(api, b.as, { product_id: b.productId, author_name: 'B', rating: 5, body: 'b' });
      await api.post(`${PATH}/${theirs.id}/reply`, { body: 'thanks' }, b.as);
      const before = await counts(platform.db);
      const snapshot = await platform.db.collection('reviews').findOne({});
      const attempts = [
        api.get(`${PATH}/${theirs.id}`, a.as),
        api.patch(`${PATH}/${theirs.id}`, { status: 'hidden' }, a.as),
        api.post(`${PATH}/${theirs.id}/reply`, { body: 'hijack' }, a.as),
        api.delete(`${PATH}/${theirs.id}/reply`, a.as),
        api.delete(`${PATH}/${theirs.id}`, a.as),
        api.get(`${PATH}/not-an-id`, a.as),
        api.patch(`${PATH}/0123456789abcdef01234567`, { status: 'hidden' }, a.as),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status, JSON.stringify(res.body)).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
      expect((await api.get(PATH, a.as)).body.data).to.have.length(0);
      expect((await api.get(`${PATH}?product_id=${b.productId}`, a.as)).body.data).to.have.length(0);
      expect(await counts(platform.db)).to.deep.equal(before);
      expect(await platform.db.collection('reviews').findOne({ _id: snapshot!._id })).to.deep.equal(snapshot);
      expect((await api.get(`${PATH}/${theirs.id}`, b.as)).body.data).to.include({ status: 'pending', version: 2 });
    });

    it('needs a session (401) and a store the merchant owns (403)', async () => {
      const a = await givenStoreWithProduct();
      const b = await givenStoreWithProduct();
      const review = await givenProductReview(api, b.as, { product_id: b.productId, author_name: 'B', rating: 5, body: 'b' });
      const foreign = { token: a.merchant.token, storeId: b.store.id };
      const before = await counts(platform.db);
      expect((await api.get(PATH)).status).to.equal(401);
      const attempts = [
        api.get(PATH, foreign),
        api.post(PATH, { product_id: b.productId, author_name: 'X', rating: 1, body: 'x' }, foreign),
        api.get(`${PATH}/summary?product_id=${b.productId}`, foreign),
        api.get(`${PATH}/${review.id}`, foreign),
        api.patch(`${PATH}/${review.id}`, { status: 'hidden' }, foreign),
        api.post(`${PATH}/${review.id}/reply`, { body: 'x' }, foreign),
        api.delete(`${PATH}/${review.id}/reply`, foreign),
        api.delete(`${PATH}/${review.id}`, foreign),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).to.equal(403);
        expect(res.body.error.code).to.equal('store_forbidden');
      }
      expect(await counts(platform.db)).to.deep.equal(before);
    });
  });
});
