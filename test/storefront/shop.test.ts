import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { useTestApp } from '../helpers/app.js';
import { givenLocation, givenProduct, givenStockedVariant } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { png } from '../helpers/images.js';
import { sha256 } from '../../src/digest.js';
import { csrfIn, placeFields, ShopBrowser } from '../helpers/shop.js';
import { bundleOf, setAsset, syncLiquidFiles } from '../helpers/theme-uploads.js';

/** The shop (docs/shop.md): a store's website on its own host, its forms, cookies, checkout and accounts, over HTTP. */
describe('Shop: a store at <subdomain>.localhost (docs/shop.md)', () => {
  const { app, api } = useTestApp('shop');

  const ADDRESS = {
    email: 'Shopper@Example.com',
    first_name: 'Sam',
    last_name: 'Shopper',
    address1: '1 Main St',
    city: 'Toronto',
    province_code: 'ON',
    country_code: 'CA',
    zip: 'M5V 2T6',
  };

  async function openShop(): Promise<GivenMerchantWithStore> {
    const shop = await givenMerchantWithStore(api);
    const bundle = bundleOf('aurora');
    bundle.package.slug = `aurora-${randomBytes(3).toString('hex')}`;
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    await api.put('/v1/shipping', { rates: [{ code: 'standard', name: 'Standard', price: 900, country_code: 'CA' }] }, shop.as);
    await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `shop_${randomBytes(12).toString('hex')}` } }, shop.as);
    return shop;
  }
  const browser = (shop: GivenMerchantWithStore) => new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`);

  let shop: GivenMerchantWithStore;
  let variant: string;
  before(async () => {
    shop = await openShop();
    const product = await givenProduct(api, shop.as, { title: 'Linen Throw', handle: 'linen-throw', variants: [{ price: 4500, inventory_tracked: false }] });
    variant = product.variants[0].id;
  });

  it('serves the store on its host: theme pages as HTML, /v1 still the API, HTML 404s', async () => {
    const b = browser(shop);
    const home = await b.get('/');
    expect(home.status).to.equal(200);
    expect(home.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(home.html).to.match(/^<!doctype html>/);
    const product = await b.get('/products/linen-throw');
    expect(product.status).to.equal(200);
    expect(product.html).to.include('Linen Throw');
    expect(product.html).to.include('action="/cart/add"');
    expect((await b.get('/collections/all')).html).to.include('Linen Throw');
    expect((await b.get('/search?q=linen')).html).to.include('Linen Throw');
    expect((await b.get('/search?q=zzzz-nothing')).html).not.to.include('Linen Throw');

    const api_ = await b.get(`/v1/storefront/${shop.store.subdomain}`);
    expect(api_.headers['content-type']).to.match(/application\/json/);
    for (const path of ['/products/no-such-thing', '/collections/nope', '/nowhere', '/products/%00', '/pages/constructor']) {
      const missing = await b.get(path);
      expect(missing.status, path).to.equal(404);
      expect(missing.headers['content-type'], path).to.equal('text/html; charset=utf-8');
      expect(missing.html, path).to.include('Page not found');
    }
    const noStore = await new ShopBrowser(app.url, 'no-such-store-here.localhost').get('/');
    expect([noStore.status, noStore.html.includes('no store at this address')]).to.deep.equal([404, true]);
    // Another host is the API as before.
    expect((await fetch(`${app.url}/`)).headers.get('content-type')).to.match(/application\/json/);
  });

  it('shows the store’s content: the main menu in the header, its pages and its blog', async () => {
    const menu = await api.put(
      '/v1/menus/main-menu',
      {
        title: 'Main menu',
        items: [
          { title: 'About us', url: '/pages/about' },
          { title: 'Journal', url: '/blogs/news' },
        ],
      },
      shop.as,
    );
    expect(menu.status, JSON.stringify(menu.body)).to.equal(200);
    const made = await api.post(
      '/v1/pages',
      { title: 'About us', handle: 'about', body_html: '<p>We make <b>slow things</b>.</p><script>alert(1)</script>' },
      shop.as,
    );
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    await api.post('/v1/pages', { title: 'Secret', handle: 'secret', body_html: '<p>Not yet</p>', published: false }, shop.as);
    await api.post('/v1/articles', { title: 'Made to last', body_html: '<p>On linen.</p>', author: 'Ada' }, shop.as);

    const b = browser(shop);
    const home = await b.get('/');
    expect(home.html).to.include('href="/pages/about"');
    expect(home.html).to.include('About us');
    const about = await b.get('/pages/about');
    expect(about.status).to.equal(200);
    expect(about.html).to.include('<b>slow things</b>');
    expect(about.html).not.to.include('alert(1)');
    expect((await b.get('/pages/secret')).status).to.equal(404);
    const blog = await b.get('/blogs/news');
    expect(blog.status).to.equal(200);
    expect(blog.html).to.include('Made to last');
    expect(blog.html).to.include('On linen.');
    expect((await b.get('/blogs/other')).status).to.equal(404);
    // Another store's content is not this store's.
    const other = await openShop();
    expect((await new ShopBrowser(app.url, `${other.store.subdomain}.localhost`).get('/pages/about')).status).to.equal(404);
  });

  it('shows each cart line with its product’s picture, at its public URL', async () => {
    const form = new FormData();
    form.append('file', new Blob([png(8, 8)], { type: 'application/octet-stream' }), 'vase.png');
    const uploaded = await fetch(`${app.url}/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.merchant.token}`, 'x-store-id': shop.store.id },
      body: form,
    });
    expect(uploaded.status).to.equal(201);
    const media = ((await uploaded.json()) as any).data;
    const vase = await givenProduct(api, shop.as, {
      title: 'Bud Vase',
      handle: 'bud-vase',
      media_ids: [media.id],
      variants: [{ price: 2400, inventory_tracked: false }],
    });
    const b = browser(shop);
    await b.post('/cart/add', { id: vase.variants[0].id, quantity: '1' });
    const cart = await b.get('/cart');
    const url = `/v1/storefront/${shop.store.subdomain}/media/${media.id}/`;
    expect(cart.html).to.include(url);
    const src = new RegExp(`src="(${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^"]+)"`).exec(cart.html)![1]!;
    const image = await b.get(src);
    expect([image.status, image.headers['content-type']]).to.deep.equal([200, 'image/png']);
  });

  it('answers pages without a cart or session as public with an ETag and 304, and pages with one as private', async () => {
    const b = browser(shop);
    const first = await b.get('/');
    expect(first.headers['cache-control']).to.equal('public, max-age=30');
    expect(first.headers.vary).to.equal('Cookie');
    const etag = first.headers.etag as string;
    expect(etag).to.match(/^W\//);
    const again = await b.get('/', { 'if-none-match': etag });
    expect([again.status, again.html]).to.deep.equal([304, '']);
    await b.post('/cart/add', { id: variant, quantity: '1' });
    const mine = await b.get('/');
    expect(mine.headers['cache-control']).to.equal('private, no-store');
    expect(mine.headers.etag).to.equal(undefined);
  });

  it('never lets a cache keep a page whose section failed to render: the shop’s and the storefront API’s are no-store', async () => {
    const bundle = bundleOf('ember-liquid');
    bundle.sections.broken = { type: 'broken', name: 'broken', renderer_key: 'broken', enabled_on: ['home'] };
    bundle.templates.home.sections.broken = { type: 'broken' };
    bundle.templates.home.order = [...bundle.templates.home.order, 'broken'];
    setAsset(bundle, 'sections/broken.liquid', '{% if %}');
    syncLiquidFiles(bundle);
    const broken = await givenMerchantWithStore(api);
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: broken.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: broken.store.id }, { token: broken.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);

    const home = await browser(broken).get('/');
    expect(home.status).to.equal(200);
    expect(home.html).to.match(/<!-- section "broken" failed to render/);
    expect([home.headers['cache-control'], home.headers.etag]).to.deep.equal(['no-store', undefined]);
    const rendered = await fetch(`${app.url}/v1/storefront/${broken.store.subdomain}/pages/home`);
    expect((await rendered.text()).includes('failed to render')).to.equal(true);
    expect(rendered.headers.get('cache-control')).to.equal('no-store');
    // The store's other pages render whole, and stay public.
    expect((await browser(broken).get('/collections/all')).headers['cache-control']).to.equal('public, max-age=30');
  });

  it('keeps the cart in an HttpOnly, SameSite=Lax cookie, changed by forms that need this browser’s CSRF token', async () => {
    const b = browser(shop);
    const added = await b.post('/cart/add', { id: variant, quantity: '2' });
    expect([added.status, added.location]).to.deep.equal([303, '/cart']);
    const setCookie = ([] as string[]).concat(added.headers['set-cookie'] ?? []).find((c) => c.startsWith('emporium_cart='))!;
    expect(setCookie).to.match(/httponly/i);
    expect(setCookie).to.match(/samesite=lax/i);
    expect(setCookie).not.to.match(/secure/i); // development and tests: plain http
    const cart = await b.get('/cart');
    expect(cart.html).to.include('Linen Throw');
    const token = csrfIn(cart.html)!;
    expect(token).to.be.a('string');

    // Without the token, or with another's, nothing changes.
    expect((await b.post('/cart/add', { id: variant, quantity: '1' })).status).to.equal(403);
    expect((await b.post('/cart/change', { id: variant, quantity: '5', csrf_token: 'x'.repeat(43) })).status).to.equal(403);
    // From another site, even with the token.
    expect((await b.post('/cart/change', { id: variant, quantity: '5', csrf_token: token }, { 'sec-fetch-site': 'cross-site' })).status).to.equal(403);
    expect((await b.post('/cart/change', { id: variant, quantity: '5', csrf_token: token }, { origin: 'http://evil.example' })).status).to.equal(403);
    expect(
      (await api.get(`/v1/storefront/${shop.store.subdomain}/cart`, { headers: { 'x-cart-token': b.cookies.get('emporium_cart')! } })).body.data.item_count,
    ).to.equal(2);

    expect((await b.post('/cart/add', { id: variant, quantity: '1', csrf_token: token }, { 'sec-fetch-site': 'same-origin' })).status).to.equal(303);
    expect((await b.post('/cart/change', { id: variant, quantity: '5', csrf_token: token })).status).to.equal(303);
    expect(
      (await api.get(`/v1/storefront/${shop.store.subdomain}/cart`, { headers: { 'x-cart-token': b.cookies.get('emporium_cart')! } })).body.data.item_count,
    ).to.equal(5);

    // Bad input is a 400 page and changes nothing.
    for (const form of [
      { id: 'nope', quantity: '1' },
      { id: variant, quantity: '-1' },
      { id: variant, quantity: '1000' },
      { id: variant, quantity: 'many' },
    ]) {
      const bad = await b.post('/cart/change', { ...form, csrf_token: token });
      expect(bad.status, JSON.stringify(form)).to.equal(400);
      expect(bad.headers['content-type']).to.equal('text/html; charset=utf-8');
    }
    const json = await b.send('POST', '/cart/add', { headers: { 'content-type': 'application/json' } });
    expect([json.status, json.headers['content-type']]).to.deep.equal([415, 'text/html; charset=utf-8']);
    expect((await b.post('/cart/change', { id: variant, quantity: '0', csrf_token: token })).status).to.equal(303);
    expect((await b.get('/cart')).html).not.to.include('Linen Throw');

    // A second browser has a cart of its own.
    const other = browser(shop);
    expect((await other.get('/cart')).html).not.to.include('Linen Throw');
  });

  it('checks out through pages: information, shipping, place order (once on a double submit), sandbox payment, confirmation', async () => {
    const b = browser(shop);
    await b.post('/cart/add', { id: variant, quantity: '2' });
    const start = await b.get('/checkout');
    expect(start.status).to.equal(200);
    const token = csrfIn(start.html)!;
    const bad = await b.post('/checkout/information', { ...ADDRESS, email: 'not-an-email', csrf_token: token });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.include('must be an email address');
    const info = await b.post('/checkout/information', { ...ADDRESS, csrf_token: token });
    expect([info.status, info.location]).to.deep.equal([303, '/checkout/shipping']);
    const shipping = await b.get('/checkout/shipping');
    expect(shipping.html).to.include('Standard');
    expect(shipping.html).to.include('Sandbox');
    expect(shipping.html).to.include('Place order');

    const place: Record<string, string> = { ...placeFields(shipping.html), shipping_option: 'standard', payment_provider: 'sandbox' };
    expect(place.csrf_token).to.equal(token);
    // The form without its checkout key (a page from before it had one): a 400 page, nothing placed.
    const { checkout_key: _key, ...keyless } = place;
    const refused = await b.post('/checkout/place', keyless);
    expect(refused.status).to.equal(400);
    expect(refused.html).to.include('checkout_key');
    // A double click: the same form twice at once, with the same cookies. One order, and both
    // answers hold its one payment secret (a replay never replaces it).
    const twin = browser(shop);
    for (const [k, v] of b.cookies) twin.cookies.set(k, v);
    const [one, two] = await Promise.all([b.post('/checkout/place', place), twin.post('/checkout/place', place)]);
    expect(one.status).to.equal(303);
    expect(two.status).to.equal(303);
    expect(one.location!.split('?')[0]).to.equal(two.location!.split('?')[0]);
    const orders = (await api.get('/v1/orders', shop.as)).body.data.filter((o: any) => o.email === 'shopper@example.com');
    expect(orders).to.have.length(1);
    expect(b.cookies.has('emporium_cart')).to.equal(false);
    expect(b.cookies.get('emporium_checkout')).to.match(/^[0-9a-f]{24}\.emp_ps_/);
    expect(twin.cookies.get('emporium_checkout')).to.equal(b.cookies.get('emporium_checkout'));

    const payment = await b.get(one.location!);
    expect(payment.status, payment.html).to.equal(200);
    expect(payment.html).to.include('Pay now');
    const provider = /name="provider_order_id" value="([^"]+)"/.exec(payment.html)![1]!;
    const paid = await b.post(one.location!.split('?')[0]!.replace(/\/payment$/, '/pay'), {
      provider: 'sandbox',
      provider_order_id: provider,
      csrf_token: csrfIn(payment.html) ?? '',
    });
    expect(paid.status, paid.html).to.equal(303);
    const confirmation = await b.get(paid.location!);
    expect(confirmation.html).to.include('Thank you');
    expect(confirmation.html).to.include(`Order #${orders[0].number}`);
    expect(confirmation.html).to.include('Paid');
    expect((await api.get(`/v1/orders/${orders[0].id}`, shop.as)).body.data).to.include({ financial_status: 'paid', total: 9900 + 0 });

    // Another browser cannot see the order.
    expect((await browser(shop).get(paid.location!)).status).to.equal(404);
    // The cart's old form token is stale now.
    expect((await b.post('/cart/change', { id: variant, quantity: '1', csrf_token: token })).status).to.equal(403);
  });

  it('never answers a placed order to another browser holding the same cart, nor replaces the order’s payment secret', async () => {
    const shopper = browser(shop);
    await shopper.post('/cart/add', { id: variant, quantity: '1' });
    const cartToken = shopper.cookies.get('emporium_cart')!;
    // Another browser holds the same cart cookie (planted: docs/shop.md, Cookies).
    const planter = browser(shop);
    planter.cookies.set('emporium_cart', cartToken);
    const token = csrfIn((await shopper.get('/checkout')).html)!;
    await shopper.post('/checkout/information', { ...ADDRESS, csrf_token: token });
    const form = placeFields((await shopper.get('/checkout/shipping')).html);
    const placed = await shopper.post('/checkout/place', { ...form, shipping_option: 'standard', payment_provider: 'manual' });
    expect(placed.status, placed.html).to.equal(303);
    const confirmation = placed.location!;
    expect((await shopper.get(confirmation)).status).to.equal(200);

    // The other browser places the same cart again through the shop: no order, no checkout cookie.
    const again = await planter.post('/checkout/place', { csrf_token: token, shipping_option: 'standard', payment_provider: 'manual' });
    expect(again.location ?? '').to.not.include('/checkout/orders/');
    expect(planter.cookies.has('emporium_checkout')).to.equal(false);
    // Nor through the API, with the key the shop once derived from the cart token alone.
    const key = sha256(`shop-checkout|${shop.store.id}|${sha256(cartToken)}`);
    const { email, ...address } = ADDRESS;
    const replay = await api.post(
      `/v1/storefront/${shop.store.subdomain}/orders`,
      { email: email.toLowerCase(), shipping_address: address, shipping_option: 'standard' },
      { headers: { 'x-cart-token': cartToken, 'idempotency-key': key } },
    );
    expect([replay.status, replay.body.error?.code]).to.deep.equal([409, 'cart_already_checked_out']);
    expect(JSON.stringify(replay.body)).to.not.include('emp_ps_');
    // The shopper's confirmation still opens: their payment secret was never replaced.
    expect((await shopper.get(confirmation)).status).to.equal(200);
  });

  it('never oversells from pages: the last unit goes to one checkout, the other is told', async () => {
    const location = await givenLocation(api, shop.as);
    const { variant: last } = await givenStockedVariant(api, shop.as, location, 1, 2000);
    const [a, b] = [browser(shop), browser(shop)];
    for (const x of [a, b]) {
      await x.post('/cart/add', { id: last, quantity: '1' });
      const token = csrfIn((await x.get('/checkout')).html)!;
      await x.post('/checkout/information', { ...ADDRESS, csrf_token: token });
    }
    const results = await Promise.all(
      [a, b].map(async (x) =>
        x.post('/checkout/place', { ...placeFields((await x.get('/checkout/shipping')).html), shipping_option: 'standard', payment_provider: 'sandbox' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([303, 409]);
    expect(results.find((r) => r.status === 409)!.html).to.include('<!doctype html>');
  });

  it('has customer accounts as pages: sign up, the customer’s orders, log out; a session of another store is not one here', async () => {
    const b = browser(shop);
    const login = await b.get('/account');
    expect([login.status, login.location]).to.deep.equal([303, '/account/login']);
    const form = await b.get('/account/register');
    const email = `buyer-${randomBytes(3).toString('hex')}@example.com`;
    const made = await b.post('/account/register', {
      first_name: 'Bea',
      last_name: 'Buyer',
      email,
      password: 'correct horse battery',
      csrf_token: csrfIn(form.html) ?? '',
    });
    expect([made.status, made.location], made.html).to.deep.equal([303, '/account']);
    expect(b.cookies.get('emporium_customer')).to.match(/^emp_cs_/);
    const account = await b.get('/account');
    expect(account.html).to.include(email);
    expect(account.html).to.include('You have not placed any orders yet');

    await b.post('/cart/add', { id: variant, quantity: '1', csrf_token: csrfIn(account.html)! });
    const token = csrfIn((await b.get('/checkout')).html)!;
    await b.post('/checkout/information', { ...ADDRESS, email, csrf_token: token });
    const placed = await b.post('/checkout/place', {
      ...placeFields((await b.get('/checkout/shipping')).html),
      shipping_option: 'standard',
      payment_provider: 'manual',
    });
    expect(placed.status, placed.html).to.equal(303);
    const mine = await b.get('/account');
    expect(mine.html).to.match(/#\d+/);

    const wrong = browser(shop);
    const wrongLogin = await wrong.post('/account/login', { email, password: 'not the password' });
    expect(wrongLogin.status).to.equal(401);
    expect(wrongLogin.html).to.include('do not match');

    // This store's session on another store's host is no session there.
    const elsewhere = await openShop();
    const visitor = new ShopBrowser(app.url, `${elsewhere.store.subdomain}.localhost`);
    visitor.cookies.set('emporium_customer', b.cookies.get('emporium_customer')!);
    expect((await visitor.get('/account')).location).to.equal('/account/login');

    const out = await b.post('/account/logout', { csrf_token: csrfIn(mine.html)! });
    expect([out.status, out.location]).to.deep.equal([303, '/']);
    expect(b.cookies.has('emporium_customer')).to.equal(false);
    expect((await b.get('/account')).location).to.equal('/account/login');
  });
});
