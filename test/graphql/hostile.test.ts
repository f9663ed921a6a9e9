import { expect } from 'chai';
import { parse, validate, type DocumentNode } from 'graphql';
import { randomBytes } from 'node:crypto';
import { requestedCost } from '../../src/graphql/cost.js';
import { adminSchema, storefrontSchema } from '../../src/graphql/index.js';
import { MaxDepthRule } from '../../src/graphql/limits.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { asMerchant, graphqlPost } from '../helpers/graphql.js';
import { checkCost } from '../../src/graphql/transport.js';
import { fragmentDag, hostileGraphqlBodies } from '../helpers/graphql-hostile.js';

/** A parsed document whose fragments count how often their selections are read (a walk's work, in reads). */
function countingFragmentReads(query: string): { document: DocumentNode; reads: () => number } {
  const document = parse(query);
  let reads = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== 'FragmentDefinition') continue;
    const selectionSet = definition.selectionSet;
    Object.defineProperty(definition, 'selectionSet', {
      get() {
        reads++;
        return selectionSet;
      },
    });
  }
  return { document, reads: () => reads };
}

/**
 * No input a client can send makes a GraphQL endpoint answer 500 or leak an internal message
 * (docs/graphql.md, Limits): hostile bodies, variables and arguments on both schemas.
 */
