import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import type { BrowserContext, Page } from 'playwright-core';
import {
  addToCart,
  button,
  cartLineForm,
  checkOut,
  chooseShipping,
  collectionToProduct,
  fillInformation,
  follow,
  homeToCollection,
  open,
  payNow,
  placeOrder,
  register,
  SAMPLE_SHOPPER,
  shopUrl,
  updateQuantity,
} from '../../src/dev/shop-flow.js';
import { useTestApp } from '../helpers/app.js';
import { axeViolations, blockingViolations, describeViolations, useBrowser } from '../helpers/browser.js';
import { useWebProcess } from '../helpers/processes.js';
import { givenShopWithTheme as givenThemedShop, type ThemedShop } from '../helpers/themed-shop.js';

/**
 * The shop in a real browser (docs/shop.md): headless Chromium (Debian's, driven by
 * playwright-core) against the Procfile's web process, on the store's own host
 * `http://<subdomain>.localhost:<port>/`. A shopper browses, fills the cart, checks out with the
 * sandbox provider and finds the order in their account, with JavaScript on and off; stale and
 * missing CSRF tokens are refused; two browsers never share a cart; a double-clicked Place order
 * makes one order; and axe-core finds no serious, critical or contrast failures on either
 * fixture theme's pages.
 */
describe('The shop in a browser (Chromium)', () => {
  const { app, api } = useTestApp('shop_browser');
  const web = useWebProcess(app);
  const chromium = useBrowser();

  type Shop = ThemedShop;
  const givenShopWithTheme = (fixture: 'aurora' | 'ember-liquid') => givenThemedShop(api, fixture);

  let aurora: Shop;
  before(async () => {
    aurora = await givenShopWithTheme('aurora');
  });

  const url = (shop: Shop, path = '/') => shopUrl(shop.store.subdomain, web.port, path);
  const unique = () => randomBytes(4).toString('hex');
  const shopper = SAMPLE_SHOPPER;
  const available = async (shop: Shop, variant: string) =>
    (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${shop.location}`, shop.as)).body.data[0].available as number;
  const ordersOf = (shop: Shop, filter: Record<string, unknown> = {}) =>
    app.platform.db
      .collection('orders')
      .find({ store_id: new ObjectId(shop.store.id), ...filter })
      .toArray();
  const cookieNames = async (context: BrowserContext) => (await context.cookies()).map((c) => c.name);
  /** The cart's lines as the cart page shows them: each line form's quantity. */
  const cartQuantities = async (page: Page) =>
    Promise.all(
      (
        await page
          .locator('form')
          .filter({ has: button(page, 'Update') })
          .all()
      ).map(async (f) => Number(await f.locator('[name="quantity"]').first().inputValue())),
    );

  /**
   * A form posted from the page with its cookies, as its own form would post it (same origin; the
   * test's Node process cannot resolve `*.localhost`, the browser can): the status, 303 for a redirect.
   */
  const postFromPage = (page: Page, path: string, form: Record<string, string>) =>
    page.evaluate(
      async ({ path, form }) => {
        const res = await fetch(path, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual', credentials: 'same-origin' });
        return res.type === 'opaqueredirect' ? 303 : res.status;
      },
      { path, form },
    );
  /** A page of another site (http://127.0.0.1:<port>/) whose form posts `fields` to `action`, submitted in `page`'s browser: the status the shop answered. */
  async function crossSiteForm(page: Page, action: string, fields: Record<string, string>): Promise<number> {
    const inputs = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/"/g, '&quot;')}">`)
      .join('');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Win a prize</title><form method="post" action="${action}">${inputs}<button>Claim</button></form>`);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const evil = await page.context().newPage();
      await evil.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const answered = evil.waitForResponse((r) => r.request().method() === 'POST' && r.url() === action);
      await evil.getByRole('button', { name: 'Claim' }).click();
      const status = (await answered).status();
      await evil.close();
      return status;
    } finally {
      server.close();
    }
  }

  /** The cart's lines as the cart page shows them: each line form's variant (its `id` field). */
  const cartVariants = async (page: Page) =>
    Promise.all(
      (
        await page
          .locator('form')
          .filter({ has: button(page, 'Update') })
          .all()
      ).map((f) => f.locator('input[name="id"]').first().inputValue()),
    );

  for (const javaScript of [true, false]) {
    it(`takes a shopper from home to a paid order in their account, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const page = await chromium.page({ javaScript });
      const email = `ada-${unique()}@example.com`;
      const throw_ = aurora.products[0]!;
      const before = await available(aurora, throw_.variant);

      await register(page, url(aurora, '/account/register'), { first_name: 'Ada', last_name: 'Lovelace', email, password: 'correct horse battery staple' });
      expect(await cookieNames(page.context())).to.include('emporium_customer');
      const customerCookie = (await page.context().cookies()).find((c) => c.name === 'emporium_customer')!;
      expect(customerCookie).to.include({ httpOnly: true, sameSite: 'Lax', path: '/' });

      await homeToCollection(page, url(aurora), ['bestsellers', 'new-arrivals', 'new', 'all']);
      expect(await page.content()).to.include(throw_.title);
      await collectionToProduct(page, throw_.handle);
      expect(await page.locator('h1').first().innerText()).to.include(throw_.title);

      await addToCart(page);
      const cartCookie = (await page.context().cookies()).find((c) => c.name === 'emporium_cart');
      expect(cartCookie, 'the cart cookie').to.include({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(await cartVariants(page)).to.deep.equal([throw_.variant]);
      expect(await cartQuantities(page)).to.deep.equal([1]);

      await updateQuantity(page, 2, throw_.title);
      expect(await cartQuantities(page)).to.deep.equal([2]);
      expect(await page.locator('body').innerText()).to.match(/178\.00/); // 2 × 89.00

      await checkOut(page);
      await fillInformation(page, shopper(email));
      const shipping = await page.locator('body').innerText();
      expect(shipping, 'the shipping step offers the store’s options').to.match(/Standard/);
      expect(shipping).to.match(/Express/);
      await chooseShipping(page, { shipping_option: 'express', payment_provider: 'sandbox' });
      const orderId = await placeOrder(page);
      const number = await payNow(page);

      const order = (await api.get(`/v1/orders/${orderId}`, aurora.as)).body.data;
      expect(order, JSON.stringify(order)).to.include({ email, financial_status: 'paid', subtotal: 17_800, total: 17_800 + 2500 });
      expect(String(order.number)).to.equal(number);
      expect(order.shipping_line).to.include({ code: 'express', price: 2500 });
      expect(order.line_items.map((l: { variant_id: string; quantity: number }) => [l.variant_id, l.quantity])).to.deep.equal([[throw_.variant, 2]]);
      const customer = (await api.get(`/v1/customers?query=${encodeURIComponent(email)}`, aurora.as)).body.data[0];
      expect(order.customer_id, 'the order is the signed-in customer’s').to.equal(customer.id);
      expect(await available(aurora, throw_.variant)).to.equal(before - 2);

      await open(page, url(aurora, '/account'), 'the account page');
      expect(await page.locator('body').innerText(), 'the account lists the order').to.match(new RegExp(`#\\s*${number}\\b`));
      // The cart was consumed by the order: the cart page is empty again.
      await open(page, url(aurora, '/cart'), 'the cart after the order');
      expect(await cartQuantities(page)).to.deep.equal([]);

      await open(page, url(aurora, '/account'), 'the account page');
      await follow(page, button(page, 'Log out'), /^\/$/, 'Log out');
      expect(await cookieNames(page.context())).not.to.include('emporium_customer');
      await page.goto(url(aurora, '/account'));
      expect(new URL(page.url()).pathname, 'the account page asks a logged-out shopper to log in').to.equal('/account/login');
    });
  }

  it('refuses a stale CSRF token, a missing or made-up one, and a form from another site (403), and changes nothing', async () => {
    const context = await chromium.context();
    const page = await context.newPage();
    const candle = aurora.products[2]!;
    await open(page, url(aurora, `/products/${candle.handle}`));
    await addToCart(page);
    const oldForm = await cartLineForm(page, candle.title);
    const oldToken = await oldForm.locator('input[name="csrf_token"]').inputValue();
    expect(oldToken, 'the cart form carries a csrf_token').to.have.length.greaterThan(10);

    // With a cart in this browser: a form without the token, with a made-up one, or from another site with the right one.
    const forged: Record<string, string>[] = [
      { id: candle.variant, quantity: '3' },
      { id: candle.variant, quantity: '3', csrf_token: 'x'.repeat(oldToken.length) },
    ];
    for (const form of forged) {
      expect(await postFromPage(page, '/cart/change', form), JSON.stringify(form)).to.equal(403);
    }
    const crossSite = await crossSiteForm(page, url(aurora, '/cart/change'), { id: candle.variant, quantity: '4', csrf_token: oldToken });
    expect(crossSite, 'a form on another site, posted to the shop').to.equal(403);
    await open(page, url(aurora, '/cart'));
    expect(await cartQuantities(page), 'the refused forms changed nothing').to.deep.equal([1]);

    // The same shopper checks out in another tab: the cart becomes an order.
    const other = await context.newPage();
    await open(other, url(aurora, '/cart'));
    await checkOut(other);
    await fillInformation(other, shopper(`stale-${unique()}@example.com`));
    await chooseShipping(other, { shipping_option: 'standard', payment_provider: 'sandbox' });
    const orderId = await placeOrder(other);
    const stock = await available(aurora, candle.variant);

    // The first tab still shows the old cart: its form, sent now, is refused.
    await oldForm.locator('[name="quantity"]').first().fill('5');
    const refused = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/change');
    await button(oldForm, 'Update').click();
    expect((await refused).status(), 'a stale token').to.equal(403);
    expect(await postFromPage(page, '/cart/add', { id: candle.variant, quantity: '1', csrf_token: oldToken }), 'a stale token on /cart/add').to.equal(403);
    const order = (await api.get(`/v1/orders/${orderId}`, aurora.as)).body.data;
    expect(order.line_items.map((l: { quantity: number }) => l.quantity)).to.deep.equal([1]);
    expect(await available(aurora, candle.variant)).to.equal(stock);
    await open(other, url(aurora, '/cart'));
    expect(await cartQuantities(other), 'nothing went into a cart').to.deep.equal([]);
  });

  it('keeps each browser context’s cart its own', async () => {
    const [first, second] = [await chromium.page(), await chromium.page()];
    const [throw_, set] = [aurora.products[0]!, aurora.products[1]!];
    await open(first, url(aurora, `/products/${throw_.handle}`));
    await addToCart(first);
    expect(await cartVariants(first)).to.deep.equal([throw_.variant]);

    await open(second, url(aurora, '/cart'));
    expect(await cartVariants(second), 'a new browser sees an empty cart').to.deep.equal([]);
    await open(second, url(aurora, `/products/${set.handle}`));
    await addToCart(second);
    expect(await cartVariants(second)).to.deep.equal([set.variant]);

    await open(first, url(aurora, '/cart'));
    expect(await cartVariants(first)).to.deep.equal([throw_.variant]);
    const [a, b] = [await first.context().cookies(), await second.context().cookies()].map((cs) => cs.find((c) => c.name === 'emporium_cart')?.value);
    expect(a).to.be.a('string');
    expect(b).to.be.a('string').and.not.equal(a);
  });

  it('makes one order of a double-clicked Place order', async () => {
    const page = await chromium.page();
    const set = aurora.products[1]!;
    const email = `double-${unique()}@example.com`;
    const stock = await available(aurora, set.variant);
    await open(page, url(aurora, `/products/${set.handle}`));
    await addToCart(page);
    await checkOut(page);
    await fillInformation(page, shopper(email));
    await chooseShipping(page, { shipping_option: 'standard', payment_provider: 'sandbox' });
    const form = page.locator('form').filter({ has: button(page, 'Place order') });
    const fields = Object.fromEntries(
      await Promise.all((await form.locator('input[name]').all()).map(async (i) => [await i.getAttribute('name'), await i.inputValue()] as [string, string])),
    );
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/checkout/place') posts++;
    });
    await button(page, 'Place order').dblclick();
    await page.waitForURL((u) => /^\/checkout\/orders\/[0-9a-f]{24}\/payment$/.test(u.pathname));
    // Chromium may drop the second of two quick submissions of one form: the same form posted twice
    // more at once from the page (a shopper who went back and pressed it again, twice).
    const replays = await Promise.all(
      [1, 2].map(() => postFromPage(page, '/checkout/place', { ...fields, shipping_option: 'standard', payment_provider: 'sandbox' })),
    );
    for (const status of replays) expect(status, 'a repeated Place order').to.be.within(200, 499);
    expect(posts, 'the double click sent the form').to.be.greaterThanOrEqual(1);
    const orders = await ordersOf(aurora, { email });
    expect(orders, `orders for ${email} after ${posts + 2} Place order posts`).to.have.length(1);
    expect(await available(aurora, set.variant)).to.equal(stock - 1);
    expect(page.url()).to.include(String(orders[0]!._id));
  });

  describe('accessibility (axe-core)', () => {
    for (const fixture of ['aurora', 'ember-liquid'] as const) {
      it(`finds no serious, critical or contrast violations on the ${fixture} pages`, async () => {
        const shop = fixture === 'aurora' ? aurora : await givenShopWithTheme(fixture);
        const page = await chromium.page();
        const product = shop.products[0]!;
        const found: string[] = [];
        const check = async (name: string) => {
          const blocking = blockingViolations(await axeViolations(page));
          if (blocking.length > 0) found.push(`${fixture} ${name} (${new URL(page.url()).pathname}):\n${describeViolations(blocking)}`);
        };
        await open(page, url(shop, '/'), `${fixture} home`);
        await check('home');
        await open(page, url(shop, '/collections/bestsellers'), `${fixture} collection`);
        await check('collection');
        await open(page, url(shop, `/products/${product.handle}`), `${fixture} product`);
        await check('product');
        await addToCart(page);
        await check('cart');
        await checkOut(page);
        await check('checkout');
        await fillInformation(page, shopper(`axe-${unique()}@example.com`));
        await check('checkout shipping');
        expect(found, found.join('\n\n')).to.deep.equal([]);
      });
    }
  });
});
