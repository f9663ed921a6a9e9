import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp } from '../helpers/apps.js';
import { givenLocation } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { asApp, asMerchant, graphqlClient, graphqlPost } from '../helpers/graphql.js';
import { omittedDefault } from '../helpers/graphql-hostile.js';

const OPERATOR = 'op-graphql-mutations@example.com';

/**
 * Admin mutations (docs/graphql.md, Mutations): each through the same service as its REST twin,
 * the same input refused with the same messages as userErrors at GraphQL paths, scopes checked,
 * an Idempotency-Key honoured as in REST.
 */
describe('Admin GraphQL mutations', function () {
  const { app, api } = useTestApp('graphql_mutations', { OPERATOR_EMAILS: OPERATOR });
  let shop: GivenMerchantWithStore;
  const url = () => `${app.url}/v1/admin/graphql`;
  const gql = (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    graphqlClient(url(), { ...asMerchant(shop.as), ...headers }).run(query, variables);

  before(async () => {
    shop = await givenMerchantWithStore(api);
  });

  const CREATE = `mutation($input: ProductCreateInput!) { productCreate(input: $input) { product { id legacyResourceId title handle status variants(first: 5) { nodes { id sku price { minorUnits } } } } userErrors { field message code } } }`;

  it('creates, updates and deletes a product as REST does, and costs 10 plus its payload', async () => {
    const made = await gql(CREATE, { input: { title: 'Linen Throw', status: 'ACTIVE', variants: [{ price: 8900, sku: 'LT-1', inventoryTracked: false }] } });
    expect(made.errors, JSON.stringify(made.errors)).to.equal(undefined);
    const product = made.data.productCreate.product;
    expect(made.data.productCreate.userErrors).to.deep.equal([]);
    expect(product).to.deep.include({ title: 'Linen Throw', handle: 'linen-throw', status: 'ACTIVE' });
    // 10 + product (1 + variants 2 + 5 × (1 + price 1)) + userErrors 1; answered 10 + 1 + 2 + 1 × 2.
    expect((made.extensions as any).cost).to.deep.include({ requestedQueryCost: 24, actualQueryCost: 15 });
    const rest = (await api.get(`/v1/products/${product.legacyResourceId}`, shop.as)).body.data;
    expect(rest).to.deep.include({ title: 'Linen Throw', status: 'active' });
    expect(rest.variants[0]).to.deep.include({ sku: 'LT-1', price: 8900 });

    const updated = await gql(
      `mutation($id: ID!, $input: ProductUpdateInput!) { productUpdate(id: $id, input: $input) { product { title tags } userErrors { field message } } }`,
      {
        id: product.id,
        input: { title: 'Linen Throw XL', tags: ['home'] },
      },
    );
    expect(updated.data.productUpdate).to.deep.equal({ product: { title: 'Linen Throw XL', tags: ['home'] }, userErrors: [] });

    const deleted = await gql(`mutation($id: ID!) { productDelete(id: $id) { deletedId userErrors { code } } }`, { id: product.id });
    expect(deleted.data.productDelete).to.deep.equal({ deletedId: product.id, userErrors: [] });
    expect((await api.get(`/v1/products/${product.legacyResourceId}`, shop.as)).status).to.equal(404);
    const again = await gql(`mutation($id: ID!) { productDelete(id: $id) { deletedId userErrors { field message code } } }`, { id: product.id });
    expect(again.data.productDelete).to.deep.equal({ deletedId: null, userErrors: [{ field: null, message: 'Product not found', code: 'NOT_FOUND' }] });
  });

  it('answers invalid input as userErrors at GraphQL paths with the REST messages, writing nothing', async () => {
    const input = { title: ' ', handle: 'Not A Handle', variants: [{ price: -5, optionValues: ['a', 'b', 'c', 'd'] }] };
    const r = await gql(CREATE, { input });
    expect(r.data.productCreate.product).to.equal(null);
    const errors = r.data.productCreate.userErrors as { field: string[]; message: string }[];
    const rest = await api.post(
      '/v1/products',
      { title: ' ', handle: 'Not A Handle', variants: [{ price: -5, option_values: ['a', 'b', 'c', 'd'] }] },
      shop.as,
    );
    expect(rest.status).to.equal(400);
    // The same problems, each at its path in the other edge's names.
    const restDetails = (rest.body.error.details as string[]).map((d) => d.replace(/^body\./, ''));
    expect(errors.map((e) => `${e.field.slice(1).join('.')}: ${e.message}`).map((d) => d.replace('optionValues', 'option_values'))).to.deep.equal(restDetails);
    expect(errors.find((e) => e.field.join('.') === 'input.variants.0.optionValues')).to.not.equal(undefined);
    expect((await api.get('/v1/products', shop.as)).body.data.filter((p: any) => p.title.trim() === '')).to.deep.equal([]);
    // A rule the service keeps: a handle in use.
    await gql(CREATE, { input: { title: 'Mug', variants: [{ price: 100 }] } });
    const taken = await gql(CREATE, { input: { title: 'Mug again', handle: 'mug', variants: [{ price: 100 }] } });
    expect(taken.data.productCreate.userErrors[0]).to.deep.include({ code: 'HANDLE_TAKEN' });
    // An id of another type is a user error at id, not a crash.
    const wrong = await gql(`mutation($id: ID!) { productDelete(id: $id) { deletedId userErrors { field code } } }`, {
      id: `gid://emporium/Order/${'a'.repeat(24)}`,
    });
    expect(wrong.data.productDelete).to.deep.equal({ deletedId: null, userErrors: [{ field: ['id'], code: 'INVALID' }] });
  });

  it('makes collections, customers, stock adjustments and webhook subscriptions through their services', async () => {
    const p = (await gql(CREATE, { input: { title: 'Bowl', variants: [{ price: 1500, sku: 'BOWL-1' }] } })).data.productCreate.product;
    const collection = await gql(
      `mutation($input: CollectionCreateInput!) { collectionCreate(input: $input) { collection { title products(first: 5) { nodes { id } } } userErrors { message } } }`,
      {
        input: { title: 'Ceramics', productIds: [p.id] },
      },
    );
    expect(collection.data.collectionCreate).to.deep.equal({ collection: { title: 'Ceramics', products: { nodes: [{ id: p.id }] } }, userErrors: [] });

    const location = await givenLocation(api, shop.as);
    const adjusted = await gql(
      `mutation($input: InventoryAdjustInput!) { inventoryAdjustQuantity(input: $input) { inventoryLevel { available onHand } userErrors { message } } }`,
      {
        input: { variantId: p.variants.nodes[0].id, locationId: `gid://emporium/Location/${location}`, delta: 12, reason: 'RECEIVED' },
      },
    );
    expect(adjusted.data.inventoryAdjustQuantity).to.deep.equal({ inventoryLevel: { available: 12, onHand: 12 }, userErrors: [] });

    const customer = await gql(
      `mutation($input: CustomerCreateInput!) { customerCreate(input: $input) { customer { id email firstName } userErrors { code } } }`,
      {
        input: { email: 'Lin@Example.com', firstName: 'Lin' },
      },
    );
    expect(customer.data.customerCreate.customer).to.deep.include({ email: 'lin@example.com', firstName: 'Lin' });
    const dup = await gql(`mutation($input: CustomerCreateInput!) { customerCreate(input: $input) { customer { id } userErrors { code } } }`, {
      input: { email: 'lin@example.com' },
    });
    expect(dup.data.customerCreate).to.deep.equal({ customer: null, userErrors: [{ code: 'EMAIL_TAKEN' }] });
    const renamed = await gql(
      `mutation($id: ID!, $input: CustomerUpdateInput!) { customerUpdate(id: $id, input: $input) { customer { lastName } userErrors { code } } }`,
      {
        id: customer.data.customerCreate.customer.id,
        input: { lastName: 'Wu' },
      },
    );
    expect(renamed.data.customerUpdate).to.deep.equal({ customer: { lastName: 'Wu' }, userErrors: [] });

    const hook = await gql(
      `mutation($input: WebhookSubscriptionCreateInput!) { webhookSubscriptionCreate(input: $input) { webhookSubscription { targetUrl eventTypes } secret userErrors { field message } } }`,
      {
        input: { targetUrl: 'https://hooks.example.com/orders', eventTypes: ['order.created'] },
      },
    );
    expect(hook.data.webhookSubscriptionCreate.webhookSubscription).to.deep.equal({
      targetUrl: 'https://hooks.example.com/orders',
      eventTypes: ['order.created'],
    });
    expect(hook.data.webhookSubscriptionCreate.secret).to.be.a('string').with.length.greaterThan(20);
    const HOOK = `mutation($input: WebhookSubscriptionCreateInput!) { webhookSubscriptionCreate(input: $input) { webhookSubscription { id } userErrors { field } } }`;
    const badEvents = await gql(HOOK, { input: { targetUrl: 'https://hooks.example.com/x', eventTypes: ['no.such_event'] } });
    expect(badEvents.data.webhookSubscriptionCreate.userErrors.map((e: any) => e.field.join('.'))).to.deep.equal(['input.eventTypes.0']);
    const badTarget = await gql(HOOK, { input: { targetUrl: 'ftp://nope', eventTypes: ['order.created'] } });
    expect(badTarget.data.webhookSubscriptionCreate.userErrors.map((e: any) => e.field?.join('.'))).to.deep.equal(['input.targetUrl']);
  });

  it('creates, fulfils and refunds an order; the same Idempotency-Key makes one order and answers the first response again', async () => {
    const p = (await gql(CREATE, { input: { title: 'Jar', variants: [{ price: 2000, sku: 'JAR-1' }] } })).data.productCreate.product;
    const location = await givenLocation(api, shop.as, 'Depot');
    await api.post('/v1/inventory/levels/set', { variant_id: p.variants.nodes[0].id.split('/').pop(), location_id: location, available: 10 }, shop.as);
    const ORDER = `mutation($input: OrderCreateInput!) { orderCreate(input: $input) { order { id legacyResourceId total { minorUnits } lineItems(first: 5) { nodes { id quantity } } } userErrors { field message } } }`;
    const key = randomBytes(8).toString('hex');
    const input = { lineItems: [{ variantId: p.variants.nodes[0].id, quantity: 3 }], financialStatus: 'PAID' };
    const first = await graphqlPost(url(), { ...asMerchant(shop.as), 'idempotency-key': key }, ORDER, { input });
    const second = await graphqlPost(url(), { ...asMerchant(shop.as), 'idempotency-key': key }, ORDER, { input });
    expect(first.status).to.equal(200);
    expect(first.body.data.orderCreate.userErrors).to.deep.equal([]);
    expect(second.body.data).to.deep.equal(first.body.data);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    const order = first.body.data.orderCreate.order;
    const orders = (await api.get('/v1/orders', shop.as)).body.data.filter((o: any) => o.line_items.some((l: any) => l.sku === 'JAR-1'));
    expect(orders.map((o: any) => o.id)).to.deep.equal([order.legacyResourceId]);
    expect(order.total.minorUnits).to.equal(6000);

    const line = order.lineItems.nodes[0].id;
    const fulfilled = await gql(
      `mutation($id: ID!, $input: OrderFulfillInput!) { orderFulfill(id: $id, input: $input) { order { fulfillmentStatus fulfillments { lineItems { quantity } } } userErrors { message } } }`,
      {
        id: order.id,
        input: { locationId: `gid://emporium/Location/${location}`, lineItems: [{ lineItemId: line, quantity: 3 }] },
      },
    );
    expect(fulfilled.data.orderFulfill, JSON.stringify(fulfilled)).to.deep.equal({
      order: { fulfillmentStatus: 'FULFILLED', fulfillments: [{ lineItems: [{ quantity: 3 }] }] },
      userErrors: [],
    });
    const refunded = await gql(
      `mutation($id: ID!, $input: OrderRefundInput!) { orderRefund(id: $id, input: $input) { order { financialStatus totalRefunded { minorUnits } } userErrors { message } } }`,
      {
        id: order.id,
        input: { amount: 1000, reason: 'dented lid' },
      },
    );
    expect(refunded.data.orderRefund).to.deep.equal({ order: { financialStatus: 'PARTIALLY_REFUNDED', totalRefunded: { minorUnits: 1000 } }, userErrors: [] });
    const over = await gql(`mutation($id: ID!, $input: OrderRefundInput!) { orderRefund(id: $id, input: $input) { order { id } userErrors { code } } }`, {
      id: order.id,
      input: { amount: 999_999 },
    });
    expect(over.data.orderRefund.userErrors[0].code).to.equal('OVER_REFUND');
  });

  it('answers a mutation included by an omitted variable with a default: it ran, and the answer says so (no 500)', async () => {
    const body = omittedDefault(
      'mutation',
      'productCreate(input: { title: "Omitted Default", variants: [{ price: 100 }] })',
      'product { title } userErrors { code }',
    );
    const r = await graphqlPost(url(), asMerchant(shop.as), body.query, body.variables);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.data.productCreate).to.deep.equal({ product: { title: 'Omitted Default' }, userErrors: [] });
    expect(r.body.extensions.cost).to.deep.include({ requestedQueryCost: 12, actualQueryCost: 11 });
    const made = (await api.get('/v1/products?limit=250', shop.as)).body.data.filter((p: any) => p.title === 'Omitted Default');
    expect(made).to.have.length(1);
  });

  it('checks write scopes for an app token, refuses mutations over GET (405), and webhook subscriptions to apps', async () => {
    const operator = (await givenMerchant(api, { email: OPERATOR })).token;
    const partner = await givenPublishedApp(api, operator, { scopes: ['read_products', 'write_app_metadata'] });
    const { token } = await installApp(api, partner, shop, { scopes: ['read_products'] });
    const { run } = graphqlClient(url(), asApp(token));
    const denied = await run(CREATE, { input: { title: 'X', variants: [{ price: 1 }] } });
    expect(denied.errors?.[0]?.extensions).to.deep.include({ code: 'ACCESS_DENIED', requiredAccess: 'write_products' });
    expect(denied.data).to.deep.equal({ productCreate: null });
    // The denied mutation is null, and only it: the next one of the document still runs (and is denied on its own).
    const both = await run(
      `mutation { a: productDelete(id: "gid://emporium/Product/${'a'.repeat(24)}") { deletedId } b: customerCreate(input: { email: "x@example.com" }) { userErrors { code } } }`,
    );
    expect(both.data).to.deep.equal({ a: null, b: null });
    expect(both.errors?.map((e) => e.extensions?.requiredAccess)).to.deep.equal(['write_products', 'write_customers']);
    const hook = await run(`mutation { webhookSubscriptionCreate(input: { targetUrl: "https://x.example.com", eventTypes: ["order.created"] }) { secret } }`);
    expect(hook.errors?.[0]?.extensions).to.deep.include({ code: 'ACCESS_DENIED', requiredAccess: 'merchant' });
    const get = await fetch(
      `${url()}?query=${encodeURIComponent('mutation { productDelete(id: "gid://emporium/Product/aaaaaaaaaaaaaaaaaaaaaaaa") { deletedId } }')}`,
      {
        headers: asMerchant(shop.as),
      },
    );
    expect(get.status).to.equal(405);
  });
});
