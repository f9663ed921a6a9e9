import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Locations (docs/admin.md, Locations): add, edit and deactivate a location through
 * the inventory service; errors at their fields with the input kept; another merchant's store or
 * location a 404 with nothing changed; a missing token refused; names escaped.
 */
describe('Admin: Locations', () => {
  const { app, api } = useTestApp('admin_locations');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const locations = (path = '') => `/admin/stores/${shop.store.id}/settings/locations${path}`;
  const location = async (id: string) => (await api.get(`/v1/inventory/locations/${id}`, shop.as)).body.data;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('adds, edits, deactivates and activates a location, and the product page links to it when there is none', async () => {
    const product = (await api.post('/v1/products', { title: 'Mug', variants: [{ price: 1200, inventory_tracked: true }] }, shop.as)).body.data;
    expect((await browser.get(`/admin/stores/${shop.store.id}/products/${product.id}`)).html).to.contain(`href="${locations()}"`);
    const empty = await browser.get(locations());
    expect(empty.status).to.equal(200);
    expect(empty.html).to.contain('No locations yet');

    const bad = await browser.submit(locations(), locations(), { name: ' ', city: 'Bristol', country_code: 'zzz' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-name-error"/)
      .and.match(/id="f-country_code-error"/);
    expect(bad.html).to.contain('value="Bristol"');
    expect((await api.get('/v1/inventory/locations', shop.as)).body.data).to.deep.equal([]);

    const made = await browser.submit(locations(), locations(), {
      name: 'Back <b>room</b>',
      address1: '1 Quay St',
      city: 'Bristol',
      zip: 'BS1',
      country_code: 'gb',
    });
    expect(made.status).to.equal(303);
    const id = /\/locations\/(\w{24})$/.exec(made.location!)![1]!;
    expect(await location(id)).to.include({ name: 'Back <b>room</b>', address1: '1 Quay St', city: 'Bristol', zip: 'BS1', country_code: 'GB', active: true });
    const page = await browser.get(made.location!);
    expect(page.html).to.contain('Back &lt;b&gt;room&lt;/b&gt; is added.').and.contain('<h1>Back &lt;b&gt;room&lt;/b&gt;</h1>');
    expect((await browser.get(locations())).html).to.contain('1 Quay St, Bristol, BS1, GB');
    // The product page now offers it for stock.
    expect((await browser.get(`/admin/stores/${shop.store.id}/products/${product.id}`)).html).to.contain('Stock per location');

    expect(
      (await browser.submit(made.location!, made.location!, { name: 'Back room', address1: '', city: 'Bristol', zip: '', country_code: 'GB' })).status,
    ).to.equal(303);
    expect(await location(id)).to.include({ name: 'Back room', address1: null, zip: null });
    expect((await browser.submit(made.location!, `${made.location!}/deactivate`, {})).status).to.equal(303);
    expect((await location(id)).active).to.equal(false);
    expect((await browser.get(made.location!)).html).to.contain('Activate location');
    expect((await browser.submit(made.location!, `${made.location!}/activate`, {})).status).to.equal(303);
    expect((await location(id)).active).to.equal(true);

    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    expect((await stranger.get(made.location!)).status).to.equal(404);
    expect((await stranger.get(`/admin/stores/${other.store.id}/settings/locations/${id}`)).status).to.equal(404);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get(`/admin/stores/${other.store.id}/settings/locations`));
    expect((await stranger.post(`/admin/stores/${other.store.id}/settings/locations/${id}`, { csrf_token: strangerCsrf, name: 'Theirs' })).status).to.equal(
      404,
    );
    expect((await stranger.post(`/admin/stores/${other.store.id}/settings/locations/${id}/deactivate`, { csrf_token: strangerCsrf })).status).to.equal(404);
    expect((await browser.post(made.location!, { name: 'No token' })).status).to.equal(403);
    expect(await location(id)).to.include({ name: 'Back room', active: true });
  });
});
