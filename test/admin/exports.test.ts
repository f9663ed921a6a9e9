import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { s3Env } from '../helpers/s3.js';
import type { ShopResponse } from '../helpers/shop.js';
import { until } from '../helpers/waiting.js';

type Line = Record<string, any>;

/** The file behind a page's link (its `&amp;`s undone), as parsed lines. */
async function linesOf(page: ShopResponse, label: RegExp): Promise<Line[]> {
  const href = new RegExp(`href="([^"]+)">${label.source}`).exec(page.html)?.[1];
  expect(href, `a link ${label} on the page`).to.be.a('string');
  const res = await fetch(href!.replace(/&amp;/g, '&'));
  expect(res.status).to.equal(200);
  const text = await res.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

/**
 * The admin's Exports (docs/admin.md, Exports) through the real web server, the real bulk worker
 * and a real S3 server: Export from the products, orders and customers lists (the list's search
 * where the bulk query takes it), the export's page while it waits and once done, its file holding
 * the store's objects only, one running at a time, cancel and the partial file, the list of
 * exports. Refusals: another merchant's store or operation (404, nothing changed), a missing,
 * foreign or cross-site CSRF token (403), a bearer token.
 */
describe('Admin: Exports', () => {
  const { app, api } = useTestApp('admin_exports', () => ({ ...s3Env(), JOBS_POLL_INTERVAL_MS: '100', BULK_SWEEP_INTERVAL_MS: '300' }));
  const workers: RunningProcess[] = [];
  after(() => stopAll(workers));

  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const admin = (path = '') => `/admin/stores/${shop.store.id}${path}`;
  const operation = async (id: string) => (await api.get(`/v1/bulk-operations/${id}`, shop.as)).body.data;
  /** Submits the Export page of `kind` (its list's `search`, if any) and follows to the export's page: the operation's id. */
  const startExport = async (kind: string, fields: Record<string, string> = {}): Promise<string> => {
    const started = await browser.submit(admin(`/exports/new?kind=${kind}`), admin('/exports/new'), { kind, ...fields });
    expect(started.status, started.html.slice(0, 2000)).to.equal(303);
    const id = /\/exports\/([0-9a-f]{24})$/.exec(started.location!)?.[1];
    expect(id, started.location!).to.be.a('string');
    return id!;
  };
  /** Waits until the operation has the status (the bulk worker polls every 100 ms). */
  const reaches = (id: string, status: string, as = shop.as) =>
    until(`export ${id} ${status}`, async () => (await api.get(`/v1/bulk-operations/${id}`, as)).body.data.status === status);
  const finished = (id: string) => reaches(id, 'completed');

  before(async () => {
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    for (const title of ['Bowl', 'Cup'])
      await givenProduct(api, shop.as, {
        title,
        options: [{ name: 'Glaze', values: ['Ash', 'Iron'] }],
        variants: ['Ash', 'Iron'].map((g, i) => ({ price: 1000 + i, sku: `${title}-${g}`, option_values: [g], inventory_tracked: false })),
      });
    await givenProduct(api, other.as, { title: 'Not yours' });
    await givenCustomer(api, shop.as, { email: 'ada@example.com', first_name: 'Ada' });
    await givenCustomer(api, shop.as, { email: 'bob@example.com', first_name: 'Bob' });
    await givenCustomer(api, other.as, { email: 'eve@example.com' });
    await givenOrder(api, shop.as, { email: 'ada@example.com' });
    await givenOrder(api, other.as, { email: 'eve@example.com' });
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('opens the Export page from each list, with the list’s search where the export takes it, saying which filters it cannot apply', async () => {
    const products = await browser.get(admin('/products?query=Bowl&status=active'));
    expect(products.html).to.contain(`href="${admin('/exports/new')}?kind=products&amp;query=Bowl&amp;status=active">Export</a>`);
    const page = await browser.get(admin('/exports/new?kind=products&query=Bowl&status=active'));
    expect(page.status).to.equal(200);
    expect(page.html)
      .to.contain('Export products')
      .and.match(/value="search" checked> The products matching the search <strong>“Bowl”<\/strong>/)
      .and.contain('An export takes only the list’s search: the list’s other filters are')
      .and.contain('A line per variant')
      .and.contain('aria-current="page">Products');

    const orders = await browser.get(admin('/orders?q=1001'));
    expect(orders.html).to.contain(`href="${admin('/exports/new')}?kind=orders&amp;q=1001">Export</a>`);
    const ordersPage = await browser.get(admin('/exports/new?kind=orders&q=1001'));
    expect(ordersPage.html).to.contain('An export of orders takes all of them').and.not.contain('value="search"');

    const customers = await browser.get(admin('/customers?query=ada'));
    expect(customers.html).to.contain(`href="${admin('/exports/new')}?kind=customers&amp;query=ada">Export</a>`);
    // Markup in a search is text.
    const marked = await browser.get(admin('/exports/new?kind=customers&query=%3Cb%3Eada'));
    expect(marked.html).to.contain('“&lt;b&gt;ada”').and.not.contain('<b>ada');

    // A search longer than the export takes is cut to its bound (customers: 100 characters), never an error.
    const long = await browser.get(admin(`/exports/new?kind=customers&query=${'a'.repeat(300)}`));
    expect(long.status).to.equal(200);
    expect(long.html).to.contain(`“${'a'.repeat(100)}”`);
    expect((await browser.get(admin('/exports/new?kind=gift-cards'))).status).to.equal(404);
    expect((await browser.get(admin('/exports/new'))).status).to.equal(404);
  });

  it('starts an export that waits for the bulk worker, refuses a second while it runs, and cancels it', async () => {
    // No bulk worker runs yet: the export waits.
    const id = await startExport('products', { scope: 'all' });
    const page = await browser.get(admin(`/exports/${id}`));
    expect(page.status).to.equal(200);
    expect(page.headers.refresh).to.equal('3');
    expect(page.html)
      .to.contain('All products')
      .and.contain('badge--warn">waiting')
      .and.contain('This page updates every 3 seconds')
      .and.contain(`action="${admin(`/exports/${id}/cancel`)}"`)
      .and.not.contain('Download');
    const still = await browser.get(admin(`/exports/${id}?refresh=off`));
    expect(still.headers.refresh).to.equal(undefined);
    expect(still.html).to.contain('Update now');

    // One export of the merchant's runs at a time: the form again, saying so, with the running one.
    const second = await browser.submit(admin('/exports/new?kind=customers'), admin('/exports/new'), { kind: 'customers', scope: 'all' });
    expect(second.status).to.equal(409);
    expect(second.html)
      .to.contain('An export of yours is already running in this store')
      .and.contain(`href="${admin(`/exports/${id}`)}">See the running export`);

    const canceled = await browser.submit(admin(`/exports/${id}`), admin(`/exports/${id}/cancel`), {});
    expect(canceled.status).to.equal(303);
    expect(canceled.location).to.equal(admin(`/exports/${id}`));
    expect((await operation(id)).status).to.equal('canceling');
    const canceling = await browser.get(admin(`/exports/${id}`));
    expect(canceling.html).to.contain('Canceling the export').and.contain('badge--warn">canceling').and.not.contain('Cancel export</button>');

    // The worker takes it up and ends it canceled, with what it wrote (nothing) as the partial file.
    await startWorker(app, 'bulk', workers);
    await reaches(id, 'canceled');
    const ended = await browser.get(admin(`/exports/${id}`));
    expect(ended.headers.refresh).to.equal(undefined);
    expect(ended.html).to.contain('Download the partial file').and.not.contain('Cancel export');
    expect(await linesOf(ended, /Download the partial file/)).to.deep.equal([]);
    // Canceling an ended export changes nothing and says so.
    const again = await browser.submit(admin('/exports/new?kind=products'), admin(`/exports/${id}/cancel`), {});
    expect(again.status).to.equal(303);
    expect((await browser.get(again.location!)).html).to.contain('The export had already ended.');
  });

  it('exports products, orders and customers, each file the store’s objects only, and a search’s matches', async () => {
    const products = await startExport('products', { scope: 'all' });
    await finished(products);
    const done = await browser.get(admin(`/exports/${products}`));
    expect(done.headers.refresh).to.equal(undefined);
    expect(done.html).to.contain('badge--ok">completed').and.contain('2 of about 2 (100%), 6 lines').and.contain('The link lasts until');
    const lines = await linesOf(done, /Download \(JSONL/);
    expect(lines.filter((l) => !l.__parentId).map((l) => l.title)).to.deep.equal(['Bowl', 'Cup']);
    expect(lines.filter((l) => l.__parentId).map((l) => l.sku)).to.deep.equal(['Bowl-Ash', 'Bowl-Iron', 'Cup-Ash', 'Cup-Iron']);
    expect(JSON.stringify(lines)).to.not.contain('Not yours');

    const search = await startExport('products', { scope: 'search', query: 'Cup' });
    await finished(search);
    const matched = await browser.get(admin(`/exports/${search}`));
    expect(matched.html).to.contain('Products matching “Cup”');
    expect((await linesOf(matched, /Download \(JSONL/)).filter((l) => !l.__parentId).map((l) => l.title)).to.deep.equal(['Cup']);

    const orders = await startExport('orders');
    await finished(orders);
    const orderLines = await linesOf(await browser.get(admin(`/exports/${orders}`)), /Download \(JSONL/);
    expect(orderLines.filter((l) => !l.__parentId).map((l) => l.email)).to.deep.equal(['ada@example.com']);
    expect(orderLines.filter((l) => l.__parentId).map((l) => l.title)).to.deep.equal(['Item']);

    const customers = await startExport('customers');
    await finished(customers);
    const customerLines = await linesOf(await browser.get(admin(`/exports/${customers}`)), /Download \(JSONL/);
    expect(customerLines.map((l) => l.email).sort()).to.deep.equal(['ada@example.com', 'bob@example.com']);

    const list = await browser.get(admin('/exports'));
    expect(list.status).to.equal(200);
    for (const id of [products, search, orders, customers]) expect(list.html).to.contain(`href="${admin(`/exports/${id}`)}"`);
    expect(list.html).to.contain('All customers').and.contain('Products matching “Cup”').and.contain('badge">canceled');
  });

  it('shows a failed export’s reason and its partial file', async () => {
    const id = (await api.get('/v1/bulk-operations', shop.as)).body.data[0].id as string;
    // As the bulk worker records a failure (docs/bulk.md, The export): the reason, and what it wrote kept as the partial file.
    await app.platform.db.collection('bulk_operations').updateOne(
      { _id: new ObjectId(id) },
      {
        $set: {
          status: 'failed',
          error_code: 'WORKER_DIED',
          error_message: 'The export stopped its bulk worker twice <b>without</b> writing a part',
          'file.partial': true,
        },
      },
    );
    const page = await browser.get(admin(`/exports/${id}`));
    expect(page.status).to.equal(200);
    expect(page.headers.refresh).to.equal(undefined);
    expect(page.html)
      .to.contain('badge--bad">failed')
      .and.contain('<code>WORKER_DIED</code>: The export stopped its bulk worker twice &lt;b&gt;without&lt;/b&gt; writing a part')
      .and.contain('Download the partial file')
      .and.not.contain('Cancel export');
    expect((await linesOf(page, /Download the partial file/)).length).to.be.greaterThan(0);
  });

  it('refuses another merchant’s store and operations, a missing, foreign or cross-site token and a bearer token, changing nothing', async () => {
    const theirOp = (await api.post('/v1/bulk-operations', { query: '{ products { nodes { id } } }' }, other.as)).body.data.id;
    await reaches(theirOp, 'completed', other.as);
    const mine = (await api.get('/v1/bulk-operations', shop.as)).body.data[0].id;
    const stranger = await signedInAdmin(app, other.merchant);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    for (const path of [admin('/exports'), admin(`/exports/${mine}`), admin('/exports/new?kind=products'), `/admin/stores/${other.store.id}/exports/${mine}`]) {
      const page = await stranger.get(path);
      expect(page.status, path).to.equal(404);
      expect(page.html).to.not.contain(mine);
    }
    // Their operation under this store's path, and a malformed id: the 404 page.
    expect((await browser.get(admin(`/exports/${theirOp}`))).status).to.equal(404);
    expect((await browser.get(admin('/exports/not-an-id'))).status).to.equal(404);
    const before = (await api.get('/v1/bulk-operations', shop.as)).body.data.length;
    expect((await stranger.post(admin('/exports/new'), { csrf_token: strangerCsrf, kind: 'products', scope: 'all' })).status).to.equal(404);
    expect((await stranger.post(`/admin/stores/${other.store.id}/exports/${mine}/cancel`, { csrf_token: strangerCsrf })).status).to.equal(404);

    const csrf = AdminBrowser.csrfOf(await browser.get(admin('/exports/new?kind=products')));
    for (const [fields, headers] of [
      [{ kind: 'products', scope: 'all' }, {}],
      [{ kind: 'products', scope: 'all', csrf_token: strangerCsrf }, {}],
      [{ kind: 'products', scope: 'all', csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(admin('/exports/new'), fields, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    expect((await browser.post(admin(`/exports/${mine}/cancel`), {})).status).to.equal(403);
    expect((await browser.get(admin('/exports'), { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect((await api.get('/v1/bulk-operations', shop.as)).body.data.length).to.equal(before);
    expect((await api.get(`/v1/bulk-operations/${theirOp}`, other.as)).body.data.status).to.equal('completed');
  });
});
