import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { asMerchant, graphqlClient, graphqlPost } from '../helpers/graphql.js';
import { heavyMutation, nodesQuery } from '../helpers/graphql-hostile.js';

/**
 * Query cost and the limits before a query runs (docs/graphql.md, Query cost, Limits): the worked
 * examples of the docs, exactly; requested against actual; queries over the maximum, deeper
 * than the depth limit, with too many aliases or malformed are refused without running.
 */
describe('GraphQL query cost and limits', function () {
  const { app, api } = useTestApp('graphql_cost');
  let shop: GivenMerchantWithStore;
  let productId: string;
  const url = () => `${app.url}/v1/admin/graphql`;
  const cost = async (query: string, variables?: Record<string, unknown>) => {
    const r = await graphqlClient(url(), asMerchant(shop.as)).run(query, variables);
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    return (r.extensions as any).cost;
  };
  const refused = (query: string, variables?: Record<string, unknown>) => graphqlPost(url(), asMerchant(shop.as), query, variables);

  before(async () => {
    shop = await givenMerchantWithStore(api);
    for (const title of ['A', 'B', 'C']) {
      const p = await givenProduct(api, shop.as, {
        title,
        variants: [
          { price: 100, inventory_tracked: false, option_values: ['a'] },
          { price: 200, inventory_tracked: false, option_values: ['b'] },
        ],
        options: [{ name: 'O', values: ['a', 'b'] }],
      });
      productId = p.id;
    }
  });

  it('costs the worked examples of docs/graphql.md exactly, and the actual cost by what came back', async () => {
    // 1. An object: 1; its scalars 0.
    expect(await cost('{ shop { name currencyCode } }')).to.deep.include({ requestedQueryCost: 1, actualQueryCost: 1 });
    // 2. A connection of 10: 2 + 10 × 1 requested; 3 products answered: 2 + 3 × 1.
    expect(await cost('{ products(first: 10) { nodes { title } } }')).to.deep.include({ requestedQueryCost: 12, actualQueryCost: 5 });
    // 3. Nested: 2 + 10 × (1 + (2 + 5 × (1 + 1))) = 132; answered 2 + 3 × (1 + (2 + 2 × 2)) = 23.
    expect(
      await cost('{ products(first: 10) { edges { cursor node { title variants(first: 5) { nodes { price { amount } } } } } pageInfo { hasNextPage } } }'),
    ).to.deep.include({
      requestedQueryCost: 132,
      actualQueryCost: 23,
    });
    // 4. 50 orders with their customer and 10 line items: 2 + 50 × (1 + 1 + (2 + 10 × 1)) = 702; none answered: 2.
    expect(await cost('{ orders(first: 50) { nodes { name customer { email } lineItems(first: 10) { nodes { title } } } } }')).to.deep.include({
      requestedQueryCost: 702,
      actualQueryCost: 2,
    });
    // 5. An interface: its most expensive member. 1 + max(Product: 2 + 10 × 1, Order: 0) = 13; answered a product of 2 variants: 1 + 2 + 2 = 5.
    expect(
      await cost(`query($id: ID!) { node(id: $id) { id ... on Product { variants(first: 10) { nodes { sku } } } ... on Order { name } } }`, {
        id: `gid://emporium/Product/${productId}`,
      }),
    ).to.deep.include({ requestedQueryCost: 13, actualQueryCost: 5 });
    // 6. Variables, fragments, @skip: sizes from variables, skipped fields cost nothing.
    expect(
      await cost(
        `query($n: Int!, $skip: Boolean!) { products(first: $n) { ...P } shop @skip(if: $skip) { name } } fragment P on ProductConnection { nodes { title } }`,
        {
          n: 20,
          skip: true,
        },
      ),
    ).to.deep.include({ requestedQueryCost: 22, actualQueryCost: 5 });
  });

  it('costs nodes(ids:) per id, and refuses more than 250 ids before running', async () => {
    const gid = `gid://emporium/Product/${productId}`;
    // 2 ids × (1 + (2 + 10 × 1)) requested; one product of 2 variants answered (the other id is no object): 1 + 2 + 2.
    const two = nodesQuery([gid, 'gid://emporium/Product/ffffffffffffffffffffffff'], '... on Product { variants(first: 10) { nodes { sku } } }');
    expect(await cost(two.query, two.variables)).to.deep.include({ requestedQueryCost: 26, actualQueryCost: 5 });
    // 250 of them: 250 × 13, over the maximum, refused before a product is read.
    const many = nodesQuery(Array(250).fill(gid), '... on Product { variants(first: 10) { nodes { sku } } }');
    const over = await refused(many.query, many.variables);
    expect(over.status).to.equal(400);
    expect(over.body.errors[0].extensions).to.deep.equal({ code: 'MAX_COST_EXCEEDED', cost: 3250, maxCost: 1000 });
    const tooMany = nodesQuery(Array(251).fill(gid), 'id');
    const refusedIds = await refused(tooMany.query, tooMany.variables);
    expect(refusedIds.status).to.equal(400);
    expect(refusedIds.body.errors[0]).to.deep.include({ message: 'nodes: at most 250 ids' });
  });

  it('costs a mutation 10 plus its payload, and refuses one whose payload is over the maximum, changing nothing', async () => {
    const gid = `gid://emporium/Product/${productId}`;
    // 10 + product (1 + variants 2 + 5 × (1 + price 1)) + userErrors 1 = 24; answered: 10 + 1 + 2 + 2 × 2, no user error.
    const updated = await cost(
      `mutation($id: ID!) { productUpdate(id: $id, input: { vendor: "Kiln" }) { product { variants(first: 5) { nodes { price { amount } } } } userErrors { field } } }`,
      { id: gid },
    );
    expect(updated).to.deep.include({ requestedQueryCost: 24, actualQueryCost: 17 });
    const before = (await api.get(`/v1/products/${productId}`, shop.as)).body.data;
    const heavy = heavyMutation(gid);
    const over = await refused(heavy.query, heavy.variables);
    expect(over.status).to.equal(400);
    expect(over.body.errors[0].extensions.code).to.equal('MAX_COST_EXCEEDED');
    expect((await api.get(`/v1/products/${productId}`, shop.as)).body.data.updated_at).to.equal(before.updated_at);
  });

  it('answers the per-field breakdown when asked with X-GraphQL-Cost-Include-Fields', async () => {
    const r = await graphqlClient(url(), { ...asMerchant(shop.as), 'x-graphql-cost-include-fields': 'true' }).run(
      '{ shop { name } products(first: 2) { nodes { title } } }',
    );
    expect((r.extensions as any).cost.fields).to.deep.equal([
      { path: ['shop'], requestedTotalCost: 1 },
      { path: ['products'], requestedTotalCost: 4 },
    ]);
  });

  it('refuses a query over 1000 with MAX_COST_EXCEEDED, and connections without a size or over 250, before running them', async () => {
    const over = await refused('{ products(first: 250) { nodes { variants(first: 250) { nodes { id } } } } }');
    expect(over.status).to.equal(400);
    expect(over.body.errors[0]).to.deep.include({ message: 'Query cost is 63252, which exceeds the single query max cost limit (1000).' });
    expect(over.body.errors[0].extensions).to.deep.equal({ code: 'MAX_COST_EXCEEDED', cost: 63252, maxCost: 1000 });
    expect(over.body.data).to.equal(undefined);
    const noSize = await refused('{ products { nodes { title } } }');
    expect(noSize.status).to.equal(400);
    expect(noSize.body.errors[0].message).to.equal('products: give exactly one of first and last');
    const both = await refused('{ products(first: 1, last: 1) { nodes { title } } }');
    expect(both.body.errors[0].message).to.equal('products: give exactly one of first and last');
    const big = await refused('{ products(first: 251) { nodes { title } } }');
    expect(big.body.errors[0].message).to.equal('products: first must be from 0 to 250');
    const mixed = await refused('{ products(first: 1, before: "x") { nodes { title } } }');
    expect(mixed.body.errors[0].message).to.equal('products: before goes with last');
  });

  it('refuses depth, alias and token bombs and malformed queries with 400 before running, and answers no 500 to any', async () => {
    let inner = 'title';
    for (let i = 0; i < 8; i++) inner = `variants(first: 1) { nodes { product { ${inner} } } }`;
    const nested = `{ products(first: 1) { nodes { ${inner} } } }`;
    const depth = await refused(nested);
    expect(depth.status).to.equal(400);
    expect(depth.body.errors[0].extensions.code).to.equal('MAX_DEPTH_EXCEEDED');
    const aliases = await refused(`{ ${Array.from({ length: 31 }, (_, i) => `a${i}: shop { name }`).join(' ')} }`);
    expect(aliases.status).to.equal(400);
    expect(aliases.body.errors[0].extensions.code).to.equal('MAX_ALIASES_EXCEEDED');
    const tokens = await refused(`{ ${'shop { name } '.repeat(3000)} }`);
    expect(tokens.status).to.equal(400);
    expect(tokens.body.errors[0].message).to.match(/token/i);
    for (const bad of [
      '{',
      '{ shop { name }',
      'query { ... on }',
      '{ products(first: "ten") { nodes { title } } }',
      'fragment F on Shop { ...F } { shop { ...F } }',
      '{ nope }',
    ]) {
      const r = await refused(bad);
      expect(r.status, bad).to.equal(400);
      expect(r.body.errors.length, bad).to.be.greaterThan(0);
    }
    const badVariables = await refused('query($n: Int!) { products(first: $n) { nodes { title } } }', { n: 'many' });
    expect(badVariables.status).to.equal(400);
    const badCursor = await graphqlClient(url(), asMerchant(shop.as)).run('{ products(first: 1, after: "garbage") { nodes { title } } }');
    expect((badCursor.errors?.[0]?.extensions as { code?: string } | undefined)?.code).to.equal('BAD_USER_INPUT');
  });

  it('answers GET queries, and refuses a body that is not GraphQL over HTTP with graphql-http’s answers', async () => {
    const res = await fetch(`${url()}?query=${encodeURIComponent('{ shop { name } }')}`, { headers: asMerchant(shop.as) });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as any).data.shop.name).to.be.a('string');
    const noQuery = await fetch(url(), {
      method: 'POST',
      headers: { ...asMerchant(shop.as), 'content-type': 'application/json' },
      body: JSON.stringify({ nope: 1 }),
    });
    expect(noQuery.status).to.equal(400);
  });
});
