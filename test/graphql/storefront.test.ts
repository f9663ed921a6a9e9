import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { graphqlClient, graphqlPost } from '../helpers/graphql.js';
import { omittedDefault } from '../helpers/graphql-hostile.js';

/**
 * The storefront GraphQL API (docs/graphql.md, The storefront schema): the public REST reads'
 * allow-list (published products only), the cart read through its token as REST answers it, and
 * the signed-in customer's own account.
 */
describe('Storefront GraphQL (/v1/storefront/graphql, /v1/graphql/storefront)', function () {
  const { app, api } = useTestApp('graphql_storefront');
  let shop: GivenMerchantWithStore;
  let mug: any;
  const gql = (headers: Record<string, string> = {}, path = '/v1/storefront/graphql') =>
    graphqlClient(`${app.url}${path}`, { 'x-store-subdomain': shop.store.subdomain, ...headers }).run;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    mug = await givenProduct(api, shop.as, {
      title: 'Mug',
      handle: 'mug',
      tags: ['kitchen'],
      variants: [{ price: 1250, sku: 'MUG-1', inventory_tracked: false }],
    });
    await givenProduct(api, shop.as, { title: 'Secret', handle: 'secret', status: 'draft' });
    await api.post('/v1/products/collections', { type: 'manual', title: 'Kitchen', handle: 'kitchen', product_ids: [mug.id] }, shop.as);
  });

  it('answers published products only, with the public fields of REST, on both paths', async () => {
    for (const path of ['/v1/storefront/graphql', '/v1/graphql/storefront']) {
      const r = await gql(
        {},
        path,
      )(`{ shop { name currencyCode } products(first: 10) { nodes { id title handle tags availableForSale priceRange { minVariantPrice { amount } }
        variants(first: 5) { nodes { id price { amount currencyCode } availableForSale } } } } }`);
      expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
      expect(r.data.products.nodes).to.deep.equal([
        {
          id: `gid://emporium/Product/${mug.id}`,
          title: 'Mug',
          handle: 'mug',
          tags: ['kitchen'],
          availableForSale: true,
          priceRange: { minVariantPrice: { amount: '12.50' } },
          variants: {
            nodes: [{ id: `gid://emporium/ProductVariant/${mug.variants[0].id}`, price: { amount: '12.50', currencyCode: 'USD' }, availableForSale: true }],
          },
        },
      ]);
      const rest = (await api.get(`/v1/storefront/${shop.store.subdomain}/products`)).body.data;
      expect(rest.map((p: any) => p.id)).to.deep.equal([mug.id]);
    }
    const byHandle = await gql()(
      `{ mug: product(handle: "mug") { title } secret: product(handle: "secret") { title } nope: product(handle: "nope") { title } }`,
    );
    expect(byHandle.data).to.deep.equal({ mug: { title: 'Mug' }, secret: null, nope: null });
    // No field of the admin's: a SKU, a status, the merchant's inventory policy.
    const admin = await graphqlPost(
      `${app.url}/v1/storefront/graphql`,
      { 'x-store-subdomain': shop.store.subdomain },
      '{ products(first: 1) { nodes { status sku } } }',
    );
    expect(admin.status).to.equal(400);
    expect(admin.body.errors[0].message).to.match(/Cannot query field "status" on type "Product"/);
    const collection = await gql()(
      '{ collection(handle: "kitchen") { title products(first: 5) { nodes { title } } } collections(first: 5) { nodes { handle } } }',
    );
    expect(collection.data).to.deep.equal({
      collection: { title: 'Kitchen', products: { nodes: [{ title: 'Mug' }] } },
      collections: { nodes: [{ handle: 'kitchen' }] },
    });
  });

  it('reads the cart through its token (the argument or X-Cart-Token) as REST answers it; an unknown token is null', async () => {
    const made = await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines: [{ variant_id: mug.variants[0].id, quantity: 3 }] });
    const token = made.body.data.token as string;
    const rest = (await api.get(`/v1/storefront/${shop.store.subdomain}/cart`, { headers: { 'x-cart-token': token } })).body.data;
    const query = `query($t: String) { cart(token: $t) { id version itemCount purchasable subtotal { minorUnits } total { amount minorUnits }
      lines { variantId productTitle quantity unitPrice { minorUnits } lineTotal { minorUnits } problem } coupon { code } } }`;
    const viaArgument = await gql()(query, { t: token });
    const viaHeader = await gql({ 'x-cart-token': token })(query);
    expect(viaArgument.errors).to.equal(undefined);
    expect(viaHeader.data).to.deep.equal(viaArgument.data);
    expect(viaArgument.data.cart).to.deep.equal({
      id: `gid://emporium/Cart/${rest.id}`,
      version: rest.version,
      itemCount: rest.item_count,
      purchasable: rest.purchasable,
      subtotal: { minorUnits: rest.subtotal },
      total: { amount: '37.50', minorUnits: rest.total },
      lines: rest.lines.map((l: any) => ({
        variantId: `gid://emporium/ProductVariant/${l.variant_id}`,
        productTitle: l.product_title,
        quantity: l.quantity,
        unitPrice: { minorUnits: l.unit_price },
        lineTotal: { minorUnits: l.line_total },
        problem: null,
      })),
      coupon: null,
    });
    expect((await gql()(query, { t: 'emp_ct_unknown' })).data).to.deep.equal({ cart: null });
    // Another store's cart token is not this store's cart.
    const other = await givenMerchantWithStore(api);
    const otherGql = graphqlClient(`${app.url}/v1/storefront/graphql`, { 'x-store-subdomain': other.store.subdomain }).run;
    expect((await otherGql(query, { t: token })).data).to.deep.equal({ cart: null });
  });

  it('answers the signed-in customer their own account and orders; a guest null; another store’s token 401', async () => {
    const shopper = { subdomain: shop.store.subdomain, email: 'grace@example.com', password: 'correct horse battery' };
    expect((await api.post('/v1/storefront/customer/signup', shopper)).status).to.equal(202);
    const token = (await api.post('/v1/storefront/customer/login', shopper)).body.data.token as string;
    const r = await gql({ authorization: `Bearer ${token}` })(
      '{ customer { email firstName orders(first: 5) { nodes { name } } addresses(first: 5) { nodes { city } } } }',
    );
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    expect(r.data.customer).to.deep.equal({ email: 'grace@example.com', firstName: null, orders: { nodes: [] }, addresses: { nodes: [] } });
    expect((await gql()('{ customer { email } }')).data).to.deep.equal({ customer: null });
    const other = await givenMerchantWithStore(api);
    const res = await fetch(`${app.url}/v1/storefront/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-store-subdomain': other.store.subdomain, authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ customer { email } }' }),
    });
    expect(res.status).to.equal(401);
  });

  it('needs the store: no X-Store-Subdomain is 400, an unknown one 404; introspection is off outside development', async () => {
    const post = (headers: Record<string, string>, query = '{ shop { name } }') =>
      fetch(`${app.url}/v1/storefront/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query }),
      });
    expect((await post({})).status).to.equal(400);
    expect((await post({ 'x-store-subdomain': 'no-such-store' })).status).to.equal(404);
    const introspection = await graphqlPost(
      `${app.url}/v1/storefront/graphql`,
      { 'x-store-subdomain': shop.store.subdomain },
      '{ __schema { types { name } } }',
    );
    expect(introspection.status).to.equal(400);
    expect(introspection.body.errors[0].message).to.match(/introspection/i);
  });

  it('answers a field included by an omitted variable with a default (no 500 once it ran)', async () => {
    const body = omittedDefault('query', 'shop', 'name');
    const r = await graphqlPost(`${app.url}/v1/storefront/graphql`, { 'x-store-subdomain': shop.store.subdomain }, body.query, body.variables);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.data.shop.name).to.be.a('string');
    expect(r.body.extensions.cost).to.deep.include({ requestedQueryCost: 1, actualQueryCost: 1 });
  });
});
