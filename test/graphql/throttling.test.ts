import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { asMerchant, graphqlPost } from '../helpers/graphql.js';
import { checkCost } from '../../src/graphql/transport.js';
import { introspectionFlood } from '../helpers/graphql-hostile.js';
import { withWebProcess } from '../helpers/processes.js';

/**
 * Throttling (docs/graphql.md, Throttling): a query needs its requested cost in the caller's
 * bucket, shared by every web process; the unused part is refunded after it ran; a query that
 * does not fit is 429 THROTTLED with Retry-After and runs nothing.
 */
describe('GraphQL throttling on the shared leaky bucket', function () {
  // A small, slow bucket: 100 points restoring 10 a second.
  const env = {
    GRAPHQL_BUCKET_CAPACITY: '100',
    GRAPHQL_RESTORE_RATE: '10',
    STOREFRONT_GRAPHQL_CLIENT_CAPACITY: '60',
    STOREFRONT_GRAPHQL_CLIENT_RESTORE_RATE: '1',
  };
  // The system's clock, until a test stops it: a stopped clock restores no point, however slow the machine.
  const clock = { stoppedAt: null as Date | null, now: () => clock.stoppedAt ?? new Date() };
  const { app, api } = useTestApp('graphql_throttling', env, { clock });
  let shop: GivenMerchantWithStore;
  const post = (base: string, query: string, as = shop.as) => graphqlPost(`${base}/v1/admin/graphql`, asMerchant(as), query);

  before(async () => {
    shop = await givenMerchantWithStore(api);
    await givenProduct(api, shop.as);
  });

  it('refunds what a query did not use, and answers 429 THROTTLED with Retry-After when the requested cost is not available', async () => {
    // Requests 2 + 40 × 1 = 42; one product answered: actual 3, so 39 come back.
    const first = await post(app.url, '{ products(first: 40) { nodes { title } } }');
    expect(first.status).to.equal(200);
    const cost = first.body.extensions.cost;
    expect(cost).to.deep.include({ requestedQueryCost: 42, actualQueryCost: 3 });
    expect(cost.throttleStatus).to.deep.include({ maximumAvailable: 100, restoreRate: 10 });
    expect(cost.throttleStatus.currentlyAvailable).to.be.within(96, 100);

    // 2 + 90 × 1 = 92 fits once; right after, it does not (even with the refund of the first).
    const big = '{ a: products(first: 45) { nodes { title } } b: products(first: 45) { nodes { title } } }';
    const admitted = await post(app.url, big);
    expect(admitted.status).to.equal(200);
    expect(admitted.body.extensions.cost.requestedQueryCost).to.equal(94);
    const cheapAfter = await post(app.url, '{ products(first: 98) { nodes { title } } }');
    expect(cheapAfter.status).to.equal(429);
    expect(Number(cheapAfter.headers.get('retry-after'))).to.be.at.least(1);
    expect(cheapAfter.body.errors[0].extensions).to.deep.include({ code: 'THROTTLED', requestedQueryCost: 100 });
    expect(cheapAfter.body.data).to.equal(undefined);
    expect(cheapAfter.body.extensions.cost).to.deep.include({ requestedQueryCost: 100, actualQueryCost: null });
    // Another caller of the store has a bucket of its own.
    const other = await givenMerchantWithStore(api);
    expect((await post(app.url, big, other.as)).status).to.equal(200);
  });

  it('shares one bucket between two web processes: the admitted cost never passes capacity + restore × time', async () => {
    const fresh = await givenMerchantWithStore(api);
    await givenProduct(api, fresh.as);
    await withWebProcess(app, env, async (second) => {
      const urls = [app.url, second.baseUrl];
      const started = Date.now();
      let admitted = 0;
      let throttled = 0;
      // Each query requests 2 + 20 = 22 and costs 3 once it ran (19 refunded).
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (let i = 0; i < 12; i++) {
            const r = await post(urls[worker % 2]!, '{ products(first: 20) { nodes { title } } }', fresh.as);
            if (r.status === 200) admitted += r.body.extensions.cost.actualQueryCost;
            else if (r.status === 429) throttled++;
            else throw new Error(`status ${r.status}: ${JSON.stringify(r.body)}`);
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      expect(admitted).to.be.at.most(100 + 10 * seconds + 22);
      expect(admitted).to.be.greaterThan(0);
      expect(throttled + admitted / 3).to.equal(96);
    });
  });

  it('meters the storefront per client address in the store', async () => {
    const url = `${app.url}/v1/storefront/graphql`;
    const headers = { 'x-store-subdomain': shop.store.subdomain };
    // 2 + 25 × 1 = 27 requested; the client bucket holds 60 and restores 1 a second.
    const query = '{ products(first: 25) { nodes { title } } }';
    const a = await graphqlPost(url, headers, query);
    expect(a.status).to.equal(200);
    expect(a.body.extensions.cost.throttleStatus.maximumAvailable).to.equal(60);
    await graphqlPost(url, headers, '{ products(first: 50) { nodes { title } } }');
    const refused = await graphqlPost(url, headers, '{ products(first: 58) { nodes { title } } }');
    expect(refused.status).to.equal(429);
    expect(refused.body.errors[0].extensions.code).to.equal('THROTTLED');
  });

  it('charges what the resolvers read when an error wipes the data (a bad cursor on a nested connection), on both schemas', async () => {
    const fresh = await givenMerchantWithStore(api);
    for (const title of ['A', 'B', 'C']) await givenProduct(api, fresh.as, { title });
    // Requests 2 + 10 × (1 + 2 + 1) = 42; each variants fails on its cursor, after the page of 3 products was read: 2 + 3.
    const query = '{ products(first: 10) { nodes { title variants(first: 1, after: "garbage") { nodes { id } } } } }';
    const admin = await post(app.url, query, fresh.as);
    expect(admin.status).to.equal(200);
    expect(admin.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
    expect(admin.body.extensions.cost).to.deep.include({ requestedQueryCost: 42, actualQueryCost: 5 });
    const storefront = await graphqlPost(`${app.url}/v1/storefront/graphql`, { 'x-store-subdomain': fresh.store.subdomain }, query);
    expect(storefront.status).to.equal(200);
    expect(storefront.body.data).to.equal(null);
    expect(storefront.body.extensions.cost).to.deep.include({ requestedQueryCost: 42, actualQueryCost: 5 });
  });

  it('meters every request at 1 point at least, a document refused before it runs included: a throttled caller is 429 THROTTLED whatever it sends', async () => {
    const fresh = await givenMerchantWithStore(api);
    const url = `${app.url}/v1/storefront/graphql`;
    const headers = { 'x-store-subdomain': fresh.store.subdomain };
    const typename = await graphqlPost(url, headers, '{ __typename }');
    expect(typename.body.extensions.cost).to.deep.include({ requestedQueryCost: 1, actualQueryCost: 1 });
    clock.stoppedAt = new Date();
    try {
      // The client's bucket holds 60 and restores 1 a second (none while the clock is stopped): documents that fail validation, new and known, empty it.
      let sent = 0;
      let answer = await graphqlPost(url, headers, '{ nope }');
      while (answer.status !== 429 && sent < 200) {
        sent++;
        answer = await graphqlPost(url, headers, sent % 2 ? '{ nope }' : `{ nope${sent} }`);
        if (answer.status !== 429) {
          expect(answer.status).to.equal(400);
          expect(answer.body.extensions.cost.actualQueryCost).to.equal(1);
        }
      }
      expect(answer.status).to.equal(429);
      expect(sent).to.be.at.least(50);
      expect(Number(answer.headers.get('retry-after'))).to.be.at.least(1);
      expect(answer.body.errors[0].extensions).to.deep.include({ code: 'THROTTLED', requestedQueryCost: 1 });
      for (const refused of ['{ nope }', '{ still nope }', '{ shop { name } }', '{'])
        expect((await graphqlPost(url, headers, refused)).body.errors[0].extensions.code, refused).to.equal('THROTTLED');
    } finally {
      clock.stoppedAt = null;
    }
  });

  it('charges a document new to the process a point per 200 bytes before it is parsed and validated, and a known one only its cost', async () => {
    const fresh = await givenMerchantWithStore(api);
    // 400 sibling `__typename` fields (cost 1): 4 KB whose validation costs many times its parsing (graphql-js compares sibling fields pairwise).
    const wide = `{ ${Array.from({ length: 400 }, () => '__typename').join(' ')} }`;
    const first = await post(app.url, wide, fresh.as);
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).to.equal(200);
    expect(first.body.extensions.cost).to.deep.include({ requestedQueryCost: 1, actualQueryCost: Math.ceil(wide.length / 200) });
    expect(first.body.extensions.cost.throttleStatus.currentlyAvailable).to.be.at.most(100 - Math.ceil(wide.length / 200) + 2);
    const again = await post(app.url, wide, fresh.as);
    expect(again.body.extensions.cost).to.deep.include({ requestedQueryCost: 1, actualQueryCost: 1 });
    // A new document larger than the bucket holds is never parsed: 429 THROTTLED for its check.
    const huge = `{ ${Array.from({ length: 2_000 }, (_, i) => `s${i % 2 ? '' : i}: shop { name }`).join(' ')} }`;
    const refused = await post(app.url, huge, fresh.as);
    expect(refused.status).to.equal(429);
    expect(refused.body.errors[0].extensions).to.deep.include({ code: 'THROTTLED', requestedQueryCost: checkCost(huge) });
  });

  it('refuses a document that asks for the schema more than once, and meters the one that asks once', async () => {
    const fresh = await givenMerchantWithStore(api);
    const flood = await post(app.url, introspectionFlood(30), fresh.as);
    expect(flood.status).to.equal(400);
    expect(flood.body.errors[0].extensions).to.deep.include({ code: 'MAX_INTROSPECTION_EXCEEDED', maxSchemaIntrospections: 1 });
    expect(flood.body.extensions.cost).to.deep.include({ requestedQueryCost: 1, actualQueryCost: checkCost(introspectionFlood(30)) });
    const once = await post(app.url, introspectionFlood(1), fresh.as);
    expect(once.status).to.equal(200);
    expect(once.body.data.s0.types.length).to.be.greaterThan(50);
    expect(once.body.extensions.cost).to.deep.include({ requestedQueryCost: 1, actualQueryCost: 1 });
    // The same document's answer again, the same (from the schema's cache of introspection answers).
    expect((await post(app.url, introspectionFlood(1), fresh.as)).body.data).to.deep.equal(once.body.data);
  });
});
