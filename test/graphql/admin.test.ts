import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { png } from '../helpers/images.js';
import { execute, parse } from 'graphql';
import { MongoClient } from 'mongodb';
import { adminSchema } from '../../src/graphql/index.js';
import { adminLoaders } from '../../src/graphql/admin/context.js';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp } from '../helpers/apps.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { asApp, asMerchant, graphqlClient } from '../helpers/graphql.js';

const OPERATOR = 'op-graphql@example.com';

/**
 * The admin GraphQL API (docs/graphql.md) through graphql-http's own client: every query answers
 * what its REST twin answers, each field checks its scope, another store's ids resolve to null.
 */
describe('Admin GraphQL (/v1/admin/graphql, /v1/graphql/admin)', function () {
  const mediaDir = mkdtempSync(join(tmpdir(), 'emporium-graphql-media-'));
  after(() => rmSync(mediaDir, { recursive: true, force: true }));
  const { app, api } = useTestApp('graphql_admin', { OPERATOR_EMAILS: OPERATOR, STORAGE_LOCAL_DIR: mediaDir });
  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  let products: any[];
  let customer: any;
  let order: any;
  const gql = (as = shop.as, path = '/v1/admin/graphql') => graphqlClient(`${app.url}${path}`, asMerchant(as)).run;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    products = [];
    for (const [i, title] of ['Linen Throw', 'Pour-Over Set', 'Candle Trio'].entries())
      products.push(
        await givenProduct(api, shop.as, {
          title,
          vendor: 'Kiln & Co',
          tags: ['home'],
          options: [{ name: 'Size', values: ['S', 'L'] }],
          variants: [
            { price: 1999 + i, sku: `SKU-${i}-S`, option_values: ['S'], inventory_tracked: false },
            { price: 2999 + i, compare_at_price: 3999, sku: `SKU-${i}-L`, option_values: ['L'], inventory_tracked: false },
          ],
        }),
      );
    await givenProduct(api, shop.as, { title: 'Draft', status: 'draft' });
    customer = (await api.post('/v1/customers', { email: 'ada@example.com', first_name: 'Ada', tags: ['vip'] }, shop.as)).body.data;
    const address = await api.post(`/v1/customers/${customer.id}/addresses`, { address1: '1 Main St', city: 'Town', country_code: 'CA' }, shop.as);
    expect(address.status, JSON.stringify(address.body)).to.equal(201);
    expect((await api.post(`/v1/customers/${customer.id}/addresses/${address.body.data.id}/default`, undefined, shop.as)).status).to.equal(200);
    const made = await api.post(
      '/v1/orders',
      {
        customer_id: customer.id,
        line_items: [
          { variant_id: products[0].variants[0].id, quantity: 2 },
          { title: 'Gift wrap', price: 500, quantity: 1, taxable: false },
        ],
        shipping_line: { title: 'Post', price: 700 },
        shipping_address: { address1: '1 Main St', city: 'Town', country_code: 'CA' },
        financial_status: 'paid',
      },
      shop.as,
    );
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    order = made.body.data;
  });

  it('answers the shop and a page of products with their variants, as REST does, on both paths', async () => {
    const query = `{
      shop { id name subdomain currencyCode }
      products(first: 3) {
        edges { cursor node { id legacyResourceId title handle vendor tags status options { name values }
          priceRange { minVariantPrice { amount currencyCode minorUnits } maxVariantPrice { amount } }
          variants(first: 5) { nodes { id sku price { amount minorUnits } compareAtPrice { amount } selectedOptions { name value } inventoryPolicy product { id } } } } }
        pageInfo { hasNextPage hasPreviousPage endCursor }
      }
    }`;
    for (const path of ['/v1/admin/graphql', '/v1/graphql/admin']) {
      const r = await gql(shop.as, path)(query);
      expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
      const data = r.data;
      expect(data.shop).to.deep.equal({
        id: `gid://emporium/Shop/${shop.store.id}`,
        name: data.shop.name,
        subdomain: shop.store.subdomain,
        currencyCode: 'USD',
      });
      const rest = (await api.get('/v1/products?limit=3', shop.as)).body.data;
      expect(data.products.edges.map((e: any) => e.node.legacyResourceId)).to.deep.equal(rest.map((p: any) => p.id));
      const first = data.products.edges[0].node;
      expect(first).to.deep.include({
        id: `gid://emporium/Product/${rest[0].id}`,
        title: 'Linen Throw',
        vendor: 'Kiln & Co',
        tags: ['home'],
        status: 'ACTIVE',
      });
      expect(first.options).to.deep.equal([{ name: 'Size', values: ['S', 'L'] }]);
      expect(first.priceRange).to.deep.equal({
        minVariantPrice: { amount: '19.99', currencyCode: 'USD', minorUnits: 1999 },
        maxVariantPrice: { amount: '29.99' },
      });
      expect(first.variants.nodes[1]).to.deep.equal({
        id: `gid://emporium/ProductVariant/${rest[0].variants[1].id}`,
        sku: 'SKU-0-L',
        price: { amount: '29.99', minorUnits: 2999 },
        compareAtPrice: { amount: '39.99' },
        selectedOptions: [{ name: 'Size', value: 'L' }],
        inventoryPolicy: 'DENY',
        product: { id: first.id },
      });
      expect(data.products.pageInfo).to.deep.include({ hasNextPage: true, hasPreviousPage: false });
      // The next page resumes after the end cursor, as REST's does.
      const next = await gql(shop.as, path)(
        `query($after: String) { products(first: 5, after: $after) { nodes { title } pageInfo { hasNextPage hasPreviousPage } } }`,
        {
          after: data.products.pageInfo.endCursor,
        },
      );
      expect(next.data.products.nodes.map((p: any) => p.title)).to.deep.equal(['Draft']);
      expect(next.data.products.pageInfo).to.deep.equal({ hasNextPage: false, hasPreviousPage: true });
    }
  });

  it('pages backwards with last and before', async () => {
    const r = await gql()(`{ products(last: 2) { nodes { title } pageInfo { hasNextPage hasPreviousPage startCursor } } }`);
    expect(r.errors).to.equal(undefined);
    expect(r.data.products.nodes.map((p: any) => p.title)).to.deep.equal(['Candle Trio', 'Draft']);
    expect(r.data.products.pageInfo).to.deep.include({ hasNextPage: false, hasPreviousPage: true });
    const before = await gql()(`query($c: String) { products(last: 5, before: $c) { nodes { title } pageInfo { hasPreviousPage } } }`, {
      c: r.data.products.pageInfo.startCursor,
    });
    expect(before.data.products.nodes.map((p: any) => p.title)).to.deep.equal(['Linen Throw', 'Pour-Over Set']);
    expect(before.data.products.pageInfo.hasPreviousPage).to.equal(false);
  });

  it('answers an order with its line items, shipping, customer and transactions, as REST does', async () => {
    const r = await gql()(
      `query($id: ID!) { order(id: $id) {
      id name number currencyCode financialStatus fulfillmentStatus sourceName
      subtotal { amount } totalShipping { amount } totalTax { amount } total { amount minorUnits } totalPaid { amount }
      shippingLine { title code price { amount } }
      shippingAddress { id address1 city countryCode }
      customer { id email firstName tags numberOfOrders defaultAddress { address1 } }
      lineItems(first: 5) { nodes { title quantity unitPrice { amount } total { amount } variant { sku } product { title } } }
      transactions { kind status amount { amount } gateway }
    } }`,
      { id: `gid://emporium/Order/${order.id}` },
    );
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    const o = r.data.order;
    expect(o).to.deep.include({
      id: `gid://emporium/Order/${order.id}`,
      name: `#${order.number}`,
      number: order.number,
      currencyCode: 'USD',
      financialStatus: 'PAID',
      fulfillmentStatus: 'UNFULFILLED',
      sourceName: 'admin',
    });
    expect(o.total).to.deep.equal({ amount: (order.total / 100).toFixed(2), minorUnits: order.total });
    expect(o.shippingLine).to.deep.equal({ title: 'Post', code: null, price: { amount: '7.00' } });
    expect(o.shippingAddress).to.deep.equal({ id: null, address1: '1 Main St', city: 'Town', countryCode: 'CA' });
    expect(o.customer).to.deep.include({ id: `gid://emporium/Customer/${customer.id}`, email: 'ada@example.com', firstName: 'Ada', tags: ['vip'] });
    expect(o.customer.defaultAddress).to.deep.equal({ address1: '1 Main St' });
    expect(o.lineItems.nodes).to.deep.equal([
      {
        title: 'Linen Throw',
        quantity: 2,
        unitPrice: { amount: '19.99' },
        total: { amount: '39.98' },
        variant: { sku: 'SKU-0-S' },
        product: { title: 'Linen Throw' },
      },
      { title: 'Gift wrap', quantity: 1, unitPrice: { amount: '5.00' }, total: { amount: '5.00' }, variant: null, product: null },
    ]);
    const restTransactions = (await api.get(`/v1/payments/transactions?order_id=${order.id}`, shop.as)).body.data;
    expect(o.transactions).to.deep.equal(
      restTransactions.map((t: any) => ({
        kind: t.kind.toUpperCase(),
        status: t.status.toUpperCase(),
        amount: { amount: (t.amount / 100).toFixed(2) },
        gateway: t.provider,
      })),
    );
  });

  it('answers customers with their addresses and orders, and collections with their products', async () => {
    const collection = (await api.post('/v1/products/collections', { type: 'manual', title: 'Best', handle: 'best', product_ids: [products[1].id] }, shop.as))
      .body.data;
    const r = await gql()(`{
      customers(first: 5, query: "ada") { nodes { email addresses(first: 5) { nodes { id city } } orders(first: 5) { nodes { name } } } }
      collections(first: 5) { nodes { id title type products(first: 5) { nodes { title } } } }
    }`);
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    expect(r.data.customers.nodes).to.have.length(1);
    expect(r.data.customers.nodes[0].orders.nodes).to.deep.equal([{ name: `#${order.number}` }]);
    expect(r.data.customers.nodes[0].addresses.nodes[0].id).to.match(/^gid:\/\/emporium\/MailingAddress\/[0-9a-f]{24}$/);
    expect(r.data.collections.nodes).to.deep.equal([
      { id: `gid://emporium/Collection/${collection.id}`, title: 'Best', type: 'MANUAL', products: { nodes: [{ title: 'Pour-Over Set' }] } },
    ]);
  });

  it('resolves node and nodes by global id, and another store’s ids, unknown types and malformed ids to null', async () => {
    const theirs = await givenProduct(api, other.as, { title: 'Not yours' });
    const ids = [
      `gid://emporium/Product/${products[0].id}`,
      `gid://emporium/ProductVariant/${products[0].variants[1].id}`,
      `gid://emporium/Customer/${customer.id}`,
      `gid://emporium/Order/${order.id}`,
      `gid://emporium/Shop/${shop.store.id}`,
      `gid://emporium/Product/${theirs.id}`,
      `gid://emporium/Shop/${other.store.id}`,
      `gid://emporium/Widget/${products[0].id}`,
      'not-a-gid',
    ];
    const r = await gql()(
      `query($ids: [ID!]!, $one: ID!) { nodes(ids: $ids) { __typename id ... on Product { title } ... on ProductVariant { sku } ... on Order { name } }
        node(id: $one) { id } }`,
      { ids, one: `gid://emporium/Product/${theirs.id}` },
    );
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    expect(r.data.node).to.equal(null);
    expect(r.data.nodes).to.deep.equal([
      { __typename: 'Product', id: ids[0], title: 'Linen Throw' },
      { __typename: 'ProductVariant', id: ids[1], sku: 'SKU-0-L' },
      { __typename: 'Customer', id: ids[2] },
      { __typename: 'Order', id: ids[3], name: `#${order.number}` },
      { __typename: 'Shop', id: ids[4] },
      null,
      null,
      null,
      null,
    ]);
    // Another store's product by its own root field is null too.
    const direct = await gql()(`query($id: ID!) { product(id: $id) { title } order(id: $id) { name } }`, { id: `gid://emporium/Product/${theirs.id}` });
    expect(direct.data).to.deep.equal({ product: null, order: null });
  });

  it('checks the scope of each field for an app token: data where granted, ACCESS_DENIED naming the scope where not', async () => {
    const operator = (await givenMerchant(api, { email: OPERATOR })).token;
    const partner = await givenPublishedApp(api, operator, { scopes: ['read_products', 'read_orders', 'write_app_metadata'] });
    const { token } = await installApp(api, partner, shop, { scopes: ['read_products'] });
    const { run } = graphqlClient(`${app.url}/v1/admin/graphql`, asApp(token));
    const granted = await run('{ shop { name } products(first: 1) { nodes { title } } currentAppInstallation { id accessScopes status } }');
    expect(granted.errors).to.equal(undefined);
    expect(granted.data.currentAppInstallation).to.deep.include({ accessScopes: ['read_products'], status: 'ACTIVE' });
    expect(granted.data.products.nodes).to.have.length(1);
    // A denied field is null, and only it: the fields beside it answer.
    const mixed = await run('{ products(first: 1) { nodes { title } } orders(first: 1) { nodes { name } } }');
    expect(mixed.data.products.nodes).to.have.length(1);
    expect(mixed.data.orders).to.equal(null);
    expect(mixed.errors?.map((e) => e.path)).to.deep.equal([['orders']]);
    const denied = await run('{ orders(first: 1) { nodes { name } } }');
    expect(denied.data).to.deep.equal({ orders: null });
    expect(denied.errors?.[0]).to.deep.include({ message: 'Access denied for orders field. Required access: `read_orders` access scope.', path: ['orders'] });
    expect(denied.errors?.[0]?.extensions).to.deep.include({ code: 'ACCESS_DENIED', requiredAccess: 'read_orders' });
    const nodes = await run(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, {
      ids: [`gid://emporium/Customer/${customer.id}`, `gid://emporium/Product/${products[0].id}`],
    });
    expect(nodes.data.nodes).to.deep.equal([null, { id: `gid://emporium/Product/${products[0].id}` }]);
    expect(nodes.errors?.[0]?.extensions).to.deep.include({ code: 'ACCESS_DENIED', requiredAccess: 'read_customers' });
    // A line item's product needs read_products; the order itself read_orders.
    expect(JSON.stringify(await run('{ customers(first: 1) { nodes { id } } }'))).to.include('read_customers');
    for (const [field, scope] of [
      ['locations', 'read_inventory'],
      ['giftCards', 'read_gift_cards'],
      ['coupons', 'read_discounts'],
    ] as const)
      expect((await run(`{ ${field}(first: 1) { nodes { id } } }`)).errors?.[0]?.extensions).to.deep.include({ code: 'ACCESS_DENIED', requiredAccess: scope });
    // Webhook subscriptions are the merchant's: an app's are in its manifest.
    expect((await run('{ webhookSubscriptions(first: 1) { nodes { id } } }')).errors?.[0]?.extensions).to.deep.include({
      code: 'ACCESS_DENIED',
      requiredAccess: 'merchant',
    });
  });

  it('answers locations with stock levels, gift cards (code masked), coupons and webhook subscriptions, as REST does', async () => {
    const location = (await api.post('/v1/inventory/locations', { name: 'Warehouse', city: 'Lyon', country_code: 'FR' }, shop.as)).body.data;
    const tracked = await givenProduct(api, shop.as, { title: 'Tracked', variants: [{ price: 500, sku: 'TR-1' }] });
    expect(
      (await api.post('/v1/inventory/levels/set', { variant_id: tracked.variants[0].id, location_id: location.id, available: 7 }, shop.as)).status,
    ).to.equal(200);
    const card = (await api.post('/v1/products/gift-cards', { initial_value: 5000, note: 'Thanks' }, shop.as)).body.data;
    const coupon = (await api.post('/v1/coupons', { code: 'SPRING10', type: 'percentage', value: 10 }, shop.as)).body.data;
    const hook = await api.post(
      '/v1/operations/webhook-subscriptions',
      { target_url: 'https://hooks.example.com/in', event_types: ['order.created'] },
      shop.as,
    );
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    const r = await gql()(`{
      locations(first: 5) { nodes { id name city countryCode isActive inventoryLevels(first: 5) { nodes { available committed onHand variant { sku } location { name } } } } }
      giftCards(first: 5) { nodes { id lastCharacters initialValue { amount } balance { amount } status note } }
      coupons(first: 5, query: "SPR") { nodes { code type value usageCount active } }
      webhookSubscriptions(first: 5) { nodes { targetUrl eventTypes active } }
    }`);
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    expect(r.data.locations.nodes).to.deep.equal([
      {
        id: `gid://emporium/Location/${location.id}`,
        name: 'Warehouse',
        city: 'Lyon',
        countryCode: 'FR',
        isActive: true,
        inventoryLevels: { nodes: [{ available: 7, committed: 0, onHand: 7, variant: { sku: 'TR-1' }, location: { name: 'Warehouse' } }] },
      },
    ]);
    expect(r.data.giftCards.nodes).to.deep.equal([
      {
        id: `gid://emporium/GiftCard/${card.id}`,
        lastCharacters: card.last_characters,
        initialValue: { amount: '50.00' },
        balance: { amount: '50.00' },
        status: 'ACTIVE',
        note: 'Thanks',
      },
    ]);
    expect(JSON.stringify(r.data)).to.not.include(card.code);
    expect(r.data.coupons.nodes).to.deep.equal([{ code: coupon.code, type: 'PERCENTAGE', value: 10, usageCount: 0, active: true }]);
    expect(r.data.webhookSubscriptions.nodes).to.deep.equal([{ targetUrl: 'https://hooks.example.com/in', eventTypes: ['order.created'], active: true }]);
    const byIds = await gql()(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, {
      ids: [
        `gid://emporium/Location/${location.id}`,
        `gid://emporium/GiftCard/${card.id}`,
        `gid://emporium/Coupon/${coupon.id}`,
        `gid://emporium/WebhookSubscription/${hook.body.data.id}`,
      ],
    });
    expect(byIds.data.nodes.map((n: any) => n.__typename)).to.deep.equal(['Location', 'GiftCard', 'Coupon', 'WebhookSubscription']);
    const variantLevels = await gql()(`query($id: ID!) { productVariant(id: $id) { inventoryLevels(first: 5) { nodes { available } } } }`, {
      id: `gid://emporium/ProductVariant/${tracked.variants[0].id}`,
    });
    expect(variantLevels.data.productVariant.inventoryLevels.nodes).to.deep.equal([{ available: 7 }]);
  });

  it('answers a product’s media with their URLs, and an app its own installation', async () => {
    const form = new FormData();
    form.append('file', new Blob([png(4, 3)], { type: 'image/png' }), 'swatch.png');
    form.append('alt', 'A swatch');
    const uploaded = await fetch(`${app.url}/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.merchant.token}`, 'x-store-id': shop.store.id },
      body: form,
    });
    const media = ((await uploaded.json()) as any).data;
    expect(uploaded.status).to.equal(201);
    const p = await givenProduct(api, shop.as, { title: 'With media', media_ids: [media.id] });
    const r = await gql()(`query($id: ID!) { product(id: $id) { media { id filename contentType width height alt url } } currentAppInstallation { id } }`, {
      id: `gid://emporium/Product/${p.id}`,
    });
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    expect(r.data.currentAppInstallation).to.equal(null);
    expect(r.data.product.media).to.have.length(1);
    expect(r.data.product.media[0]).to.deep.include({
      id: `gid://emporium/MediaImage/${media.id}`,
      filename: 'swatch.png',
      contentType: 'image/png',
      width: 4,
      height: 3,
      alt: 'A swatch',
    });
    expect(r.data.product.media[0].url).to.be.a('string');
  });

  it('answers another merchant 403 and no credentials 401, with nothing of the store', async () => {
    const stranger = await givenMerchant(api);
    const res = await fetch(`${app.url}/v1/admin/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stranger.token}`, 'x-store-id': shop.store.id },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(res.status).to.equal(403);
    const anonymous = await fetch(`${app.url}/v1/admin/graphql?query=${encodeURIComponent('{ shop { name } }')}`);
    expect(anonymous.status).to.equal(401);
  });

  it('loads a page of 50 orders with line items and customers in three database round trips', async () => {
    for (let i = 0; i < 50; i++) {
      const made = await api.post(
        '/v1/orders',
        { customer_id: customer.id, line_items: [{ variant_id: products[i % 3].variants[0].id, quantity: 1 }] },
        shop.as,
      );
      expect(made.status).to.equal(201);
    }
    const client = new MongoClient(process.env.MONGODB_URL!, { monitorCommands: true });
    await client.connect();
    try {
      const commands: string[] = [];
      client.on('commandStarted', (e) => commands.push(`${e.commandName} ${String((e.command as Record<string, unknown>)[e.commandName])}`));
      const platform = { ...app.platform, db: client.db(app.platform.db.databaseName) };
      const store = (await api.get(`/v1/stores/${shop.store.id}`, shop.as)).body.data;
      const principal = { kind: 'merchant' as const, merchantId: shop.merchant.id, sessionId: 'test' } as never;
      const result = await execute({
        schema: adminSchema,
        document: parse('{ orders(first: 50) { nodes { name customer { email } lineItems(first: 10) { nodes { title quantity total { amount } } } } } }'),
        contextValue: { platform, store, principal, loaders: adminLoaders(platform as never, shop.store.id) },
      });
      expect(result.errors).to.equal(undefined);
      expect((result.data as any).orders.nodes).to.have.length(50);
      // The page of orders, then the customers of the page in one read.
      expect(commands, commands.join('\n')).to.have.length.at.most(3);
    } finally {
      await client.close();
    }
  });
});
