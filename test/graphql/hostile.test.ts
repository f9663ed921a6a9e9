import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenShop, type GivenShop } from '../helpers/factories.js';
import { asMerchant } from '../helpers/graphql.js';

/**
 * No input a client can send makes a GraphQL endpoint answer 500 or leak an internal message
 * (docs/graphql.md, Limits): hostile bodies, variables and arguments on both schemas.
 */
describe('GraphQL under hostile input', function () {
  this.timeout(60_000);
  const { app, api } = useTestApp('graphql_hostile');
  let shop: GivenShop;
  before(async () => {
    shop = await givenShop(api);
    await givenProduct(api, shop.as);
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

  for (const [path, headers] of [
    ['/v1/admin/graphql', () => asMerchant(shop.as)],
    ['/v1/storefront/graphql', () => ({ 'x-store-subdomain': shop.store.subdomain })],
  ] as const) {
    it(`answers every hostile body on ${path} without a 500 or an internal message`, async () => {
      for (const body of BODIES) {
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
});