describe('GraphQL under hostile input', function () {
  const { app, api } = useTestApp('graphql_hostile');
  let shop: GivenMerchantWithStore;
  let productGid: string;
  before(async () => {
    shop = await givenMerchantWithStore(api);
    productGid = `gid://emporium/Product/${(await givenProduct(api, shop.as)).id}`;
  });

  const BODIES: (string | object)[] = [
    '',
    'null',
    '[]',
    '"query"',
    '{"query": 42}',
    '{"query": null}',
    '{"query": "{ shop { name } }", "variables": "nope"}',
    '{"query": "{ shop { name } }", "variables": [1, 2]}',
    '{"query": "{ shop { name } }", "operationName": 7}',
    '{"query": "{ shop { name } }", "extensions": "x"}',
    '[{"query": "{ shop { name } }"}, {"query": "{ shop { name } }"}]',
    `{"query": "${'{'.repeat(5000)}"}`,
    randomBytes(512).toString('binary'),
    { query: 'query($id: ID!) { product(id: $id) { title } }', variables: { id: { $gt: '' } } },
    { query: 'query($id: ID!) { product(id: $id) { title } }', variables: { id: 'gid://emporium/Product/__proto__' } },
    {
      query: 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      variables: { ids: Array.from({ length: 1000 }, () => 'gid://emporium/Product/' + 'f'.repeat(24)) },
    },
    { query: 'query($n: Int!) { products(first: $n) { nodes { id } } }', variables: { n: 2 ** 40 } },
    { query: 'query($n: Int!) { products(first: $n) { nodes { id } } }', variables: { n: -1 } },
    { query: '{ products(first: 5, after: "eyJhZnRlciI6Il9fcHJvdG9fXyJ9") { nodes { id } } }' },
    { query: '{ products(first: 5, query: "' + 'a'.repeat(300) + '") { nodes { id } } }' },
    { query: '{ customers(first: 5, query: "(((((") { nodes { id } } }' },
    { query: '{ coupons(first: 5, query: "%$#") { nodes { id } } }' },
    { query: '{ productByHandle(handle: "' + 'x'.repeat(10_000) + '") { id } }' },
    { query: 'mutation { productCreate(input: { title: "x", variants: [{ price: 100000000000000 }] }) { userErrors { message } } }' },
    { query: 'mutation { orderCreate(input: { lineItems: [{ quantity: 1 }] }) { userErrors { field message } } }' },
    { query: 'mutation { orderRefund(id: "not-a-gid", input: { amount: 1 }) { userErrors { field } } }' },
    { query: '{ __type(name: "QueryRoot") { fields { name } } }' },
    { query: 'subscription { shop { name } }' },
    { query: '{ shop { name } } { shop { name } }' },
    { query: 'query A { shop { name } } query A { shop { name } }', operationName: 'A' },
    { query: '{ shop { ...F } } fragment F on Shop { ...G } fragment G on Shop { ...F }' },
    { query: '{ shop @skip(if: "yes") { name } }' },
    { query: `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: products(first: 250) { nodes { id } }`).join(' ')} }` },
  ];

  for (const [path, headers, schema] of [
    ['/v1/admin/graphql', () => asMerchant(shop.as), 'admin'],
    ['/v1/storefront/graphql', () => ({ 'x-store-subdomain': shop.store.subdomain }), 'storefront'],
  ] as const) {
    it(`answers every hostile body on ${path} without a 500 or an internal message`, async () => {
      for (const body of [...BODIES, ...hostileGraphqlBodies(schema, [productGid])]) {
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        for (const contentType of ['application/json', 'text/plain']) {
          const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: { ...headers(), 'content-type': contentType }, body: text });
          const answer = await res.text();
          expect(res.status, `${res.status} for ${text.slice(0, 120)}: ${answer.slice(0, 300)}`).to.be.below(500);
          expect(answer, text.slice(0, 120)).to.not.match(/at [A-Za-z]+ \(|node_modules|Internal error/);
        }
        const get = await fetch(`${app.url}${path}?query=${encodeURIComponent(typeof body === 'object' ? String((body as { query?: string }).query) : text)}`, {
          headers: headers(),
        });
        expect(get.status, `GET ${text.slice(0, 120)}`).to.be.below(500);
      }
    });
  }

  describe('a fragment DAG (each fragment spreading the next twice)', () => {
    it('is walked by the depth rule and the cost in reads linear in its fragments, not in its 2^K paths', () => {
      const K = 16;
      for (const schema of [adminSchema, storefrontSchema]) {
        const depth = countingFragmentReads(fragmentDag(K));
        expect(validate(schema, depth.document, [MaxDepthRule])).to.deep.equal([]);
        // The rule's own walk, and the visitor of validate() reading each fragment once.
        expect(depth.reads()).to.be.at.most(3 * K);
        const cost = countingFragmentReads(fragmentDag(K, { leaf: 'name' }));
        expect(requestedCost(schema, cost.document, undefined, {})).to.deep.include({ cost: 1, errors: [] });
        expect(cost.reads()).to.be.at.most(3 * K);
      }
    });

    it('answers K = 20 on both schemas with its data at its cost, with and without the skipped leaf', async () => {
      for (const [path, headers] of [
        ['/v1/storefront/graphql', { 'x-store-subdomain': shop.store.subdomain }],
        ['/v1/admin/graphql', asMerchant(shop.as)],
      ] as const) {
        // A document new to the process pays its check by its size (a point per 200 bytes); sent again, its cost of 1.
        for (const dag of [fragmentDag(20), fragmentDag(20, { leaf: 'name' })]) {
          const first = await graphqlPost(`${app.url}${path}`, headers, dag);
          expect(first.status, JSON.stringify(first.body).slice(0, 300)).to.equal(200);
          expect(first.body.extensions.cost.requestedQueryCost).to.equal(1);
          expect(first.body.extensions.cost.actualQueryCost).to.be.within(1, checkCost(dag));
          const again = await graphqlPost(`${app.url}${path}`, headers, dag);
          expect(again.body.data).to.deep.equal(first.body.data);
          expect(again.body.extensions.cost).to.deep.include({ requestedQueryCost: 1, actualQueryCost: 1 });
        }
        const skipped = await graphqlPost(`${app.url}${path}`, headers, fragmentDag(20));
        expect(skipped.body.data).to.deep.equal({ shop: {} });
        const named = await graphqlPost(`${app.url}${path}`, headers, fragmentDag(20, { leaf: 'name' }));
        expect(named.body.data.shop.name).to.be.a('string');
      }
      // A bulk operation's query goes through the same depth rule before its own checks refuse named fragments.
      const bulk = await api.post('/v1/bulk-operations', { query: fragmentDag(20, { leaf: 'name' }) }, shop.as);
      expect(bulk.status, JSON.stringify(bulk.body)).to.be.within(400, 499);
    });
  });
});
