import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Collections (docs/admin.md, Collections): list, create a manual one, edit it, add
 * and remove products through the catalog service, delete one after a confirm step; errors at
 * their fields; another merchant's store or collection a 404 with nothing changed; a missing token
 * refused; titles escaped.
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
  it('says so when the product to add is not the store’s, and shows a rule collection’s rules', async () => {
    const c = (await api.post('/v1/products/collections', { type: 'manual', title: 'Picks' }, shop.as)).body.data;
    const at = collections(`/${c.id}`);
    const other = await givenMerchantWithStore(api);
    const foreign = await givenProduct(api, other.as, { title: 'Not yours' });
    const added = await browser.submit(at, `${at}/products`, { add: foreign.id });
    expect([added.status, added.location]).to.deep.equal([303, at]);
    expect((await browser.get(at)).html).to.contain(`${foreign.id} is not a product of this store`);
    expect((await collection(c.id)).product_ids).to.deep.equal([]);

    const rule = (
      await api.post(
        '/v1/products/collections',
        { type: 'rule', title: 'Summer things', rules: { match: 'any', conditions: [{ field: 'tag', relation: 'equals', value: 'summer' }] } },
        shop.as,
      )
    ).body.data;
    const page = await browser.get(collections(`/${rule.id}`));
    expect(page.html).to.contain('Rule collection').and.contain('Products that match any of its rules: tag equals summer.').and.not.contain('Add a product');
  });

  it('deletes a collection after a confirm step, keeping its products; refuses strangers and a missing token', async () => {
    const p = await givenProduct(api, shop.as, { title: 'Kept hat' });
    const c = (await api.post('/v1/products/collections', { type: 'manual', title: 'Going <b>away</b>', product_ids: [p.id] }, shop.as)).body.data;
    const at = collections(`/${c.id}`);
    expect((await browser.get(at)).html).to.contain(`href="${at}/delete"`);

    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    for (const path of [at, `/admin/stores/${other.store.id}/collections/${c.id}`]) {
      expect((await stranger.get(`${path}/delete`)).status).to.equal(404);
      expect((await stranger.post(`${path}/delete`, { csrf_token: strangerCsrf })).status).to.equal(404);
    }
    expect((await browser.post(`${at}/delete`, {})).status).to.equal(403);
    expect((await browser.post(`${at}/delete`, { csrf_token: strangerCsrf })).status).to.equal(403);
    const confirm = await browser.get(`${at}/delete`);
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('Delete “Going &lt;b&gt;away&lt;/b&gt;”?').and.contain(`action="${at}/delete"`);
    expect((await browser.post(`${at}/delete`, { csrf_token: AdminBrowser.csrfOf(confirm) }, { 'sec-fetch-site': 'cross-site' })).status).to.equal(403);
    expect((await api.get(`/v1/products/collections/${c.id}`, shop.as)).status, 'nothing deleted yet').to.equal(200);

    const deleted = await browser.post(`${at}/delete`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect([deleted.status, deleted.location]).to.deep.equal([303, collections()]);
    const list = await browser.get(collections());
    expect(list.html).to.contain('Collection “Going &lt;b&gt;away&lt;/b&gt;” deleted.');
    expect((await api.get(`/v1/products/collections/${c.id}`, shop.as)).status).to.equal(404);
    expect((await api.get(`/v1/products/${p.id}`, shop.as)).status).to.equal(200);
    expect((await browser.get(at)).status).to.equal(404);
  });
});
