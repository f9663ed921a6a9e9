import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DEMO_PRODUCTS } from '../../src/dev/demo-catalog.js';
import { useTestApp } from '../helpers/app.js';
import { runCommand } from '../helpers/processes.js';
import { freePort } from '../helpers/waiting.js';
import { ShopBrowser } from '../helpers/shop.js';

const SF = '/v1/storefront/demo';

/**
 * `npm run demo` (dist/src/dev/demo.js) against the test's database (MONGODB_URL set: it uses it
 * rather than the embedded one) and the test app's storage folder, then everything it made read
 * back through the test app: products with pictures that serve, stock, collections, the live
 * theme and the rendered home page. Run twice: the second run resets the catalogue.
 */
describe('npm run demo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emporium-demo-'));
  const { app, api } = useTestApp('demo', { STORAGE_LOCAL_DIR: dir });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function runDemo(): Promise<string> {
    const demo = runCommand('node', ['dist/src/dev/demo.js'], app.childEnv({ STORAGE_LOCAL_DIR: dir, PORT: String(await freePort()) }));
    const { code } = await demo.exited;
    expect(code, demo.output()).to.equal(0);
    return demo.output();
  }

  let firstImages: string[] = [];

  it('makes the demo store and prints its URLs and the merchant credentials', async () => {
    const output = await runDemo();
    expect(output).to.match(/shop +http:\/\/demo\.localhost:\d+\//);
    expect(output).to.match(/home page +http:\/\/localhost:\d+\/v1\/storefront\/demo\/pages\/home/);
    expect(output).to.include('demo@example.com / demo-password');
    expect(output).to.include('npm start');
  });

  it('has 30 published products, each with a picture whose public URL serves a PNG', async () => {
    const res = await api.get(`${SF}/products?limit=50`);
    expect(res.status).to.equal(200);
    const products: any[] = res.body.data;
    expect(products).to.have.length(30);
    expect(products.map((p) => p.handle)).to.deep.equal(DEMO_PRODUCTS.map((p) => p.handle));
    for (const p of products) {
      expect(p.images, p.handle).to.have.length(1);
      expect(p.images[0]).to.include({ alt: p.title, width: 640, height: 640 });
      expect(p.images[0].url).to.match(new RegExp(`^${SF}/media/[0-9a-f]{24}/${p.handle}\\.png$`));
    }
    const bodies = await Promise.all(
      products.map(async (p) => {
        const image = await fetch(app.url + p.images[0].url);
        expect(image.status, p.images[0].url).to.equal(200);
        expect(image.headers.get('content-type')).to.equal('image/png');
        expect(image.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
        return Buffer.from(await image.arrayBuffer()).toString('base64');
      }),
    );
    expect(new Set(bodies).size, 'every picture is its own').to.equal(30);
    firstImages = products.map((p) => p.images[0].url);
    // Variants, compare-at prices, and stock: one product sold out, one colour sold out.
    const blanket = products.find((p) => p.handle === 'linen-throw-blanket');
    expect(blanket.variants.map((v: any) => [v.title, v.available, v.compare_at_price])).to.deep.equal([
      ['Oat', true, 11000],
      ['Sage', true, 11000],
      ['Charcoal', false, 11000],
    ]);
    expect(products.find((p) => p.handle === 'hand-thrown-bud-vase').available).to.equal(false);
    expect(products.filter((p) => p.available)).to.have.length(28);
  });

  it('has the departments and the collections the Aurora theme features', async () => {
    const collections = (await api.get(`${SF}/collections`)).body.data.map((c: any) => c.handle);
    expect(collections).to.include.members(['home', 'kitchen', 'accessories', 'bestsellers', 'new-arrivals', 'new']);
    const kitchen = (await api.get(`${SF}/collections/kitchen/products?limit=50`)).body.data;
    expect(kitchen).to.have.length(10);
    const bestsellers = (await api.get(`${SF}/collections/bestsellers/products?limit=50`)).body.data;
    expect(bestsellers).to.have.length(8);
  });

  it('has the Aurora theme live, shipping rates and the sandbox payment provider', async () => {
    const store = (await api.get(SF)).body.data;
    expect(store).to.include({ name: 'Lumen & Loom', subdomain: 'demo' });
    const signin = await api.post('/v1/auth/signin', { email: 'demo@example.com', password: 'demo-password' });
    expect(signin.status).to.equal(200);
    const as = {
      token: signin.body.data.session.token as string,
      storeId: (await api.get('/v1/stores', { token: signin.body.data.session.token })).body.data[0].id,
    };
    const installed = (await api.get('/v1/themes/installed', as)).body.data;
    const live = installed.find((t: any) => t.role === 'live');
    expect(live.slug).to.match(/^aurora-demo-/);
    expect(store.live_theme_id).to.equal(live.id);
    expect((await api.get('/v1/shipping', as)).body.data.rates.map((r: any) => r.code)).to.deep.equal(['standard', 'express', 'free']);
    const sandbox = (await api.get('/v1/payments/providers', as)).body.data.find((p: any) => p.provider === 'sandbox');
    expect(sandbox.enabled).to.equal(true);
  });

  it('has customers and orders over the last 30 days: paid, fulfilled, awaiting payment, one refunded with restock', async () => {
    const token = (await api.post('/v1/auth/signin', { email: 'demo@example.com', password: 'demo-password' })).body.data.session.token as string;
    const as = { token, storeId: (await api.get('/v1/stores', { token })).body.data[0].id as string };
    const orders: any[] = (await api.get('/v1/orders?limit=50', as)).body.data;
    expect(orders).to.have.length(14);
    const count = (key: string) => orders.reduce((n: Record<string, number>, o) => ({ ...n, [o[key]]: (n[o[key]] ?? 0) + 1 }), {});
    expect(count('financial_status')).to.deep.equal({ paid: 11, pending: 2, partially_refunded: 1 });
    expect(count('fulfillment_status')).to.deep.equal({ fulfilled: 7, unfulfilled: 7 });
    const ages = orders.map((o) => (Date.now() - Date.parse(o.created_at)) / 86_400_000);
    expect(Math.max(...ages)).to.be.within(25, 30);
    expect(Math.min(...ages)).to.be.below(1);
    // The refund returned its line's share and put the units back.
    const refunded = orders.find((o) => o.financial_status === 'partially_refunded');
    const line = refunded.line_items[0];
    expect(refunded.refunded_amount).to.equal(line.total).and.be.greaterThan(0);
    expect(line.refunded_quantity).to.equal(line.quantity);
    const [, product, variant] = /^LL-(\d{3})-(\d+)$/.exec(line.sku)!;
    const initial = DEMO_PRODUCTS[Number(product) - 1]!.variants[Number(variant) - 1]!.stock;
    const soldElsewhere = orders.flatMap((o) => o.line_items).filter((l: any) => l.variant_id === line.variant_id && l.id !== line.id);
    expect(soldElsewhere, 'the refunded variant sold in one line only').to.deep.equal([]);
    const [level] = (await api.get(`/v1/inventory/levels?variant_id=${line.variant_id}`, as)).body.data;
    expect(level).to.include({ available: initial, committed: 0 });
    // Each customer's count and total spent are the sum of their orders'.
    const customers: any[] = (await api.get('/v1/customers?limit=50', as)).body.data;
    expect(customers).to.have.length(6);
    for (const c of customers) {
      const theirs = orders.filter((o) => o.customer_id === c.id);
      expect(c.orders_count, c.email).to.equal(theirs.length).and.be.greaterThan(0);
      expect(c.total_spent, c.email).to.equal(theirs.reduce((n, o) => n + o.paid_amount - o.refunded_amount, 0));
    }
  });

  it('renders the home page with the featured products and their pictures, on the API path and the shop host', async () => {
    const res = await fetch(`${app.url}${SF}/pages/home`);
    expect(res.status).to.equal(200);
    const html = await res.text();
    const bestsellers = (await api.get(`${SF}/collections/bestsellers/products?limit=8`)).body.data;
    for (const p of bestsellers) expect(html, p.title).to.include(p.title);
    for (const p of bestsellers) expect(html, p.title).to.include(p.images[0].url);
    // The same page as the shop serves it at http://demo.localhost:<port>/ (docs/shop.md).
    const shop = await new ShopBrowser(app.url, 'demo.localhost').get('/');
    expect(shop.status).to.equal(200);
    for (const p of bestsellers) expect(shop.html, p.title).to.include(p.images[0].url);
    // The demo's own words in place of the theme's placeholders, and a menu of its departments (issue 40).
    expect(shop.html).to.include('Lumen &amp; Loom began in a small Lisbon studio').and.include('Read the journal');
    expect(shop.html).to.not.include('Replace this text in the theme editor').and.not.include('example.com/journal');
    for (const link of ['/collections/home', '/collections/kitchen', '/collections/accessories', '/blogs/news', '/pages/about'])
      expect(shop.html, link).to.include(`href="${link}"`);
    expect((await new ShopBrowser(app.url, 'demo.localhost').get('/pages/about')).status).to.equal(200);
    expect((await new ShopBrowser(app.url, 'demo.localhost').get('/blogs/news')).html).to.include('Made to last');
  });

  it('runs again without failing, resetting the catalogue to the same demo', async () => {
    await runDemo();
    const products: any[] = (await api.get(`${SF}/products?limit=50`)).body.data;
    expect(products.map((p) => p.handle)).to.deep.equal(DEMO_PRODUCTS.map((p) => p.handle));
    const images = products.map((p) => p.images[0].url);
    for (const url of images) expect((await fetch(app.url + url)).status, url).to.equal(200);
    // The first run's media were deleted with its catalogue.
    expect(images.filter((u) => firstImages.includes(u))).to.deep.equal([]);
    expect((await fetch(app.url + firstImages[0])).status).to.equal(404);
    expect((await api.get(`${SF}/collections`)).body.data).to.have.length(6);
    // The customers and orders are kept, not made twice.
    const token = (await api.post('/v1/auth/signin', { email: 'demo@example.com', password: 'demo-password' })).body.data.session.token as string;
    const as = { token, storeId: (await api.get('/v1/stores', { token })).body.data[0].id as string };
    expect((await api.get('/v1/orders?limit=50', as)).body.data).to.have.length(14);
    expect((await api.get('/v1/customers?limit=50', as)).body.data).to.have.length(6);
  });
});
