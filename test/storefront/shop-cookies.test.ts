import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { useTestApp } from '../helpers/app.js';
import { behindTlsProxy, expectHostCookie } from '../helpers/cookies.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { csrfIn, placeFields, ShopBrowser, type ShopResponse } from '../helpers/shop.js';

/**
 * The shop's cookies outside development (docs/shop.md, Cookies): on a real base domain a page of
 * one store can set cookies for the parent domain, so every cookie is a `__Host-` cookie (Secure,
 * Path=/, no Domain), which only the store's own host can set, and a cookie of the plain name is
 * no one's.
 */
describe('Shop cookies outside development (APP_ENV=staging, behind a TLS proxy)', () => {
  const { app, api } = useTestApp('shop_cookies', behindTlsProxy());
  const ADDRESS = {
    email: 'shopper@example.com',
    last_name: 'Shopper',
    address1: '1 Main St',
    city: 'Toronto',
    province_code: 'ON',
    zip: 'M5V 2T6',
    country_code: 'CA',
  };
  let shop: GivenMerchantWithStore;
  let variant: string;
  before(async () => {
    shop = await givenMerchantWithStore(api);
    variant = (await givenProduct(api, shop.as, { title: 'Linen Throw', handle: 'linen-throw', variants: [{ price: 4500, inventory_tracked: false }] }))
      .variants[0].id;
  });
  const browser = () => new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`, { 'x-forwarded-proto': 'https' });
  /** The Set-Cookie line of this cookie name in an answer. */
  const setCookie = (res: ShopResponse, name: string) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${name}=`));

  it('sets the cart, customer and checkout cookies as __Host- cookies: Secure, Path=/, no Domain', async () => {
    const b = browser();
    const register = await b.get('/account/register');
    const made = await b.post('/account/register', {
      last_name: 'Buyer',
      email: `buyer-${randomBytes(3).toString('hex')}@example.com`,
      password: 'correct horse battery',
      csrf_token: csrfIn(register.html) ?? '',
    });
    expect(made.status, made.html).to.equal(303);
    expectHostCookie(setCookie(made, '__Host-emporium_customer'), 'emporium_customer');
    const added = await b.post('/cart/add', { id: variant, quantity: '1', csrf_token: csrfIn((await b.get('/account')).html)! });
    expect(added.status, added.html).to.equal(303);
    expectHostCookie(setCookie(added, '__Host-emporium_cart'), 'emporium_cart');
    expect(setCookie(added, 'emporium_cart')).to.equal(undefined);
    const token = csrfIn((await b.get('/checkout')).html)!;
    expect((await b.post('/checkout/information', { ...ADDRESS, csrf_token: token })).status).to.equal(303);
    const placed = await b.post('/checkout/place', { ...placeFields((await b.get('/checkout/shipping')).html), payment_provider: 'manual' });
    expect(placed.status, placed.html).to.equal(303);
    expectHostCookie(setCookie(placed, '__Host-emporium_checkout'), 'emporium_checkout');
    expect((await b.get(placed.location!)).status).to.equal(200);
    expect([...b.cookies.keys()].filter((name) => !name.startsWith('__Host-'))).to.deep.equal([]);
  });

  it('ignores a cart or customer cookie of the plain name: another store’s page could have set it for the parent domain', async () => {
    const planted = await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines: [{ variant_id: variant, quantity: 1 }] });
    expect(planted.status).to.equal(201);
    const plain = browser();
    plain.cookies.set('emporium_cart', planted.body.data.token);
    expect((await plain.get('/checkout')).location, 'the planted cart is not this browser’s').to.equal('/cart');
    const own = browser();
    own.cookies.set('__Host-emporium_cart', planted.body.data.token);
    expect((await own.get('/checkout')).status).to.equal(200);

    const email = `planted-${randomBytes(3).toString('hex')}@example.com`;
    await api.post('/v1/storefront/customer/signup', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' });
    const login = await api.post('/v1/storefront/customer/login', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const fixated = browser();
    fixated.cookies.set('emporium_customer', login.body.data.token);
    expect((await fixated.get('/account')).location, 'a planted session signs no one in').to.equal('/account/login');
    const signedIn = browser();
    signedIn.cookies.set('__Host-emporium_customer', login.body.data.token);
    expect((await signedIn.get('/account')).status).to.equal(200);
  });
});
