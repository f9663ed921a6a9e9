import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Collections (docs/admin.md, Collections): list, create a manual one, edit it, add
 * and remove products through the catalog service; errors at their fields; another merchant's
 * store or collection a 404 with nothing changed; a missing token refused; titles escaped.
 */
describe('Admin: Collections', () => {
  const { app, api } = useTestApp('admin_collections');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const collections = (path = '') => `/admin/stores/${shop.store.id}/collections${path}`;
  const collection = async (id: string) => (await api.get(`/v1/products/collections/${id}`, shop.as)).body.data;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('creates, edits and fills a manual collection, and refuses strangers and missing tokens', async () => {
    const empty = await browser.get(collections());
    expect(empty.status).to.equal(200);
    expect(empty.html).to.contain('No collections yet');
    const bad = await browser.submit(collections(), collections(), { title: '' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.match(/id="f-title-error"/);

    const made = await browser.submit(collections(), collections(), { title: 'Summer <i>sale</i>', description_html: '<p>Hot</p><script>x</script>' });
    expect(made.status).to.equal(303);
    const id = /\/collections\/(\w{24})$/.exec(made.location!)![1]!;
    expect(await collection(id)).to.include({ title: 'Summer <i>sale</i>', description_html: '<p>Hot</p>', type: 'manual' });
    const page = await browser.get(made.location!);
    expect(page.html).to.contain('<h1>Summer &lt;i&gt;sale&lt;/i&gt;</h1>').and.contain('No products in it yet.');

    const p = await givenProduct(api, shop.as, { title: 'Sun hat' });
    expect((await browser.submit(made.location!, `${made.location!}/products`, { add: p.id })).status).to.equal(303);
    expect((await collection(id)).product_ids).to.deep.equal([p.id]);
    expect((await browser.get(made.location!)).html)
      .to.contain('Sun hat')
      .and.contain('Product added.');
    expect((await browser.get(`/admin/stores/${shop.store.id}/products?collection_id=${id}`)).html).to.contain('Sun hat');
    expect((await browser.submit(made.location!, made.location!, { title: 'Summer', description_html: '' })).status).to.equal(303);
    expect((await collection(id)).title).to.equal('Summer');
    expect((await browser.submit(made.location!, `${made.location!}/products`, { remove: p.id })).status).to.equal(303);
    expect((await collection(id)).product_ids).to.deep.equal([]);
    expect((await browser.submit(made.location!, `${made.location!}/products`, { add: 'nonsense' })).status).to.equal(303);
    expect((await collection(id)).product_ids).to.deep.equal([]);

    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    expect((await stranger.get(made.location!)).status).to.equal(404);
    expect((await stranger.get(`/admin/stores/${other.store.id}/collections/${id}`)).status).to.equal(404);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    expect((await stranger.post(`/admin/stores/${other.store.id}/collections/${id}`, { csrf_token: strangerCsrf, title: 'Theirs' })).status).to.equal(404);
    expect((await browser.post(made.location!, { title: 'No token' })).status).to.equal(403);
    expect((await collection(id)).title).to.equal('Summer');
  });
});
