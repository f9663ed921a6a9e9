import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/clock.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { asMerchant, graphqlPost } from '../helpers/graphql.js';
import { nodesQuery } from '../helpers/graphql-hostile.js';
import { png } from '../helpers/images.js';

/** The system's clock, until a test makes each reading of it a second later than the one before. */
function steppingClock(): Clock & { step(ms: number): void } {
  let offset = 0;
  let stepMs = 0;
  return {
    now: () => new Date(Date.now() + (offset += stepMs)),
    step: (ms) => (stepMs = ms),
  };
}

/**
 * What one request may make its resolvers do (docs/graphql.md, Limits): at most so many objects
 * and so much time; past either, the fields still to resolve fail with one error that says which,
 * and the request is charged what it requested.
 */
describe('GraphQL: the work of one request is bounded', function () {
  const mediaDir = mkdtempSync(join(tmpdir(), 'emporium-graphql-work-'));
  after(() => rmSync(mediaDir, { recursive: true, force: true }));
  const clock = steppingClock();
  const { app, api } = useTestApp('graphql_work_limits', { STORAGE_LOCAL_DIR: mediaDir }, { clock });
  let shop: GivenMerchantWithStore;
  const url = () => `${app.url}/v1/admin/graphql`;

  before(async () => {
    shop = await givenMerchantWithStore(api);
  });

  it('stops at 10,000 objects: a list that is no connection (a product’s 250 media, costed as one object) cannot read past it', async () => {
    const form = new FormData();
    form.append('file', new Blob([png(2, 2)], { type: 'image/png' }), 'swatch.png');
    const uploaded = await fetch(`${app.url}/v1/media`, { method: 'POST', headers: asMerchant(shop.as), body: form });
    expect(uploaded.status).to.equal(201);
    const media = ((await uploaded.json()) as any).data;
    const product = await givenProduct(api, shop.as, { title: 'Swatches', media_ids: Array(250).fill(media.id) });
    // 41 × (1 + 1) = 82 requested; answered in full it would be 41 × 251 = 10,291 objects.
    const body = nodesQuery(Array(41).fill(`gid://emporium/Product/${product.id}`), '... on Product { media { id } }');
    const r = await graphqlPost(url(), asMerchant(shop.as), body.query, body.variables);
    expect(r.status).to.equal(200);
    expect(r.body.errors).to.have.length(1);
    expect(r.body.errors[0].extensions).to.deep.equal({ code: 'MAX_OBJECTS_EXCEEDED', maxObjects: 10_000 });
    const answered = r.body.data.nodes.filter((n: any) => n?.media);
    expect(answered.length).to.be.within(1, 39);
    expect(r.body.extensions.cost).to.deep.include({ requestedQueryCost: 82, actualQueryCost: 82 });
  });

  it('stops at its deadline: the fields after it fail with DEADLINE_EXCEEDED, and nothing after it is read', async () => {
    for (let i = 0; i < 5; i++) await givenProduct(api, shop.as, { title: `P${i}` });
    const query = '{ products(first: 5) { nodes { title variants(first: 1) { nodes { price { amount } } } } } shop { name } }';
    const ran = await graphqlPost(url(), asMerchant(shop.as), query);
    expect(ran.body.errors).to.equal(undefined);
    // Each reading of the clock is now a second later: the deadline passes after the request's first fields.
    clock.step(1000);
    try {
      const r = await graphqlPost(url(), asMerchant(shop.as), query);
      expect(r.status).to.equal(200);
      expect(r.body.errors).to.have.length(1);
      expect(r.body.errors[0].extensions).to.deep.include({ code: 'DEADLINE_EXCEEDED' });
      const variants = (r.body.data?.products?.nodes ?? []).filter((p: any) => p?.variants);
      expect(variants).to.have.length(0);
    } finally {
      clock.step(0);
    }
  });
});
