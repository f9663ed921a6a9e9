import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import { authorizeApp, givenAppRating, givenDeveloper, givenPublishedApp, givenSubmittedApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, givenStore, type GivenMerchantWithStore } from '../helpers/factories.js';

const CATALOG = '/v1/app-store/apps';
const DEVELOPER_APPS = '/v1/app-store/developers/apps';
const OPERATOR_EMAIL = 'operator-app-ratings@example.com';
const PUBLIC_FIELDS = ['id', 'rating', 'title', 'body', 'reply', 'created_at', 'updated_at'];
const NO_RATINGS = { average: null, count: 0, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } };

/** Catalog reviews (docs/apps.md, Catalog reviews of apps): merchants review apps their stores have or had installed; partners reply. */
describe('App app ratings (/v1/app-store/apps/:id/reviews)', () => {
  const { app, api } = useTestApp('app_catalog_reviews', { OPERATOR_EMAILS: OPERATOR_EMAIL });
  let operatorToken: string;
  let partner: GivenApp;
  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR_EMAIL })).token;
    partner = await givenPublishedApp(api, operatorToken);
  });

  const reviewsOf = (a: GivenApp = partner) => `${CATALOG}/${a.app.id}/reviews`;
  const partnerReviewsOf = (a: GivenApp = partner) => `${DEVELOPER_APPS}/${a.app.id}/reviews`;
  const asMerchant = (shop: GivenMerchantWithStore) => ({ token: shop.merchant.token });
  const asPartner = (a: GivenApp = partner) => ({ token: a.developer.merchant.token });
  const review = (over: Record<string, unknown> = {}) => ({ rating: 4, title: 'Does the job', body: 'Prints every slip we need.', ...over });

  /** The merchant's consent in its store (the installation exists from then on); its id. */
  async function install(shop: GivenMerchantWithStore, a: GivenApp = partner): Promise<string> {
    return (await authorizeApp(api, a, shop, { scopes: ['read_products'] })).installationId;
  }

  /** A new merchant and store with the app installed. */
  async function givenStoreWithApp(a: GivenApp = partner): Promise<GivenMerchantWithStore> {
    const shop = await givenMerchantWithStore(api);
    await install(shop, a);
    return shop;
  }

  /** A rating of `a` by a new shop that installed it: the shop and the created review. */
  async function givenRatingByNewStore(
    a: GivenApp = partner,
    over: Record<string, unknown> = {},
  ): Promise<{ shop: GivenMerchantWithStore; review: Record<string, any> }> {
    const shop = await givenStoreWithApp(a);
    return { shop, review: await givenAppRating(api, shop, a, review(over)) };
  }

  const catalogRating = async (a: GivenApp) => (await api.get(`${CATALOG}/${a.app.id}`)).body.data.rating;
  const reviewCount = (a: GivenApp = partner) => app.platform.db.collection('app_catalog_reviews').countDocuments({ app_id: new ObjectId(a.app.id as string) });

  describe('POST /v1/app-store/apps/:id/reviews', () => {
    it('creates the review of a store that has the app installed (201), shown to its author with the store', async () => {
      const shop = await givenStoreWithApp();
      const res = await api.post(reviewsOf(), review({ store_id: shop.store.id, title: '  Does the job  ', body: '  Prints every slip.\n' }), asMerchant(shop));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.have.all.keys(...PUBLIC_FIELDS, 'store_id');
      expect(res.body.data).to.include({ rating: 4, title: 'Does the job', body: 'Prints every slip.', reply: null, store_id: shop.store.id });
      const stored = await app.platform.db.collection('app_catalog_reviews').findOne({ _id: new ObjectId(res.body.data.id as string) });
      expect(stored).to.include({ version: 1 });
      expect(stored!.merchant_id.toHexString()).to.equal(shop.merchant.id);
    });

    it('accepts a store that had the app installed and uninstalled it ("has or had")', async () => {
      const shop = await givenMerchantWithStore(api);
      const installationId = await install(shop);
      const removed = await api.delete(`/v1/app-store/installations/${installationId}`, shop.as);
      expect(removed.body.data.status).to.equal('uninstalled');
      const res = await api.post(reviewsOf(), review({ store_id: shop.store.id, title: undefined }), asMerchant(shop));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.title).to.equal(null);
    });

    it('refuses a store that never installed the app (403 review_not_eligible), and writes nothing', async () => {
      const shop = await givenMerchantWithStore(api);
      const before = await reviewCount();
      const res = await api.post(reviewsOf(), review({ store_id: shop.store.id }), asMerchant(shop));
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('review_not_eligible');
      // Installing another app does not make this one reviewable.
      const otherApp = await givenPublishedApp(api, operatorToken);
      await install(shop, otherApp);
      expect((await api.post(reviewsOf(), review({ store_id: shop.store.id }), asMerchant(shop))).body.error.code).to.equal('review_not_eligible');
      expect(await reviewCount()).to.equal(before);
    });

    it('refuses a store the merchant has no access to (403 store_forbidden), and anonymous callers (401)', async () => {
      const owner = await givenStoreWithApp();
      const stranger = await givenMerchantWithStore(api);
      const before = await reviewCount();
      const res = await api.post(reviewsOf(), review({ store_id: owner.store.id }), asMerchant(stranger));
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('store_forbidden');
      expect((await api.post(reviewsOf(), review({ store_id: owner.store.id }))).status).to.equal(401);
      expect((await api.post(reviewsOf(), review({ store_id: new ObjectId().toHexString() }), asMerchant(owner))).body.error.code).to.equal('store_forbidden');
      expect(await reviewCount()).to.equal(before);
    });

    it('refuses the partner reviewing their own app (403 review_own_app)', async () => {
      const own = await givenPublishedApp(api, operatorToken);
      const store = await givenStore(api, own.developer.merchant);
      const shop = { merchant: own.developer.merchant, store, as: { token: own.developer.merchant.token, storeId: store.id } };
      await install(shop, own);
      const res = await api.post(reviewsOf(own), review({ store_id: store.id }), asPartner(own));
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('review_own_app');
    });

    it('answers 404 for an app that is not published, or no app at all', async () => {
      const shop = await givenMerchantWithStore(api);
      const draft = await givenSubmittedApp(api);
      for (const id of [draft.app.id, new ObjectId().toHexString(), 'nope']) {
        const res = await api.post(`${CATALOG}/${id}/reviews`, review({ store_id: shop.store.id }), asMerchant(shop));
        expect(res.status, id).to.equal(404);
        expect((await api.get(`${CATALOG}/${id}/reviews`)).status, id).to.equal(404);
      }
    });

    it('allows one review per store: a second is 409 review_exists naming the first, even from another merchant of the store', async () => {
      const { shop, review: first } = await givenRatingByNewStore();
      const again = await api.post(reviewsOf(), review({ store_id: shop.store.id, rating: 1 }), asMerchant(shop));
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('review_exists');
      expect(again.body.error.message).to.include(first.id);
      expect(again.body.error.details).to.deep.equal([`review_id: ${first.id}`]);
      // The same store through another app's installation is a separate review.
      const otherApp = await givenPublishedApp(api, operatorToken);
      await install(shop, otherApp);
      expect((await api.post(reviewsOf(otherApp), review({ store_id: shop.store.id }), asMerchant(shop))).status).to.equal(201);
    });

    it('counts one review of concurrent first reviews for the same store: one 201, the others 409', async () => {
      const a = await givenPublishedApp(api, operatorToken);
      const shop = await givenStoreWithApp(a);
      const results = await Promise.all([1, 2, 3, 4, 5].map((rating) => api.post(reviewsOf(a), review({ store_id: shop.store.id, rating }), asMerchant(shop))));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409]);
      const created = results.find((r) => r.status === 201)!.body.data;
      expect(await catalogRating(a)).to.deep.include({ count: 1, average: created.rating });
    });

    it('replays a create retried with the same Idempotency-Key', async () => {
      const shop = await givenStoreWithApp();
      const headers = { 'idempotency-key': `review-${randomBytes(4).toString('hex')}` };
      const first = await api.post(reviewsOf(), review({ store_id: shop.store.id }), { ...asMerchant(shop), headers });
      const second = await api.post(reviewsOf(), review({ store_id: shop.store.id }), { ...asMerchant(shop), headers });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.body.data.id).to.equal(first.body.data.id);
    });

    it('refuses bad input with 400 and the field, writing nothing', async () => {
      const shop = await givenStoreWithApp();
      const before = await reviewCount();
      const bad = async (body: Record<string, unknown>) => {
        const res = await api.post(reviewsOf(), body, asMerchant(shop));
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        return res.body.error.details as string[];
      };
      const valid = review({ store_id: shop.store.id });
      for (const rating of [0, 6, 2.5, '5', null, -1])
        expect(await bad({ ...valid, rating })).to.deep.equal(['body.rating: must be a whole number from 1 to 5']);
      expect(await bad({ ...valid, body: '' })).to.deep.equal(['body.body: must not be empty']);
      expect(await bad({ ...valid, body: '   \n ' })).to.deep.equal(['body.body: must not be empty']);
      expect(await bad({ ...valid, body: 'x'.repeat(5001) })).to.deep.equal(['body.body: must be at most 5000 characters']);
      expect(await bad({ ...valid, title: 't'.repeat(121) })).to.deep.equal(['body.title: must be at most 120 characters']);
      expect(await bad({ ...valid, author: 'me' })).to.deep.equal(['body: Unrecognized key: "author"']);
      expect(await bad({ ...valid, store_id: 'nope' })).to.deep.equal(['body.store_id: must be a store id (24 lowercase hex characters)']);
      expect(await bad({ rating: 5 })).to.have.length(2);
      const text = await api.send('POST', reviewsOf(), '{"rating":', { ...asMerchant(shop), headers: { 'content-type': 'application/json' } });
      expect(text.status).to.equal(400);
      expect(await reviewCount()).to.equal(before);
    });
  });

  describe('GET /v1/app-store/apps/:id/reviews (public)', () => {
    it('lists newest first with the reply, no author, store or partner internals; pages with a cursor; filters by rating', async () => {
      const a = await givenPublishedApp(api, operatorToken);
      const empty = await api.get(reviewsOf(a));
      expect(empty.status).to.equal(200);
      expect(empty.body).to.deep.equal({ data: [], page: { next_cursor: null } });
      const made = [];
      for (const rating of [5, 3, 5]) made.push((await givenRatingByNewStore(a, { rating })).review);
      const replied = await api.post(`${partnerReviewsOf(a)}/${made[0]!.id}/reply`, { body: 'Thank you!' }, asPartner(a));
      expect(replied.status, JSON.stringify(replied.body)).to.equal(201);

      const all = await api.get(reviewsOf(a));
      expect(all.body.data.map((r: { id: string }) => r.id)).to.deep.equal(made.map((r) => r.id).reverse());
      for (const item of all.body.data) expect(item).to.have.all.keys(...PUBLIC_FIELDS);
      expect(all.body.data[2].reply).to.have.all.keys('body', 'created_at', 'updated_at');
      expect(all.body.data[2].reply.body).to.equal('Thank you!');
      const text = JSON.stringify(all.body);
      expect(text).to.not.include(a.developer.merchant.id);
      expect(text).to.not.include(a.developer.profile.id);

      const first = await api.get(`${reviewsOf(a)}?limit=2`);
      expect(first.body.data.map((r: { id: string }) => r.id)).to.deep.equal([made[2]!.id, made[1]!.id]);
      const second = await api.get(`${reviewsOf(a)}?limit=2&cursor=${first.body.page.next_cursor}`);
      expect(second.body).to.deep.equal({ data: [all.body.data[2]], page: { next_cursor: null } });

      const fives = await api.get(`${reviewsOf(a)}?rating=5`);
      expect(fives.body.data.map((r: { id: string }) => r.id)).to.deep.equal([made[2]!.id, made[0]!.id]);
      expect((await api.get(`${reviewsOf(a)}?rating=1`)).body.data).to.deep.equal([]);
      for (const q of ['rating=0', 'rating=2.5', 'rating=x', 'cursor=garbage', 'limit=0', 'sort=rating'])
        expect((await api.get(`${reviewsOf(a)}?${q}`)).status, q).to.equal(400);
    });
  });

  describe('PATCH|DELETE /v1/app-store/apps/:id/reviews/:reviewId', () => {
    it('lets the author edit rating, title and body; another merchant is refused (403 store_forbidden)', async () => {
      const { shop, review: created } = await givenRatingByNewStore();
      const path = `${reviewsOf()}/${created.id}`;
      const edited = await api.patch(path, { rating: 2, title: null }, asMerchant(shop));
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      expect(edited.body.data).to.include({
        id: created.id,
        rating: 2,
        title: null,
        body: created.body,
        store_id: shop.store.id,
        created_at: created.created_at,
      });
      const again = await api.patch(path, { body: ' Better now. ', title: 'Update' }, asMerchant(shop));
      expect(again.body.data).to.include({ rating: 2, title: 'Update', body: 'Better now.' });
      expect((await app.platform.db.collection('app_catalog_reviews').findOne({ _id: new ObjectId(created.id as string) }))!.version).to.equal(3);

      const stranger = await givenStoreWithApp();
      const refused = await api.patch(path, { rating: 5 }, asMerchant(stranger));
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('store_forbidden');
      expect((await api.delete(path, asMerchant(stranger))).status).to.equal(403);
      expect((await api.patch(path, { rating: 5 })).status).to.equal(401);
      // The partner cannot edit a merchant's review either.
      expect((await api.patch(path, { rating: 5 }, asPartner())).status).to.equal(403);
      const listed = (await api.get(reviewsOf())).body.data.find((r: { id: string }) => r.id === created.id);
      expect(listed).to.include({ rating: 2, title: 'Update', body: 'Better now.' });
    });

    it('refuses an empty or bad edit (400) and an unknown review (404), changing nothing', async () => {
      const { shop, review: created } = await givenRatingByNewStore();
      const path = `${reviewsOf()}/${created.id}`;
      const bad = async (body: unknown) => {
        const res = await api.patch(path, body, asMerchant(shop));
        expect(res.status, JSON.stringify(body)).to.equal(400);
        return res.body.error.details as string[];
      };
      expect(await bad({})).to.deep.equal(['body: give at least one of rating, title, body']);
      expect(await bad({ rating: 0 })).to.deep.equal(['body.rating: must be a whole number from 1 to 5']);
      expect(await bad({ rating: 3.5 })).to.deep.equal(['body.rating: must be a whole number from 1 to 5']);
      expect(await bad({ body: '' })).to.deep.equal(['body.body: must not be empty']);
      expect(await bad({ body: null })).to.have.length(1);
      expect(await bad({ store_id: shop.store.id })).to.include('body: Unrecognized key: "store_id"');
      expect(await bad({ rating: 2, store_id: shop.store.id })).to.deep.equal(['body: Unrecognized key: "store_id"']);
      for (const id of [new ObjectId().toHexString(), 'nope'])
        expect((await api.patch(`${reviewsOf()}/${id}`, { rating: 1 }, asMerchant(shop))).status).to.equal(404);
      // A review of another app is not found under this one.
      const other = await givenPublishedApp(api, operatorToken);
      expect((await api.patch(`${reviewsOf(other)}/${created.id}`, { rating: 1 }, asMerchant(shop))).status).to.equal(404);
      const stored = await app.platform.db.collection('app_catalog_reviews').findOne({ _id: new ObjectId(created.id as string) });
      expect(stored).to.include({ rating: created.rating, body: created.body, version: 1 });
    });

    it("deletes the author's review (204); the store may then review again", async () => {
      const { shop, review: created } = await givenRatingByNewStore();
      const path = `${reviewsOf()}/${created.id}`;
      expect((await api.delete(path, asMerchant(shop))).status).to.equal(204);
      expect((await api.delete(path, asMerchant(shop))).status).to.equal(404);
      expect((await api.patch(path, { rating: 1 }, asMerchant(shop))).status).to.equal(404);
      expect((await api.post(reviewsOf(), review({ store_id: shop.store.id }), asMerchant(shop))).status).to.equal(201);
    });
  });

  describe('the rating summary in the catalog', () => {
    it('shows no ratings before the first review, then the count, average and distribution after creates, edits and deletes', async () => {
      const a = await givenPublishedApp(api, operatorToken);
      expect(await catalogRating(a)).to.deep.equal(NO_RATINGS);
      const r5 = await givenRatingByNewStore(a, { rating: 5 });
      const r4 = await givenRatingByNewStore(a, { rating: 4 });
      await givenRatingByNewStore(a, { rating: 4 });
      expect(await catalogRating(a)).to.deep.equal({ average: 4.3, count: 3, distribution: { '1': 0, '2': 0, '3': 0, '4': 2, '5': 1 } });

      // An edit moves the rating; an edit of the text alone changes no number.
      expect((await api.patch(`${reviewsOf(a)}/${r5.review.id}`, { rating: 1 }, asMerchant(r5.shop))).status).to.equal(200);
      expect((await api.patch(`${reviewsOf(a)}/${r4.review.id}`, { body: 'Still fine.' }, asMerchant(r4.shop))).status).to.equal(200);
      expect(await catalogRating(a)).to.deep.equal({ average: 3, count: 3, distribution: { '1': 1, '2': 0, '3': 0, '4': 2, '5': 0 } });

      expect((await api.delete(`${reviewsOf(a)}/${r4.review.id}`, asMerchant(r4.shop))).status).to.equal(204);
      expect(await catalogRating(a)).to.deep.equal({ average: 2.5, count: 2, distribution: { '1': 1, '2': 0, '3': 0, '4': 1, '5': 0 } });

      // The list shows the same numbers as the app's page, and the partner's app keeps `rating_summary`.
      const listed = (await api.get(`${CATALOG}?limit=250`)).body.data.find((x: { id: string }) => x.id === a.app.id);
      expect(listed.rating).to.deep.equal(await catalogRating(a));
      const doc = await app.platform.db.collection('apps').findOne({ _id: new ObjectId(a.app.id as string) });
      expect(doc!.rating_summary).to.deep.include({ count: 2, sum: 5 });
    });

    it('stays equal to the reviews under concurrent edits of one review', async () => {
      const a = await givenPublishedApp(api, operatorToken);
      const { shop, review: created } = await givenRatingByNewStore(a, { rating: 3 });
      const results = await Promise.all([1, 2, 4, 5, 1, 2].map((rating) => api.patch(`${reviewsOf(a)}/${created.id}`, { rating }, asMerchant(shop))));
      for (const r of results) expect([200, 409], JSON.stringify(r.body)).to.include(r.status);
      const final = (await api.get(reviewsOf(a))).body.data[0];
      const distribution = { ...NO_RATINGS.distribution, [String(final.rating)]: 1 };
      expect(await catalogRating(a)).to.deep.equal({ average: final.rating, count: 1, distribution });
    });
  });

  describe('the partner: GET …/developers/apps/:id/reviews and the reply', () => {
    it("lists their app's reviews; another partner or a plain merchant cannot", async () => {
      const a = await givenPublishedApp(api, operatorToken);
      const { review: created } = await givenRatingByNewStore(a);
      const own = await api.get(partnerReviewsOf(a), asPartner(a));
      expect(own.status).to.equal(200);
      expect(own.body.data.map((r: { id: string }) => r.id)).to.deep.equal([created.id]);
      expect(own.body.data[0]).to.have.all.keys(...PUBLIC_FIELDS);
      const otherPartner = await givenDeveloper(api);
      expect((await api.get(partnerReviewsOf(a), { token: otherPartner.merchant.token })).status).to.equal(404);
      const plain = await givenMerchant(api);
      expect((await api.get(partnerReviewsOf(a), { token: plain.token })).body.error.code).to.equal('developer_profile_required');
    });

    it('replies once (201; a second is 409 reply_exists), then edits the reply with PATCH', async () => {
      const { review: created } = await givenRatingByNewStore();
      const path = `${partnerReviewsOf()}/${created.id}/reply`;
      expect((await api.patch(path, { body: 'Edit before?' }, asPartner())).body.error.code).to.equal('reply_not_found');
      const replied = await api.post(path, { body: '  Thanks for the kind words.  ' }, asPartner());
      expect(replied.status, JSON.stringify(replied.body)).to.equal(201);
      expect(replied.body.data.reply).to.include({ body: 'Thanks for the kind words.' });
      const second = await api.post(path, { body: 'Again' }, asPartner());
      expect(second.status).to.equal(409);
      expect(second.body.error.code).to.equal('reply_exists');
      const edited = await api.patch(path, { body: 'Thanks, and see our new templates.' }, asPartner());
      expect(edited.status).to.equal(200);
      expect(edited.body.data.reply).to.include({ body: 'Thanks, and see our new templates.', created_at: replied.body.data.reply.created_at });
      const listed = (await api.get(reviewsOf())).body.data.find((r: { id: string }) => r.id === created.id);
      expect(listed.reply.body).to.equal('Thanks, and see our new templates.');
      const stored = await app.platform.db.collection('app_catalog_reviews').findOne({ _id: new ObjectId(created.id as string) });
      expect(stored!.reply.developer_id.toHexString()).to.equal(partner.developer.profile.id);
    });

    it('refuses another partner (404), a plain merchant (403), the reviewer, and bad bodies (400)', async () => {
      const { shop, review: created } = await givenRatingByNewStore();
      const path = `${partnerReviewsOf()}/${created.id}/reply`;
      const otherPartner = await givenDeveloper(api);
      expect((await api.post(path, { body: 'Hi' }, { token: otherPartner.merchant.token })).status).to.equal(404);
      expect((await api.post(path, { body: 'Hi' }, asMerchant(shop))).body.error.code).to.equal('developer_profile_required');
      expect((await api.post(path, { body: 'Hi' })).status).to.equal(401);
      for (const body of [{}, { body: '' }, { body: '  ' }, { body: 'x'.repeat(5001) }, { body: 'Hi', developer_id: 'x' }]) {
        expect((await api.post(path, body, asPartner())).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.post(`${partnerReviewsOf()}/${new ObjectId().toHexString()}/reply`, { body: 'Hi' }, asPartner())).status).to.equal(404);
      const stored = await app.platform.db.collection('app_catalog_reviews').findOne({ _id: new ObjectId(created.id as string) });
      expect(stored!.reply).to.equal(null);
    });
  });
});
