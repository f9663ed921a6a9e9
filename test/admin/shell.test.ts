import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchant, givenStore, unique, type GivenMerchant } from '../helpers/factories.js';

/**
 * The merchant admin's shell (docs/admin.md): /admin for a merchant signed in in a browser (the
 * session cookie only), Create store for one without a store, a store's pages only for its owner
 * (another's, or a malformed id: the admin's 404 page), every form refusing a missing, foreign or
 * cross-site token, and text from the database escaped.
 */
describe('Admin: the shell', () => {
  const { app, api } = useTestApp('admin_shell');
  const stores = () => app.platform.db.collection('stores');

  it('sends a browser without a session to sign in, and refuses an Authorization header instead of the cookie', async () => {
    const none = await new AdminBrowser(app.url, '127.0.0.1').get('/admin/stores/abc/orders?x=1');
    expect(none.status).to.equal(303);
    expect(none.location).to.equal('/login?return_to=%2Fadmin%2Fstores%2Fabc%2Forders%3Fx%3D1');
    const merchant = await givenMerchant(api);
    const store = await givenStore(api, merchant);
    const bearer = await new AdminBrowser(app.url, '127.0.0.1').get(`/admin/stores/${store.id}`, { authorization: `Bearer ${merchant.token}` });
    expect(bearer.status).to.equal(403);
    expect(bearer.html).to.contain('they take no API tokens');
    expect(bearer.headers['content-type']).to.contain('text/html');
  });

  it('asks a merchant without a store to create one: errors at their fields with the input kept, then 303 to its Home with a flash', async () => {
    const merchant = await givenMerchant(api);
    const browser = await signedInAdmin(app, merchant);
    const start = await browser.get('/admin');
    expect(start.status).to.equal(200);
    expect(start.html).to.contain('Create your store').and.contain(merchant.email).and.contain('action="/logout"');

    const bad = await browser.submit('/admin', '/admin/stores/new', { name: 'Ada <b>Shop</b>', subdomain: 'No Spaces', currency: 'usd' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.contain('value="Ada &lt;b&gt;Shop&lt;/b&gt;"').and.contain('value="No Spaces"').and.contain('must be a lowercase DNS label');
    expect(bad.html).to.match(/id="f-subdomain"[^>]*aria-invalid="true"/);

    const subdomain = `ada-${unique()}`;
    const made = await browser.submit('/admin', '/admin/stores/new', { name: 'Ada <b>Shop</b>', subdomain, currency: 'eur' });
    expect(made.status).to.equal(303);
    const store = await stores().findOne({ subdomain });
    expect(store?.currency).to.equal('EUR');
    expect(made.location).to.equal(`/admin/stores/${store!._id.toHexString()}`);
    const home = await browser.get(made.location!);
    expect(home.status).to.equal(200);
    expect(home.html).to.contain('is ready').and.contain('Ada &lt;b&gt;Shop&lt;/b&gt;').and.not.contain('<b>Shop</b>');
    expect(home.html).to.contain(`http://${subdomain}.localhost:`).and.contain('aria-current="page"');

    // Taken subdomain: said at its field.
    const taken = await browser.submit('/admin/stores/new', '/admin/stores/new', { name: 'Again', subdomain, currency: 'USD' });
    expect(taken.status).to.equal(409);
    expect(taken.html).to.match(/id="f-subdomain-error"[^>]*>That subdomain is already in use/);
    // With a store, /admin is its Home.
    const again = await browser.get('/admin');
    expect(again.status).to.equal(303);
    expect(again.location).to.equal(`/admin/stores/${store!._id.toHexString()}`);
  });

  it('lists the merchant’s stores in the switcher and answers another merchant’s store, or a malformed id, with the 404 page', async () => {
    const owner = await givenMerchant(api);
    const a = await givenStore(api, owner, { name: 'First <script>x</script>' });
    const b = await givenStore(api, owner, { name: 'Second' });
    const other: GivenMerchant = await givenMerchant(api);
    const theirs = await givenStore(api, other, { name: 'Theirs' });
    const browser = await signedInAdmin(app, owner);
    const home = await browser.get(`/admin/stores/${b.id}`);
    expect(home.html).to.contain(`href="/admin/stores/${a.id}"`).and.contain('First &lt;script&gt;x&lt;/script&gt;').and.not.contain('<script>x');
    expect(home.html).to.contain('href="/admin/stores/new"');
    for (const id of [theirs.id, new ObjectId().toHexString(), 'not-an-id']) {
      const refused = await browser.get(`/admin/stores/${id}`);
      expect(refused.status, id).to.equal(404);
      expect(refused.html).to.contain('Store not found').and.not.contain('Theirs');
    }
    const nowhere = await browser.get('/admin/nothing-here');
    expect(nowhere.status).to.equal(404);
    expect(nowhere.html).to.contain('There is no page at this address');
  });

  it('refuses a form with a missing, foreign or cross-site token, and creates nothing', async () => {
    const merchant = await givenMerchant(api);
    const browser = await signedInAdmin(app, merchant);
    const csrf = AdminBrowser.csrfOf(await browser.get('/admin'));
    const otherBrowser = await signedInAdmin(app, await givenMerchant(api));
    const foreign = AdminBrowser.csrfOf(await otherBrowser.get('/admin'));
    expect(foreign).to.not.equal(csrf);
    const subdomain = `csrf-${unique()}`;
    const fields = { name: 'X', subdomain, currency: 'USD' };
    for (const [sent, headers] of [
      [{ ...fields }, {}],
      [{ ...fields, csrf_token: foreign }, {}],
      [{ ...fields, csrf_token: csrf }, { origin: 'https://evil.example' }],
      [{ ...fields, csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      const refused = await browser.post('/admin/stores/new', sent, headers);
      expect(refused.status, JSON.stringify(headers)).to.equal(403);
      expect(refused.html).to.contain('expired or was sent from another site');
    }
    expect(await stores().countDocuments({ subdomain })).to.equal(0);
  });
});
