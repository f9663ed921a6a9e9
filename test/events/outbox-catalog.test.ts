import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, givenStore, type As, type GivenMerchantWithStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';
import { png } from '../helpers/images.js';
import { settleLeftBehind, stopAfterWrites } from '../helpers/outbox.js';

/**
 * The catalog, media, forms and taxes writes carry their events (docs/events.md, "Every committed
 * change, once"): for each, a process that stops right after the write still answers as usual
 * (a delete: 500, the document gone), records no event, and the maintenance sweep then records
 * exactly the event the write carried, once.
 */
describe('Events carried by their writes: catalog, media, forms, taxes', () => {
  let shop: GivenMerchantWithStore;
  let as: As;
  let stopped: { restore(): void } | null = null;
  const storageDir = mkdtempSync(join(tmpdir(), 'emporium-outbox-catalog-'));
  const { app, api } = useTestApp('event_outbox_catalog', { STORAGE_LOCAL_DIR: storageDir, TRUST_PROXY: 'true' });
  before(async () => {
    shop = await givenMerchantWithStore(api);
    as = shop.as;
  });
  afterEach(() => {
    stopped?.restore();
    stopped = null;
  });
  after(() => rmSync(storageDir, { recursive: true, force: true }));

  let seq = 0;
  const unique = () => `${Date.now().toString(36)}-${++seq}`;
  const events = (key: string) => app.platform.db.collection('events').find({ idempotency_key: key }).toArray();
  const stored = (collection: string, id: string | ObjectId) =>
    app.platform.db.collection(collection).findOne({ _id: typeof id === 'string' ? new ObjectId(id) : id });
  const intentsFor = (id: string) => app.platform.db.collection('event_intents').countDocuments({ entity_id: new ObjectId(id) });

  const product = (title = `Mug ${unique()}`) => ({ title, variants: [{ option_values: [], price: 1200 }] });
  const createProduct = async (): Promise<any> => {
    const res = await api.post('/v1/products', product(), as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  };
  const createCollection = async (productIds: string[] = []): Promise<any> => {
    const res = await api.post('/v1/products/collections', { title: `Summer ${unique()}`, type: 'manual', product_ids: productIds }, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  };
  const uploadMedia = async (): Promise<Reply> => {
    const form = new FormData();
    form.append('file', new Blob([png(2, 2)], { type: 'image/png' }), 'pixel.png');
    form.append('alt', 'A pixel');
    const res = await fetch(`${app.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${as.token}`, 'x-store-id': as.storeId }, body: form });
    return { status: res.status, body: await res.json(), headers: res.headers };
  };
  const withoutUrl = ({ url: _url, ...media }: Record<string, unknown>) => media;
  // A manual collection's view has `rules: undefined` (absent from the answer); the driver stores it as null,
  // in the event as in any document, so the recorded payload has `rules: null` (as it always had).
  const storedCollection = (view: Record<string, unknown>) => ({ ...view, rules: null });
  const rates = [{ country_code: 'DE', name: 'MwSt', rate_bps: 1900 }];

  type Outcome = {
    res: Reply;
    /** The documented idempotency key and the payload the event must have (what the API showed). */
    key: string;
    payload: () => Promise<Record<string, unknown>>;
    /** The document that carries the event, or (a delete) the id of the document that went. */
    carrier: { collection: string; id: string } | { deleted: string };
  };
  /** One write path: `prepare` runs as usual, `act` as a process that stops right after its write. */
  type Case<T> = { name: string; status: number; prepare(): Promise<T>; act(given: T): Promise<Outcome>; after?(given: T): Promise<void> };
  const path = <T>(c: Case<T>) => c as Case<unknown>;

  const cases: Case<unknown>[] = [
    path({
      name: 'POST /v1/products (product.created)',
      status: 201,
      prepare: async () => null,
      async act() {
        const res = await api.post('/v1/products', product(), as);
        const id = res.body.data?.id as string;
        return { res, key: `product.created:${id}`, payload: async () => ({ product: res.body.data }), carrier: { collection: 'products', id } };
      },
    }),
    path({
      name: 'PATCH /v1/products/:id (product.updated)',
      status: 200,
      prepare: createProduct,
      async act(p) {
        const res = await api.patch(`/v1/products/${p.id}`, { title: 'Renamed', tags: ['new'] }, as);
        return {
          res,
          key: `product.updated:${p.id}:v2`,
          payload: async () => ({ product: res.body.data, changed: ['title', 'tags'] }),
          carrier: { collection: 'products', id: p.id },
        };
      },
    }),
    path({
      name: 'DELETE /v1/products/:id (product.deleted; manual collections forget it)',
      status: 500,
      async prepare() {
        const p = await createProduct();
        return { p, collection: await createCollection([p.id]) };
      },
      async act({ p }) {
        const res = await api.delete(`/v1/products/${p.id}`, as);
        return { res, key: `product.deleted:${p.id}`, payload: async () => ({ product: { id: p.id, handle: p.handle } }), carrier: { deleted: p.id } };
      },
      async after({ collection }) {
        expect((await api.get(`/v1/products/collections/${collection.id}`, as)).body.data.product_ids).to.deep.equal([]);
      },
    }),
    path({
      name: 'POST /v1/products/collections (collection.created)',
      status: 201,
      prepare: createProduct,
      async act(p) {
        const res = await api.post('/v1/products/collections', { title: `Winter ${unique()}`, type: 'manual', product_ids: [p.id] }, as);
        const id = res.body.data?.id as string;
        return {
          res,
          key: `collection.created:${id}`,
          payload: async () => ({ collection: storedCollection(res.body.data) }),
          carrier: { collection: 'collections', id },
        };
      },
    }),
    path({
      name: 'PATCH /v1/products/collections/:id (collection.updated)',
      status: 200,
      prepare: () => createCollection(),
      async act(c) {
        const res = await api.patch(`/v1/products/collections/${c.id}`, { title: 'Autumn' }, as);
        return {
          res,
          key: `collection.updated:${c.id}:v2`,
          payload: async () => ({ collection: storedCollection(res.body.data) }),
          carrier: { collection: 'collections', id: c.id },
        };
      },
    }),
    path({
      name: 'DELETE /v1/products/collections/:id (collection.deleted)',
      status: 500,
      prepare: () => createCollection(),
      async act(c) {
        const res = await api.delete(`/v1/products/collections/${c.id}`, as);
        return { res, key: `collection.deleted:${c.id}`, payload: async () => ({ collection: { id: c.id, handle: c.handle } }), carrier: { deleted: c.id } };
      },
    }),
    path({
      name: 'POST /v1/media (media.created)',
      status: 201,
      prepare: async () => null,
      async act() {
        const res = await uploadMedia();
        const id = res.body.data?.id as string;
        return { res, key: `media.created:${id}`, payload: async () => ({ media: withoutUrl(res.body.data) }), carrier: { collection: 'media', id } };
      },
    }),
    path({
      name: 'DELETE /v1/media/:id (media.deleted)',
      status: 500,
      prepare: async () => (await uploadMedia()).body.data,
      async act(m) {
        const res = await api.delete(`/v1/media/${m.id}`, as);
        return { res, key: `media.deleted:${m.id}`, payload: async () => ({ media: withoutUrl(m) }), carrier: { deleted: m.id } };
      },
      async after(m) {
        expect((await api.get(`/v1/media/${m.id}`, as)).status).to.equal(404);
      },
    }),
    path({
      name: 'POST /v1/storefront/:subdomain/forms/:form (form_submission.created)',
      status: 202,
      prepare: async () => null,
      async act() {
        const email = `ada-${unique()}@example.com`;
        const res = await api.post(
          `/v1/storefront/${shop.store.subdomain}/forms/contact`,
          { fields: { email, message: 'Hello' } },
          { headers: { 'x-forwarded-for': `203.0.113.${seq % 250}` } },
        );
        const doc = await app.platform.db.collection('form_submissions').findOne({ store_id: new ObjectId(shop.store.id), 'fields.email': email });
        const id = doc!._id.toHexString();
        // The answer shows nothing of the submission: the payload is what the store's list shows.
        const payload = async () => ({
          form_submission: (await api.get('/v1/form-submissions?form=contact', as)).body.data.find((s: { id: string }) => s.id === id),
        });
        return { res, key: `form_submission.created:${id}`, payload, carrier: { collection: 'form_submissions', id } };
      },
    }),
    path({
      name: 'PUT /v1/taxes, the first time (tax_settings.updated)',
      status: 200,
      prepare: () => givenStore(api, shop.merchant),
      async act(store) {
        const res = await api.put('/v1/taxes', { rates }, { token: as.token, storeId: store.id });
        const doc = await app.platform.db.collection('tax_settings').findOne({ store_id: new ObjectId(store.id) });
        return {
          res,
          key: `tax_settings.updated:${store.id}:v1`,
          payload: async () => ({ tax_settings: res.body.data }),
          carrier: { collection: 'tax_settings', id: doc!._id.toHexString() },
        };
      },
    }),
    path({
      name: 'PUT /v1/taxes, a later time (tax_settings.updated)',
      status: 200,
      async prepare() {
        const store = await givenStore(api, shop.merchant);
        expect((await api.put('/v1/taxes', { rates }, { token: as.token, storeId: store.id })).status).to.equal(200);
        return store;
      },
      async act(store) {
        const res = await api.put(
          '/v1/taxes',
          { shipping_taxable: false, rates: [...rates, { country_code: 'FR', name: 'TVA', rate_bps: 2000 }] },
          { token: as.token, storeId: store.id },
        );
        const doc = await app.platform.db.collection('tax_settings').findOne({ store_id: new ObjectId(store.id) });
        return {
          res,
          key: `tax_settings.updated:${store.id}:v2`,
          payload: async () => ({ tax_settings: res.body.data }),
          carrier: { collection: 'tax_settings', id: doc!._id.toHexString() },
        };
      },
    }),
  ];

  for (const c of cases) {
    it(`${c.name}: answers ${c.status} when the process stops after the write, and the sweep records the event once`, async () => {
      const given = await c.prepare();
      stopped = stopAfterWrites(app.platform);
      const { res, key, payload, carrier } = await c.act(given);
      stopped.restore();
      stopped = null;
      expect(res.status, JSON.stringify(res.body)).to.equal(c.status);
      expect(await events(key)).to.have.length(0);
      if ('deleted' in carrier) {
        expect(await intentsFor(carrier.deleted)).to.equal(1);
      } else {
        const doc = await stored(carrier.collection, carrier.id);
        expect(doc!.pending_events.map((e: { idempotency_key: string }) => e.idempotency_key)).to.deep.equal([key]);
        expect(doc!.events_pending_since).to.be.instanceOf(Date);
        // What the API answered never includes what the document carries.
        expect(JSON.stringify(res.body)).to.not.include('pending_events').and.not.include('events_pending_since');
      }

      expect(await settleLeftBehind(app.platform)).to.be.at.least(1);
      const recorded = await events(key);
      expect(recorded).to.have.length(1);
      expect(recorded[0]!.payload).to.deep.equal(await payload());
      if ('deleted' in carrier) {
        expect(await intentsFor(carrier.deleted)).to.equal(0);
      } else {
        const doc = await stored(carrier.collection, carrier.id);
        expect(doc).to.not.have.property('pending_events');
        expect(doc).to.not.have.property('events_pending_since');
      }
      await settleLeftBehind(app.platform);
      expect(await events(key)).to.have.length(1);
      await c.after?.(given);
    });
  }

  it('a document deleted while it still carries the event of a stopped write: the delete records that event too, once', async () => {
    stopped = stopAfterWrites(app.platform);
    const p = await createProduct();
    const c = await createCollection();
    const m = (await uploadMedia()).body.data;
    stopped.restore();
    stopped = null;
    expect((await api.delete(`/v1/products/${p.id}`, as)).status).to.equal(204);
    expect((await api.delete(`/v1/products/collections/${c.id}`, as)).status).to.equal(204);
    expect((await api.delete(`/v1/media/${m.id}`, as)).status).to.equal(204);
    for (const key of [
      `product.created:${p.id}`,
      `product.deleted:${p.id}`,
      `collection.created:${c.id}`,
      `collection.deleted:${c.id}`,
      `media.created:${m.id}`,
      `media.deleted:${m.id}`,
    ]) {
      expect(await events(key), key).to.have.length(1);
    }
    expect((await events(`product.created:${p.id}`))[0]!.payload).to.deep.equal({ product: p });
    expect((await events(`media.created:${m.id}`))[0]!.payload).to.deep.equal({ media: withoutUrl(m) });
  });

  it('a product update that lost the race to another write carries nothing and answers 409 edit_conflict', async () => {
    const p = await createProduct();
    // Another write lands between this request's read and its write.
    const db = app.platform.db;
    const collection = db.collection;
    let raced = false;
    db.collection = ((name: string, options?: object) => {
      const coll = collection.call(db, name, options);
      if (name !== 'products') return coll;
      const race: Pick<typeof coll, 'updateOne'> = {
        async updateOne(filter, update, opts) {
          if (!raced) {
            raced = true;
            await coll.updateOne({ _id: new ObjectId(p.id) }, { $inc: { version: 1 } });
          }
          return coll.updateOne(filter, update, opts);
        },
      };
      return Object.assign(Object.create(coll), race);
    }) as typeof collection;
    let res: Reply;
    try {
      res = await api.patch(`/v1/products/${p.id}`, { title: 'Lost' }, as);
    } finally {
      db.collection = collection;
    }
    expect(raced).to.equal(true);
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.error.code).to.equal('edit_conflict');
    const doc = await stored('products', p.id);
    expect(doc).to.not.have.property('pending_events');
    expect(doc!.title).to.equal(p.title);
    expect(await events(`product.updated:${p.id}:v2`)).to.have.length(0);
    expect(await events(`product.updated:${p.id}:v3`)).to.have.length(0);
  });

  it('collection and tax updates that race each other each record their own version, once', async () => {
    const c = await createCollection();
    const titles = ['A', 'B', 'C', 'D'];
    const answers = await Promise.all(titles.map((title) => api.patch(`/v1/products/collections/${c.id}`, { title }, as)));
    const ok = answers.filter((r) => r.status === 200);
    for (const r of answers) expect([200, 409], JSON.stringify(r.body)).to.include(r.status);
    expect(ok).to.not.be.empty;
    const recorded = await app.platform.db.collection('events').find({ type: 'collection.updated', 'payload.collection.id': c.id }).toArray();
    expect(recorded.map((e) => e.idempotency_key).sort()).to.deep.equal(ok.map((_, i) => `collection.updated:${c.id}:v${i + 2}`).sort());
    for (const r of ok) expect(recorded.map((e) => e.payload.collection)).to.deep.include(storedCollection(r.body.data));

    const store = await givenStore(api, shop.merchant);
    const storeAs = { token: as.token, storeId: store.id };
    const puts = await Promise.all(
      [1000, 1100, 1200].map((rate_bps) => api.put('/v1/taxes', { rates: [{ country_code: 'DE', name: 'MwSt', rate_bps }] }, storeAs)),
    );
    const done = puts.filter((r) => r.status === 200);
    for (const r of puts) expect([200, 409], JSON.stringify(r.body)).to.include(r.status);
    const taxEvents = await app.platform.db
      .collection('events')
      .find({ type: 'tax_settings.updated', store_id: new ObjectId(store.id) })
      .toArray();
    expect(taxEvents.map((e) => e.idempotency_key).sort()).to.deep.equal(done.map((_, i) => `tax_settings.updated:${store.id}:v${i + 1}`).sort());
    for (const r of done) expect(taxEvents.map((e) => e.payload.tax_settings)).to.deep.include(r.body.data);
  });
});
