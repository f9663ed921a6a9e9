import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import {
  addToCart,
  button,
  checkOut,
  chooseShipping,
  fillInformation,
  follow,
  open,
  payNow,
  placeOrder,
  SAMPLE_SHOPPER,
  setField,
  shopUrl,
} from '../../src/dev/shop-flow.js';
import { fitsAndPasses } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenMerchant } from '../helpers/factories.js';
import { png } from '../helpers/images.js';
import { useWebProcess } from '../helpers/processes.js';
import { bundleOf } from '../helpers/theme-uploads.js';

/**
 * A merchant's first sale, in a real browser (Chromium) against the Procfile's web process
 * (docs/admin.md): they sign up, sign in, create a store, add a location and a product with two
 * variants and an image, set its stock, a shipping rate and the sandbox provider; a shopper buys both variants in the shop; the merchant sees the order
 * on Home and in Orders, fulfils it with a tracking number and refunds one line with restock; the
 * order's state and the stock are checked through the REST API. The same with JavaScript off,
 * every step a form. A second merchant gets 404 pages for the first one's store and order.
 */
describe('Admin: a merchant’s first sale, in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_journey');
  const web = useWebProcess(app);
  const chromium = useBrowser();
  const unique = () => randomBytes(4).toString('hex');
  const admin = (path: string) => `${web.url}${path}`;

  /** Types `fields` (by name) into the form whose button is `submit` and clicks it, expecting a 200 at a path matching `to`. */
  async function fillAndSend(page: Page, fields: Record<string, string>, submit: string, to: RegExp): Promise<void> {
    const form = page
      .locator('main form')
      .filter({ has: page.getByRole('button', { name: submit, exact: true }) })
      .first();
    for (const [name, value] of Object.entries(fields)) expect(await setField(form, name, value), `a field named ${name}`).to.equal(true);
    await follow(page, button(form, submit), to, submit);
  }
  const flash = async (page: Page) => (await page.locator('[role="status"]').first().innerText()).trim();

  for (const javaScript of [true, false]) {
    it(`takes a new merchant from sign-up to a fulfilled and partly refunded order, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const page = await chromium.page({ javaScript });
      page.setDefaultTimeout(30_000);
      const email = `owner-${unique()}@example.com`;
      const password = `pw-${unique()}-${unique()}`;
      const subdomain = `first-${unique()}`;

      // Sign up and sign in: the admin with no store asks for one.
      await open(page, admin('/signup'));
      await fillAndSend(page, { name: 'Grace Owner', email, password }, 'Create account', /^\/login$/);
      await fillAndSend(page, { email, password }, 'Sign in', /^\/admin$/);
      if (javaScript) await fitsAndPasses(page);
      await fillAndSend(page, { name: 'Harbour Goods', subdomain, currency: 'USD' }, 'Create store', /^\/admin\/stores\/\w{24}$/);
      const storeId = new URL(page.url()).pathname.split('/')[3]!;
      const store = (path = '') => admin(`/admin/stores/${storeId}${path}`);
      expect(await page.getByRole('heading', { level: 1 }).first().innerText()).to.contain('Harbour Goods');

      // A location, then the product with two sizes, then stock.
      await open(page, store('/settings/locations'));
      await fillAndSend(page, { name: 'Warehouse', city: 'Bristol', country_code: 'GB' }, 'Add location', /\/settings\/locations\/\w{24}$/);
      if (javaScript) await fitsAndPasses(page);
      await open(page, store('/products/new'));
      await fillAndSend(
        page,
        { title: 'Harbour Tee', status: 'active', options: 'Size: S, M', v0_options: 'S', v0_price: '24.00', v0_sku: 'TEE-S' },
        'Save product',
        /\/products\/\w{24}$/,
      );
      const productId = new URL(page.url()).pathname.split('/').at(-1)!;
      await fillAndSend(page, { v1_options: 'M', v1_price: '26.00', v1_sku: 'TEE-M' }, 'Save', /\/products\/\w{24}$/);
      const upload = page.locator('form[enctype="multipart/form-data"]');
      await upload.getByLabel('Image', { exact: true }).setInputFiles({ name: 'tee.png', mimeType: 'image/png', buffer: png(60, 40) });
      await upload.getByLabel('Alt text').fill('The Harbour Tee, folded');
      await follow(page, button(upload, 'Upload image'), /\/products\/\w{24}$/, 'Upload image');
      expect(await flash(page)).to.equal('Image “tee.png” uploaded.');
      const signedIn = await api.post('/v1/auth/signin', { email, password });
      const as = { token: signedIn.body.data.session.token as string, storeId };
      const product = (await api.get(`/v1/products/${productId}`, as)).body.data;
      expect(product.variants.map((v: { sku: string; price: number }) => [v.sku, v.price])).to.deep.equal([
        ['TEE-S', 2400],
        ['TEE-M', 2600],
      ]);
      expect(product.media_ids, 'the uploaded image').to.have.length(1);
      const [small, medium] = product.variants.map((v: { id: string }) => v.id) as [string, string];
      for (const variant of [small, medium]) {
        await fillAndSend(page, { variant_id: variant, mode: 'set', quantity: '5' }, 'Update stock', /\/products\/\w{24}$/);
      }
      const available = async (variant: string) =>
        ((await api.get(`/v1/inventory/levels?variant_id=${variant}`, as)).body.data as { available: number }[]).reduce((n, l) => n + l.available, 0);
      expect([await available(small), await available(medium)]).to.deep.equal([5, 5]);

      // Shipping and the sandbox provider in Settings; a theme through the API (issue 39 installs themes in the admin).
      await open(page, store('/settings/shipping'));
      await fillAndSend(page, { r0_name: 'Standard', r0_code: 'standard', r0_price: '5.00', r0_country: '*' }, 'Save rates', /\/settings\/shipping$/);
      await open(page, store('/settings/payments'));
      await fillAndSend(page, { enabled: 'on', key_secret: `sandbox_${unique()}${unique()}` }, 'Save Sandbox', /\/settings\/payments$/);
      if (javaScript) await fitsAndPasses(page);
      const bundle = bundleOf('aurora');
      expect((await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: as.token })).status).to.equal(201);
      expect((await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: storeId, publish: true }, { token: as.token })).status).to.equal(201);

      // A shopper buys one of each size.
      const shopper = await chromium.page({ javaScript });
      for (const variant of [small, medium]) {
        await open(shopper, shopUrl(subdomain, web.port, '/products/harbour-tee'));
        expect(await shopper.locator('img[alt="The Harbour Tee, folded"]').count(), 'the image in the shop').to.be.greaterThan(0);
        // The size picker: with JavaScript the page follows the choice at once; without, Choose shows it (?variant=).
        expect(await setField(shopper, 'variant', variant)).to.equal(true);
        if (!javaScript) await follow(shopper, button(shopper, 'Choose'), /^\/products\/harbour-tee$/, 'Choose');
        expect(await shopper.locator('form[action="/cart/add"] input[name="id"]').first().inputValue()).to.equal(variant);
        await addToCart(shopper);
      }
      await checkOut(shopper);
      await fillInformation(shopper, SAMPLE_SHOPPER(`shopper-${unique()}@example.com`));
      await chooseShipping(shopper, { shipping_option: 'standard', payment_provider: 'sandbox' });
      const orderId = await placeOrder(shopper);
      const number = await payNow(shopper);

      // The merchant sees it on Home and in Orders.
      await open(page, store());
      expect(await page.locator('.stat__value').first().innerText()).to.equal('1');
      expect(await page.locator('main').innerText()).to.contain('$55.00');
      if (javaScript) await fitsAndPasses(page); // axe runs in the page: only with JavaScript on
      await open(page, store('/orders'));
      await follow(page, page.getByRole('link', { name: `#${number}` }), new RegExp(`/orders/${orderId}$`), 'the order');
      expect(await page.getByRole('heading', { name: `Order #${number}` }).count()).to.equal(1);
      if (javaScript) await fitsAndPasses(page); // axe runs in the page: only with JavaScript on

      // Fulfil it all with a tracking number, then refund the medium line with restock.
      const order = (await api.get(`/v1/orders/${orderId}`, as)).body.data;
      const line = (variant: string) => order.line_items.find((l: { variant_id: string }) => l.variant_id === variant).id as string;
      await fillAndSend(
        page,
        { tracking_company: 'Royal Mail', tracking_number: 'RM123456789GB', tracking_url: 'https://track.example/RM123456789GB' },
        'Fulfil',
        new RegExp(`/orders/${orderId}$`),
      );
      expect(await flash(page)).to.equal('Fulfilled 2 units.');
      await fillAndSend(page, { [`refund_${line(medium)}`]: '1', reason: 'Too big', restock: 'on' }, 'Refund', new RegExp(`/orders/${orderId}$`));
      expect(await flash(page)).to.equal('Refunded $26.00.');
      expect(await page.locator('main').innerText()).to.contain('RM123456789GB');

      const after = (await api.get(`/v1/orders/${orderId}`, as)).body.data;
      expect(after).to.include({ financial_status: 'partially_refunded', fulfillment_status: 'fulfilled', total: 5500 });
      expect(after.fulfillments[0].tracking_number).to.equal('RM123456789GB');
      expect(after.refunds.map((r: { amount: number; restock: boolean }) => [r.amount, r.restock])).to.deep.equal([[2600, true]]);
      expect([await available(small), await available(medium)], 'one small shipped; the medium shipped and came back').to.deep.equal([4, 5]);

      // Another merchant gets the admin's 404 page for this store and its order.
      const stranger = await givenMerchant(api);
      const other = await chromium.page({ javaScript });
      await open(other, admin('/login'));
      await fillAndSend(other, { email: stranger.email, password: stranger.password }, 'Sign in', /^\/admin$/);
      for (const path of [store(), store(`/orders/${orderId}`), store(`/products/${productId}`)]) {
        const res = await other.goto(path);
        expect(res?.status(), path).to.equal(404);
        expect(await other.locator('main').innerText()).not.to.contain('Harbour');
      }
    });
  }
});
