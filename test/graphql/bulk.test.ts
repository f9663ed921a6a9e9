import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { createCollection } from '../../src/catalog/index.js';
import { createProduct } from '../../src/catalog/products.js';
import { CreateCollectionBody, CreateProductBody } from '../../src/catalog/schemas.js';
import { findStoreById } from '../../src/stores/index.js';
import { givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore, type As, type GivenMerchantWithStore } from '../helpers/factories.js';
import { asApp, asMerchant, graphqlClient, graphqlPost } from '../helpers/graphql.js';
import { stopAll, type RunningProcess } from '../helpers/processes.js';
import { s3Env, startS3Proxy, testS3Storage, type S3Proxy } from '../helpers/s3.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-bulk@example.com';
const PART = 5 * 1024 * 1024;

const PRODUCTS_QUERY = `{
  products {
    edges { node { id title handle variants { edges { node { id sku price { amount } } } } } }
  }
}`;
const ORDERS_QUERY = `{ orders { nodes { id name lineItems { nodes { id title quantity } } } } }`;

const FIELDS = `id status query objectCount rootObjectCount estimatedRootObjectCount fileSize url partialDataUrl urlExpiresAt errorCode createdAt completedAt`;
const RUN = `mutation($query: String!) { bulkOperationRunQuery(query: $query) { bulkOperation { ${FIELDS} } userErrors { field message code } } }`;
const CANCEL = `mutation($id: ID!) { bulkOperationCancel(id: $id) { bulkOperation { ${FIELDS} } userErrors { field message code } } }`;
const CURRENT = `{ currentBulkOperation { ${FIELDS} } }`;
const BY_ID = `query($id: ID!) { bulkOperation(id: $id) { ${FIELDS} } }`;

type Line = Record<string, any>;

/** A finished file's lines, parsed: every line one JSON object. */
async function linesAt(url: string): Promise<{ raw: string; lines: Line[] }> {
  const res = await fetch(url);
  expect(res.status, url).to.equal(200);
  const raw = await res.text();
  if (raw === '') return { raw, lines: [] };
  expect(raw.endsWith('\n')).to.equal(true);
  return {
    raw,
    lines: raw
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l) as Line),
  };
}

/** Every `__parentId` names the id of an earlier line, and every id is on one line. */
function expectWellFormed(lines: Line[]): void {
  const seen = new Set<string>();
  for (const [i, line] of lines.entries()) {
    expect(line.id, `line ${i}`).to.be.a('string');
    expect(seen.has(line.id), `${line.id} twice`).to.equal(false);
    if (line.__parentId !== undefined) expect(seen.has(line.__parentId), `line ${i}'s parent ${line.__parentId} comes before it`).to.equal(true);
    seen.add(line.id);
  }
}

/** An ordinary query's answer as the bulk file's lines: each object without its `connections`, then each of their items with `__parentId`. */
function asLines(nodes: Line[], connections: string[]): Line[] {
  return nodes.flatMap((node) => {
    const own = Object.fromEntries(Object.entries(node).filter(([k]) => !connections.includes(k)));
    return [own, ...connections.flatMap((c) => (node[c].nodes as Line[]).map((item) => ({ ...item, __parentId: node.id })))];
  });
}

/** A process's peak resident set (VmHWM), in MB. */
const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/**
 * Bulk operations (docs/bulk.md): admin queries exported as JSONL by the real bulk worker into a
 * real S3-compatible server (SeaweedFS, started by the test run), read back through the presigned
 * URL and compared with the data line by line; one running per caller, cancel, a worker killed
 * half-way, the finish webhook, expiry, and queries refused.
 */
describe('Bulk operations: admin queries exported as JSONL by the bulk worker', function () {
  const { app, api, receiver, startWorker } = useWebhooksApp(
    'graphql_bulk',
    {
      ...s3Env(),
      OPERATOR_EMAILS: OPERATOR,
      JOBS_POLL_INTERVAL_MS: '100',
      WEBHOOK_RETRY_BASE_SECONDS: '0.05',
      WEBHOOK_RETRY_CAP_SECONDS: '0.4',
      BULK_LEASE_MS: '1500',
      BULK_SWEEP_INTERVAL_MS: '300',
      BULK_PART_BYTES: String(PART),
      // Small pages, so every export walks several root pages and every product's variants take two.
      BULK_ROOT_PAGE: '7',
      BULK_NESTED_PAGE: '2',
    },
    { groups: ['webhooks'] },
  );
  const bulkWorkers: RunningProcess[] = [];
  after(() => stopAll(bulkWorkers));
  const startBulkWorker = async (env: Record<string, string> = {}) => {
    const worker = await startWorker('bulk', env);
    bulkWorkers.push(worker);
    return worker;
  };

  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  let operatorToken: string;
  let products: any[];
  let orders: any[];
  const gql = (as: As | string) => graphqlClient(`${app.url}/v1/admin/graphql`, typeof as === 'string' ? asApp(as) : asMerchant(as)).run;
  const operations = () => app.platform.db.collection('bulk_operations');
  /** A product of the store with a description of `length` characters, made through the catalog service (hundreds of them, faster than through the API): its id. */
  const givenLongProduct = async (store: GivenMerchantWithStore, title: string, length: number, price: number): Promise<string> =>
    (
      await createProduct(
        app.platform,
        (await findStoreById(app.platform, store.store.id))!,
        CreateProductBody.parse({
          title,
          status: 'active',
          description_html: `<p>${`${title}, described at length. `.repeat(Math.ceil(length / 20)).slice(0, length)}</p>`,
          variants: [{ price, inventory_tracked: false }],
        }),
      )
    ).id;

  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    products = [];
    for (let i = 0; i < 20; i++)
      products.push(
        await givenProduct(api, shop.as, {
          title: `Bowl ${i}`,
          options: [{ name: 'Glaze', values: ['Ash', 'Iron', 'Salt'] }],
          variants: ['Ash', 'Iron', 'Salt'].map((g, j) => ({ price: 1000 + i * 10 + j, sku: `B${i}-${g}`, option_values: [g], inventory_tracked: false })),
        }),
      );
    await givenProduct(api, other.as, { title: 'Not yours' });
    orders = [];
    for (let i = 0; i < 9; i++) {
      const made = await api.post(
        '/v1/orders',
        {
          line_items: [
            { variant_id: products[i]!.variants[0].id, quantity: 1 + i },
            { variant_id: products[i + 1]!.variants[1].id, quantity: 1 },
            ...(i % 2 ? [{ title: 'Gift wrap', price: 500, quantity: 1, taxable: false }] : []),
          ],
          financial_status: 'paid',
        },
        shop.as,
      );
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      orders.push(made.body.data);
    }
  });

  /** Start a bulk query as the caller: the operation, or the user errors. */
  async function runQuery(as: As | string, query: string): Promise<{ op: any; errors: any[] }> {
    const r = await gql(as)(RUN, { query });
    expect(r.errors, JSON.stringify(r.errors)).to.equal(undefined);
    return { op: r.data.bulkOperationRunQuery.bulkOperation, errors: r.data.bulkOperationRunQuery.userErrors };
  }
  const finished = (as: As | string, id: string, statuses = ['COMPLETED', 'FAILED', 'CANCELED']) =>
    until(
      `bulk operation ${id} to finish`,
      async () => {
        const op = (await gql(as)(BY_ID, { id })).data.bulkOperation;
        return statuses.includes(op.status) ? op : null;
      },
      60_000,
    );

  describe('with a bulk worker', () => {
    before(() => startBulkWorker());
    after(() => stopAll(bulkWorkers));

    it('exports products with their variants: every object once, each variant after its product with its __parentId, progress against the count taken at start', async () => {
      const { op, errors } = await runQuery(shop.as, PRODUCTS_QUERY);
      expect(errors).to.deep.equal([]);
      expect(op).to.include({ status: 'CREATED', query: PRODUCTS_QUERY, objectCount: '0', rootObjectCount: '0', estimatedRootObjectCount: '20', url: null });
      const done = await finished(shop.as, op.id);
      expect(done).to.include({ status: 'COMPLETED', objectCount: '80', rootObjectCount: '20', errorCode: null, partialDataUrl: null });
      expect(done.completedAt).to.be.a('string');
      const expires = Date.parse(done.urlExpiresAt) - Date.parse(done.completedAt);
      expect(expires).to.be.within(7 * 86400_000 - 5000, 7 * 86400_000 + 5000);
      expect(new URL(done.url).searchParams.get('X-Amz-Expires')).to.match(/^\d+$/);

      const { raw, lines } = await linesAt(done.url);
      expect(Buffer.byteLength(raw)).to.equal(Number(done.fileSize));
      expect(lines).to.have.length(80);
      expectWellFormed(lines);
      const expected: Line[] = [];
      for (const p of products) {
        const gid = `gid://emporium/Product/${p.id}`;
        expected.push({ id: gid, title: p.title, handle: p.handle });
        for (const v of p.variants)
          expected.push({ id: `gid://emporium/ProductVariant/${v.id}`, sku: v.sku, price: { amount: (v.price / 100).toFixed(2) }, __parentId: gid });
      }
      expect(lines).to.deep.equal(expected);

      // The same operation through REST, and the list.
      const rest = await api.get(`/v1/bulk-operations/${op.id.split('/').pop()}`, shop.as);
      expect(rest.status, JSON.stringify(rest.body)).to.equal(200);
      expect(rest.body.data).to.include({ status: 'completed', object_count: 80, root_object_count: 20, estimated_root_count: 20, progress: 1 });
      expect(rest.body.data.url).to.be.a('string');
      const list = await api.get('/v1/bulk-operations', shop.as);
      expect(list.body.data.map((o: any) => o.id)).to.include(rest.body.data.id);
    });

    it('exports orders with their line items, parsed back and compared with each order', async () => {
      const { op } = await runQuery(shop.as, ORDERS_QUERY);
      const done = await finished(shop.as, op.id);
      expect(done).to.include({ status: 'COMPLETED', rootObjectCount: '9', estimatedRootObjectCount: '9' });
      const { lines } = await linesAt(done.url);
      expectWellFormed(lines);
      const expected: Line[] = [];
      for (const o of orders) {
        const gid = `gid://emporium/Order/${o.id}`;
        expected.push({ id: gid, name: `#${o.number}` });
        for (const li of o.line_items) expected.push({ id: `gid://emporium/LineItem/${li.id}`, title: li.title, quantity: li.quantity, __parentId: gid });
      }
      expect(lines).to.deep.equal(expected);
      expect(done.objectCount).to.equal(String(expected.length));
    });

    it('applies the app’s scopes to every field: without read_orders no orders, and an app sees its own operations only', async () => {
      const partner = await givenPublishedApp(api, operatorToken, { scopes: ['read_products', 'read_orders', 'read_customers'] });
      const { token } = await installApp(api, partner, shop, { scopes: ['read_products'] });
      const before = await operations().countDocuments();

      const refused = await runQuery(token, ORDERS_QUERY);
      expect(refused.op).to.equal(null);
      expect(refused.errors).to.deep.equal([{ field: ['query'], message: 'The query needs the `read_orders` access scope', code: 'ACCESS_DENIED' }]);
      const nested = await runQuery(token, '{ products { nodes { id title } } customers { nodes { id } } }');
      expect(nested.errors[0].code).to.equal('INVALID_QUERY');
      const rest = await api.post('/v1/bulk-operations', { query: ORDERS_QUERY }, { token });
      expect(rest.status).to.equal(403);
      expect(rest.body.error.code).to.equal('insufficient_scope');
      expect(rest.headers.get('www-authenticate')).to.include('scope="read_orders"');
      expect(await operations().countDocuments()).to.equal(before);

      const { op } = await runQuery(token, '{ products { nodes { id title } } }');
      const done = await finished(token, op.id);
      expect(done).to.include({ status: 'COMPLETED', objectCount: '20' });
      const mine = (await api.get('/v1/bulk-operations', { token })).body.data;
      expect(mine.map((o: any) => o.id)).to.deep.equal([op.id.split('/').pop()]);
      expect(mine[0].started_by).to.deep.equal({ type: 'app', id: partner.app.id });
      // The merchant's operations are not the app's: by id they are not found.
      const merchants = (await api.get('/v1/bulk-operations', shop.as)).body.data.filter((o: any) => o.started_by.type === 'merchant');
      expect((await gql(token)(BY_ID, { id: `gid://emporium/BulkOperation/${merchants[0].id}` })).data.bulkOperation).to.equal(null);
      expect((await api.get(`/v1/bulk-operations/${merchants[0].id}`, { token })).status).to.equal(404);
      // The merchant sees the store's, the app's included.
      const all = (await api.get('/v1/bulk-operations', shop.as)).body.data;
      expect(all.map((o: any) => o.id)).to.include(mine[0].id);
    });

    it('keeps another store’s merchant out: its operations, its current one and its files', async () => {
      const { op } = await runQuery(shop.as, '{ collections { nodes { id } } }');
      await finished(shop.as, op.id);
      const restId = op.id.split('/').pop();
      expect((await gql(other.as)(BY_ID, { id: op.id })).data.bulkOperation).to.equal(null);
      expect((await api.get(`/v1/bulk-operations/${restId}`, other.as)).status).to.equal(404);
      expect((await api.post(`/v1/bulk-operations/${restId}/cancel`, undefined, other.as)).status).to.equal(404);
      expect((await gql(other.as)(CURRENT)).data.currentBulkOperation).to.equal(null);
      expect((await api.get('/v1/bulk-operations', other.as)).body.data).to.deep.equal([]);
      // Naming the other store with one's own token is refused before anything is read.
      const foreign = await api.get('/v1/bulk-operations', { token: other.as.token, storeId: shop.as.storeId });
      expect(foreign.status).to.equal(403);
    });

    it('refuses malformed and over-limit queries with a user error saying why, and starts nothing', async () => {
      const before = await operations().countDocuments();
      const cases: [string, RegExp][] = [
        ['{ products { nodes { id } ', /Syntax Error/],
        ['{ products { nodes { nope } } }', /Cannot query field "nope"/],
        ['mutation { productDelete(id: "x") { userErrors { message } } }', /one query operation|runs a query/],
        ['query($n: Int) { products(first: $n) { nodes { id } } }', /takes no variables/],
        ['{ node(id: "gid://emporium/Product/1") { id } }', /node and nodes cannot be the root/],
        ['{ shop { name } }', /must be one of the connections/],
        ['{ products { nodes { id } } orders { nodes { id } } }', /exactly one root field/],
        ['query { ...P } fragment P on QueryRoot { products { nodes { id } } }', /without named fragments/],
        ['{ products { nodes { id title } edges { node { id } } } }', /select its items once/],
        ['{ customers { nodes { id orders { nodes { id lineItems { nodes { id } } } } } } }', /nest at most 2 deep/],
        ['{ products { nodes { id variants { nodes { id inventoryLevels { nodes { id } } } } } } }', /nest at most 2 deep/],
        ['{ orders { nodes { id customer { orders { nodes { id } } } } } }', /must be a field of a connection's items/],
        [
          '{ customers { nodes { id a: orders { nodes { id } } b: orders { nodes { id } } c: orders { nodes { id } } d: orders { nodes { id } } e: orders { nodes { id } } } } }',
          /at most 5 connections \(it has 6\)/,
        ],
      ];
      for (const [query, message] of cases) {
        const { op, errors } = await runQuery(shop.as, query);
        expect(op, query).to.equal(null);
        expect(errors.length, query).to.be.greaterThan(0);
        expect(errors[0].code, query).to.equal('INVALID_QUERY');
        expect(errors[0].field).to.deep.equal(['query']);
        expect(errors.map((e: any) => e.message).join(' | '), query).to.match(message);
      }
      const rest = await api.post('/v1/bulk-operations', { query: '{ shop { name } }' }, shop.as);
      expect(rest.status).to.equal(400);
      expect(rest.body.error.code).to.equal('invalid_bulk_query');
      expect(rest.body.error.details.join(' ')).to.match(/must be one of the connections/);
      expect((await api.post('/v1/bulk-operations', { query: 'x'.repeat(20_001) }, shop.as)).status).to.equal(400);
      expect((await api.post('/v1/bulk-operations', {}, shop.as)).status).to.equal(400);
      expect(await operations().countDocuments()).to.equal(before);
    });

    it('exports every field as the admin API answers it, whichever fields of a document the query selects', async () => {
      // A customer with an address and an order of their own, and a collection of some products.
      const customer = (await api.post('/v1/customers', { email: 'ada@example.com', first_name: 'Ada', tags: ['vip'], note: 'Likes ash' }, shop.as)).body.data;
      const address = { first_name: 'Ada', address1: '1 Loom Street', city: 'London', country_code: 'GB', zip: 'N1 1AA' };
      expect((await api.post(`/v1/customers/${customer.id}/addresses`, address, shop.as)).status).to.equal(201);
      const order = await api.post(
        '/v1/orders',
        {
          customer_id: customer.id,
          line_items: [{ variant_id: products[3]!.variants[2].id, quantity: 2 }],
          shipping_line: { title: 'Courier', code: 'courier', price: 700 },
          shipping_address: address,
          billing_address: address,
          note: 'Gift',
        },
        shop.as,
      );
      expect(order.status, JSON.stringify(order.body)).to.equal(201);
      const collection = await api.post(
        '/v1/products/collections',
        { type: 'manual', title: 'Ash', product_ids: products.slice(0, 4).map((p) => p.id) },
        shop.as,
      );
      expect(collection.status, JSON.stringify(collection.body)).to.equal(201);

      const money = 'amount currencyCode minorUnits';
      const cases: [root: string, selection: string, connections: string[]][] = [
        [
          'products',
          `id legacyResourceId title handle descriptionHtml vendor productType tags status options { name values }
           priceRange { minVariantPrice { ${money} } maxVariantPrice { ${money} } } media { id } createdAt updatedAt
           variants(first: 5) { nodes { id legacyResourceId title sku price { ${money} } compareAtPrice { amount } selectedOptions { name value }
             weightGrams inventoryTracked inventoryPolicy product { id handle } } }`,
          ['variants'],
        ],
        [
          'collections',
          `id legacyResourceId title handle descriptionHtml type createdAt updatedAt
           products(first: 5) { nodes { id title tags priceRange { maxVariantPrice { amount } } } }`,
          ['products'],
        ],
        [
          'customers',
          `id legacyResourceId email firstName lastName phone acceptsMarketing tags note numberOfOrders amountSpent { ${money} }
           defaultAddress { id city countryCode } createdAt updatedAt
           addresses(first: 5) { nodes { id firstName lastName company address1 address2 city province provinceCode countryCode zip phone } }
           orders(first: 5) { nodes { id name total { amount } } }`,
          ['addresses', 'orders'],
        ],
        [
          'orders',
          `id legacyResourceId name number email currencyCode customer { id email } shippingLine { title code price { ${money} } discount { amount } tax { amount } }
           shippingAddress { address1 city countryCode zip } billingAddress { city } subtotal { ${money} } totalDiscounts { amount } totalShipping { amount }
           totalTax { amount } total { ${money} } totalPaid { amount } totalRefunded { amount } financialStatus fulfillmentStatus fulfillments { id }
           refunds { id amount { amount } } transactions { id kind amount { amount } } note sourceName cancelledAt cancelReason createdAt updatedAt
           lineItems(first: 5) { nodes { id title variantTitle sku quantity variant { id sku price { amount } selectedOptions { value } } product { id title }
             unitPrice { ${money} } totalDiscount { amount } totalTax { amount } total { amount } taxable fulfilledQuantity refundedQuantity } }`,
          ['lineItems'],
        ],
      ];
      for (const [root, selection, connections] of cases) {
        const { op, errors } = await runQuery(shop.as, `{ ${root} { nodes { ${selection} } } }`);
        expect(errors, root).to.deep.equal([]);
        const done = await finished(shop.as, op.id);
        expect(done.status, `${root}: ${done.errorCode}`).to.equal('COMPLETED');
        // The admin API's answer, a few objects a page (the query cost limit).
        const nodes: Line[] = [];
        for (let after: string | null = null, more = true; more;) {
          const page = `{ ${root}(first: 4${after ? `, after: "${after}"` : ''}) { nodes { ${selection} } pageInfo { hasNextPage endCursor } } }`;
          const answer = await graphqlPost(`${app.url}/v1/admin/graphql`, asMerchant(shop.as), page);
          if (answer.status === 429) {
            await new Promise((r) => setTimeout(r, Number(answer.headers.get('retry-after') ?? 1) * 1000));
            continue; // the same page again, once the bucket has room
          }
          expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
          expect(answer.body.errors, JSON.stringify(answer.body.errors)).to.equal(undefined);
          nodes.push(...answer.body.data[root].nodes);
          ({ hasNextPage: more, endCursor: after } = answer.body.data[root].pageInfo);
        }
        const expected = asLines(nodes, connections);
        expect(expected.length, root).to.be.greaterThan(1);
        expect((await linesAt(done.url)).lines, root).to.deep.equal(expected);
      }
    });
  });

  describe('one at a time, and the sweep', () => {
    after(() => stopAll(bulkWorkers));

    it('runs one operation per caller and store: a second is refused with the running one’s id; another caller starts its own', async () => {
      const first = await runQuery(shop.as, PRODUCTS_QUERY);
      expect(first.errors).to.deep.equal([]);
      expect(first.op.status).to.equal('CREATED');
      const second = await runQuery(shop.as, ORDERS_QUERY);
      expect(second.op).to.equal(null);
      expect(second.errors).to.have.length(1);
      expect(second.errors[0].code).to.equal('OPERATION_IN_PROGRESS');
      expect(second.errors[0].message).to.include(first.op.id);
      const rest = await api.post('/v1/bulk-operations', { query: ORDERS_QUERY }, shop.as);
      expect(rest.status).to.equal(409);
      expect(rest.body.error.code).to.equal('bulk_operation_in_progress');
      expect(rest.body.error.details).to.deep.equal([`running_id: ${first.op.id.split('/').pop()}`]);
      expect((await gql(shop.as)(CURRENT)).data.currentBulkOperation.id).to.equal(first.op.id);

      // An app of the store is another caller: it starts its own.
      const partner = await givenPublishedApp(api, operatorToken, { scopes: ['read_products'] });
      const { token } = await installApp(api, partner, shop, { scopes: ['read_products'] });
      const theirs = await runQuery(token, '{ products { nodes { id } } }');
      expect(theirs.errors).to.deep.equal([]);
      expect((await gql(token)(CURRENT)).data.currentBulkOperation.id).to.equal(theirs.op.id);

      // Cancelled before any worker took it: canceling, then (once a worker runs) canceled with an empty partial file.
      const canceled = await gql(shop.as)(CANCEL, { id: first.op.id });
      expect(canceled.data.bulkOperationCancel.bulkOperation.status).to.equal('CANCELING');
      // Its job is lost: the sweep finds it and a worker finishes it.
      await app.platform.db.collection('agendaJobs').deleteMany({ name: 'bulk.export' });
      await startBulkWorker();
      const done = await finished(shop.as, first.op.id);
      expect(done).to.include({ status: 'CANCELED', url: null, objectCount: '0' });
      expect((await linesAt(done.partialDataUrl)).lines).to.deep.equal([]);
      // Now another may start; a finished one cannot be canceled.
      const again = await gql(shop.as)(CANCEL, { id: first.op.id });
      expect(again.data.bulkOperationCancel.userErrors[0]).to.include({ code: 'BULK_OPERATION_FINISHED' });
      expect((await api.post(`/v1/bulk-operations/${first.op.id.split('/').pop()}/cancel`, undefined, shop.as)).status).to.equal(409);
      const next = await runQuery(shop.as, ORDERS_QUERY);
      expect(next.errors).to.deep.equal([]);
      await finished(shop.as, next.op.id);
    });
  });

  describe('a large export: parts, cancel, a worker killed half-way, the finish webhook, expiry', () => {
    let big: GivenMerchantWithStore;
    let partner: GivenApp;
    let appToken: string;
    let installationId: string;
    let merchantSub: { id: string };
    let proxy: S3Proxy;
    const ROOTS = 300;

    before(async () => {
      await stopAll(bulkWorkers);
      proxy = await startS3Proxy();
      big = await givenMerchantWithStore(api);
      // 300 products with a 40 KB description each: a file of about 12 MB, three parts of 5 MiB.
      for (let i = 0; i < ROOTS; i++) await givenLongProduct(big, `Plate ${i}`, 40_000, 2000 + i);
      partner = await givenPublishedApp(api, operatorToken, { scopes: ['read_products'] });
      receiver.expectSecret('/bulk-app', partner.webhookSecret);
      ({ token: appToken, installationId } = await installApp(api, partner, big, { scopes: ['read_products'], webhookUrl: `${receiver.url}/bulk-app` }));
      // Another app in the store: it must not hear of the first app's operation.
      const bystander = await givenPublishedApp(api, operatorToken, { scopes: ['read_products'] });
      receiver.expectSecret('/bystander', bystander.webhookSecret);
      await installApp(api, bystander, big, { scopes: ['read_products'], webhookUrl: `${receiver.url}/bystander` });
      const sub = await api.post(
        '/v1/operations/webhook-subscriptions',
        { target_url: `${receiver.url}/bulk-merchant`, event_types: ['bulk_operation.finished'] },
        big.as,
      );
      expect(sub.status, JSON.stringify(sub.body)).to.equal(201);
      receiver.expectSecret('/bulk-merchant', sub.body.data.secret);
      merchantSub = sub.body.data;
    });
    after(() => proxy.close());

    const QUERY = '{ products { nodes { id title descriptionHtml variants { nodes { id price { amount } } } } } }';
    let reference: { raw: string; lines: Line[] };

    it('writes a file of several parts and checkpoints after each', async () => {
      await startBulkWorker();
      const { op } = await runQuery(big.as, QUERY);
      const done = await finished(big.as, op.id);
      expect(done).to.include({ status: 'COMPLETED', rootObjectCount: String(ROOTS), objectCount: String(2 * ROOTS) });
      reference = await linesAt(done.url);
      expectWellFormed(reference.lines);
      expect(reference.lines.filter((l) => !l.__parentId)).to.have.length(ROOTS);
      const doc = await operations().findOne({ _id: new ObjectId(op.id.split('/').pop()) });
      expect(doc!.checkpoint.parts.length).to.be.within(2, 3);
      expect(doc!.checkpoint.bytes).to.equal(Buffer.byteLength(reference.raw));
      await stopAll(bulkWorkers);
    });

    it('resumes from the last checkpoint after the bulk worker is killed mid-export: the same file, no line twice or missing', async () => {
      // The worker writes through the proxy, which holds the second part's upload: it is killed while it waits.
      await killedWhileHeld(
        (req) => req.method === 'PUT' && /partNumber=2\b/.test(req.url),
        (mid) => {
          expect(mid.checkpoint.parts).to.have.length(1);
          expect(mid.status).to.equal('running');
        },
      );
    });

    it('finishes the file when the bulk worker is killed while completing it: the same file, completed once', async () => {
      // The worker completes the upload through the proxy, which holds the completion: it is killed while it waits.
      await killedWhileHeld(
        (req) => req.method === 'POST' && /[?&]uploadId=/.test(req.url),
        (mid) => expect(mid.checkpoint.finishing).to.deep.equal({ outcome: 'completed', error_code: null, error_message: null }),
      );
    });

    /**
     * A bulk worker writing through the proxy is killed (SIGKILL) while the proxy holds a request
     * of its export; another worker takes it up once the lease has run out (the sweep finds it)
     * and finishes the file, byte for byte the uninterrupted one.
     */
    async function killedWhileHeld(hold: S3Proxy['hold'], whileHeld: (op: any) => void): Promise<void> {
      proxy.hold = hold;
      const doomed = await startBulkWorker({ S3_ENDPOINT: proxy.endpoint });
      const { op } = await runQuery(big.as, QUERY);
      await until('the request to be held', async () => proxy.held() > 0, 60_000);
      whileHeld(await operations().findOne({ _id: new ObjectId(op.id.split('/').pop()) }));
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      proxy.hold = null;
      proxy.release();
      await startBulkWorker();
      const done = await finished(big.as, op.id);
      expect(done).to.include({ status: 'COMPLETED', objectCount: String(2 * ROOTS) });
      expect((await linesAt(done.url)).raw === reference.raw, 'the file is byte for byte the uninterrupted one').to.equal(true);
      await stopAll(bulkWorkers);
    }

    it('cancels a running export within one part and offers what it wrote as the partial file', async () => {
      proxy.hold = (req) => req.method === 'PUT' && /partNumber=2\b/.test(req.url);
      await startBulkWorker({ S3_ENDPOINT: proxy.endpoint });
      const { op } = await runQuery(big.as, QUERY);
      await until('the second part to be held', async () => proxy.held() > 0, 60_000);
      const canceling = await api.post(`/v1/bulk-operations/${op.id.split('/').pop()}/cancel`, undefined, big.as);
      expect(canceling.status, JSON.stringify(canceling.body)).to.equal(200);
      expect(canceling.body.data.status).to.equal('canceling');
      proxy.hold = null;
      proxy.release();
      const done = await finished(big.as, op.id);
      expect(done).to.include({ status: 'CANCELED', url: null });
      const partial = await linesAt(done.partialDataUrl);
      expectWellFormed(partial.lines);
      expect(partial.lines.length).to.be.greaterThan(0).and.lessThan(reference.lines.length);
      expect(reference.raw.startsWith(partial.raw), 'the partial file is the start of the whole one, ending at a whole object').to.equal(true);
      expect(partial.lines.at(-1)!.__parentId).to.be.a('string');
      expect(done.objectCount).to.equal(String(partial.lines.length));
      await stopAll(bulkWorkers);
    });

    /** Start a bulk worker writing through the proxy, wait for it to be held by `hold`, and kill it (SIGKILL) there. */
    async function killWhileHeld(hold: S3Proxy['hold'], what: string): Promise<void> {
      proxy.hold = hold;
      const doomed = await startBulkWorker({ S3_ENDPOINT: proxy.endpoint });
      await until(what, async () => proxy.held() > 0, 60_000);
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      proxy.hold = null;
      proxy.release();
    }
    const partHeld = (n: number) => (req: { method: string; url: string }) => req.method === 'PUT' && new RegExp(`partNumber=${n}\\b`).test(req.url);

    it('fails an export that killed its bulk worker twice without writing a part in between, saying why, instead of handing it back again', async () => {
      const { op } = await runQuery(big.as, QUERY);
      // Each worker that takes it up dies before its first part is written.
      await killWhileHeld(partHeld(1), 'the first part of the first worker to be held');
      await killWhileHeld(partHeld(1), 'the first part of the second worker to be held');
      const survivor = await startBulkWorker();
      const restId = op.id.split('/').pop();
      const done = await until(
        'the export to finish',
        async () => {
          const got = (await api.get(`/v1/bulk-operations/${restId}`, big.as)).body.data;
          return ['completed', 'failed', 'canceled'].includes(got.status) ? got : null;
        },
        60_000,
      );
      expect(done).to.include({ status: 'failed', error_code: 'WORKER_DIED', url: null, object_count: 0 });
      expect(done.error_message).to.match(/stopped its bulk worker twice/);
      expect((await linesAt(done.partial_data_url)).lines).to.deep.equal([]);
      expect((await gql(big.as)(BY_ID, { id: op.id })).data.bulkOperation).to.include({ status: 'FAILED', errorCode: 'WORKER_DIED' });
      expect(survivor.child.exitCode, 'the worker that failed it is alive').to.equal(null);
      await stopAll(bulkWorkers);
    });

    it('keeps an export whose worker died twice with a part written in between: completed, the same file', async () => {
      const { op } = await runQuery(big.as, QUERY);
      await killWhileHeld(partHeld(2), 'the second part to be held');
      await killWhileHeld(partHeld(3), 'the third part to be held');
      await startBulkWorker();
      const done = await finished(big.as, op.id);
      expect(done).to.include({ status: 'COMPLETED', objectCount: String(2 * ROOTS) });
      expect((await linesAt(done.url)).raw === reference.raw, 'the file is byte for byte the uninterrupted one').to.equal(true);
      await stopAll(bulkWorkers);
    });

    it('delivers bulk_operation.finished, signed, once to the app that started it and to the merchant’s subscription, not to another app', async () => {
      await startBulkWorker();
      const { op } = await runQuery(appToken, '{ products { nodes { id title } } }');
      const done = await finished(appToken, op.id);
      const toApp = await until('the app’s webhook', async () => {
        const got = receiver.to('/bulk-app').filter((r) => JSON.parse(r.body).event_type === 'bulk_operation.finished');
        return got.length ? got : null;
      });
      await until('the merchant’s webhook', async () =>
        receiver.to('/bulk-merchant').some((r) => JSON.parse(r.body).payload.bulk_operation.id === op.id.split('/').pop()),
      );
      await new Promise((r) => setTimeout(r, 1000)); // time for a second delivery, which must not come
      const forApp = receiver.to('/bulk-app').filter((r) => JSON.parse(r.body).event_type === 'bulk_operation.finished');
      expect(forApp).to.have.length(1);
      expect(toApp[0]!.verified).to.equal(true);
      const body = JSON.parse(toApp[0]!.body);
      expect(body.payload.bulk_operation).to.include({
        id: op.id.split('/').pop(),
        admin_graphql_api_id: op.id,
        status: 'completed',
        object_count: ROOTS,
        error_code: null,
        completed_at: done.completedAt,
      });
      expect(body.payload.bulk_operation).to.not.have.property('url');
      expect(receiver.to('/bystander').filter((r) => JSON.parse(r.body).event_type === 'bulk_operation.finished')).to.deep.equal([]);
      // The merchant's subscription heard of every operation of the store, each once.
      const merchantIds = receiver.to('/bulk-merchant').map((r) => JSON.parse(r.body).payload.bulk_operation.id);
      expect(new Set(merchantIds).size).to.equal(merchantIds.length);
      expect(receiver.to('/bulk-merchant').every((r) => r.verified)).to.equal(true);
      void merchantSub;
    });

    it('expires the file when its URL lapses: the object deleted, the operation expired, no URL', async () => {
      const { op } = await runQuery(big.as, '{ products { nodes { id } } }');
      const done = await finished(big.as, op.id);
      const id = new ObjectId(op.id.split('/').pop());
      const doc = await operations().findOne({ _id: id });
      const storage = testS3Storage();
      expect(await storage.head(doc!.file.key)).to.not.equal(null);
      // Seven days pass for this operation.
      await operations().updateOne({ _id: id }, { $set: { 'file.expires_at': new Date(Date.now() - 1000) } });
      const expired = await finished(big.as, op.id, ['EXPIRED']);
      expect(expired).to.include({ url: null, partialDataUrl: null, urlExpiresAt: null });
      expect(await storage.head(doc!.file.key)).to.equal(null);
      expect((await fetch(done.url)).status).to.be.oneOf([403, 404]);
    });

    it('fails when the app that started it is uninstalled half-way, and offers what it wrote as the partial file', async () => {
      await stopAll(bulkWorkers); // only the worker behind the proxy may take it
      proxy.hold = (req) => req.method === 'PUT' && /partNumber=2\b/.test(req.url);
      await startBulkWorker({ S3_ENDPOINT: proxy.endpoint });
      const { op, errors } = await runQuery(appToken, QUERY);
      expect(errors).to.deep.equal([]);
      await until('the second part to be held', async () => proxy.held() > 0, 60_000);
      const removed = await api.delete(`/v1/app-store/installations/${installationId}`, big.as);
      expect(removed.status, JSON.stringify(removed.body)).to.equal(200);
      proxy.hold = null;
      proxy.release();
      const restId = op.id.split('/').pop();
      const done = await until('the export to fail', async () => {
        const got = (await api.get(`/v1/bulk-operations/${restId}`, big.as)).body.data;
        return got.status === 'failed' ? got : null;
      });
      expect(done).to.include({ error_code: 'ACCESS_DENIED', url: null });
      const partial = await linesAt(done.partial_data_url);
      expectWellFormed(partial.lines);
      expect(partial.lines.length).to.be.greaterThan(0).and.lessThan(reference.lines.length);
      expect(reference.raw.startsWith(partial.raw), 'the partial file is the start of the whole one').to.equal(true);
      expect(done.object_count).to.equal(partial.lines.length);
      await stopAll(bulkWorkers);
    });
  });

  describe('a hostile export: the shared bulk worker stays up', () => {
    let heavy: GivenMerchantWithStore;
    const COLLECTIONS = 20;
    const PRODUCTS = 250;
    let productIds: string[];
    let collectionIds: string[];

    before(async () => {
      await stopAll(bulkWorkers);
      heavy = await givenMerchantWithStore(api);
      // 250 products of a 60 KB description each, and 20 collections that each hold all of them:
      // a collection's products are 15 MB of documents, the store's 300 MB.
      productIds = [];
      for (let i = 0; i < PRODUCTS; i++) productIds.push(await givenLongProduct(heavy, `Heavy ${i}`, 60_000, 1000));
      collectionIds = [];
      for (let i = 0; i < COLLECTIONS; i++)
        collectionIds.push(
          (
            await createCollection(
              app.platform,
              heavy.store.id,
              CreateCollectionBody.parse({ type: 'manual', title: `Everything ${i}`, product_ids: productIds }),
            )
          ).id,
        );
    });
    after(() => stopAll(bulkWorkers));

    it('refuses a connection selected twice (aliases of one connection, or the same one repeated) and starts nothing', async () => {
      const before = await operations().countDocuments();
      const aliases = Array.from({ length: 4 }, (_, i) => `a${i}: products { nodes { id title } }`).join(' ');
      const cases: [string, RegExp][] = [
        [`{ collections { nodes { id ${aliases} } } }`, /products is selected 4 times \(as a0, a1, a2, a3\): a bulk query selects a connection once/],
        ['{ customers { nodes { id orders { nodes { id } } orders { nodes { id name } } } } }', /orders is selected 2 times \(as orders, orders\)/],
        ['{ products { nodes { id variants { nodes { id } } v: variants { nodes { sku } } } } }', /variants is selected 2 times \(as variants, v\)/],
      ];
      for (const [query, message] of cases) {
        const { op, errors } = await runQuery(heavy.as, query);
        expect(op, query).to.equal(null);
        expect(errors[0].code, query).to.equal('INVALID_QUERY');
        expect(errors.map((e: any) => e.message).join(' | '), query).to.match(message);
      }
      const rest = await api.post('/v1/bulk-operations', { query: cases[0]![0] }, heavy.as);
      expect(rest.status).to.equal(400);
      expect(rest.body.error.code).to.equal('invalid_bulk_query');
      expect(rest.body.error.details.join(' ')).to.match(cases[0]![1]);
      expect(await operations().countDocuments()).to.equal(before);
    });

    it('exports one connection over large documents with the Procfile’s bulk worker, which stays alive and well within its heap', async () => {
      // The largest pages there are: the worker reads as much at a time as its configuration lets it.
      // A lease of the production's length: on a busy machine a read of 250 large documents may take longer than the tests' 1.5 s.
      const worker = await startBulkWorker({ BULK_ROOT_PAGE: '250', BULK_NESTED_PAGE: '250', BULK_LEASE_MS: '60000' });
      const { op, errors } = await runQuery(heavy.as, '{ collections { nodes { id title products { nodes { id title } } } } }');
      expect(errors).to.deep.equal([]);
      const done = await Promise.race([
        finished(heavy.as, op.id),
        worker.exited.then(({ code, signal }) => {
          throw new Error(`the bulk worker died (${signal ?? code}): ${worker.output().slice(-500)}`);
        }),
      ]);
      expect(done).to.include({ status: 'COMPLETED', rootObjectCount: String(COLLECTIONS), objectCount: String(COLLECTIONS * (1 + PRODUCTS)) });
      const { lines } = await linesAt(done.url);
      const expected = collectionIds.flatMap((c, i) => {
        const gid = `gid://emporium/Collection/${c}`;
        return [
          { id: gid, title: `Everything ${i}` },
          ...productIds.map((p, j) => ({ id: `gid://emporium/Product/${p}`, title: `Heavy ${j}`, __parentId: gid })),
        ];
      });
      expect(lines).to.deep.equal(expected);
      expect(worker.child.exitCode, 'the bulk worker is alive').to.equal(null);
      // The Procfile bounds its heap at 256 MB; reading whole documents, a page of collections
      // with their products took it to about 480 MB of resident memory (and four aliases of the
      // connection out of its heap). Reading only the selected fields, a page sized by bytes at a
      // time, it stays far below.
      expect(peakRssMb(worker.child.pid!)).to.be.lessThan(300);
    });
  });
});
