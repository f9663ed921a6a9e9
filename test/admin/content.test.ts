import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { ShopBrowser } from '../helpers/shop.js';
import { bundleOf } from '../helpers/theme-uploads.js';

/**
 * The admin's Content (docs/admin.md, Content): pages and blog articles (list, add, edit, delete
 * after a confirm step) and the shop's main menu (add, edit, move, remove links), each through
 * the content service of /v1/pages, /v1/articles and /v1/menus. Refusals: another merchant's
 * store or page (404, nothing changed), a missing, foreign or cross-site token, an Authorization
 * header, errors and the service's refusals at their fields, markup escaped, a body's script
 * removed by the sanitiser.
 */
describe('Admin: Content', () => {
  const { app, api } = useTestApp('admin_content');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const content = (path = '') => `/admin/stores/${shop.store.id}/content${path}`;
  const page = async (id: string) => api.get(`/v1/pages/${id}`, shop.as);
  const article = async (id: string) => (await api.get(`/v1/articles/${id}`, shop.as)).body.data;
  const menu = async () => (await api.get('/v1/menus/main-menu', shop.as)).body.data?.items;
  const idIn = (location: string | null) => /\/([0-9a-f]{24})$/.exec(location ?? '')![1]!;
  /** The links form's fields as the menu page shows them, with `changes` over them. */
  const linkFields = (html: string, changes: Record<string, string> = {}) => {
    const fields: Record<string, string> = {};
    const form = html.slice(html.indexOf(`action="${content('/menu')}"`));
    for (const m of form.slice(0, form.indexOf('</form>')).matchAll(/name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[m[1]!] = m[2]!.replace(/&amp;/g, '&');
    return { ...fields, ...changes };
  };

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('says what to do when there are no pages, articles or menu links yet', async () => {
    const pages = await browser.get(content());
    expect(pages.status).to.equal(200);
    expect(pages.html)
      .to.contain('No pages yet')
      .and.contain(`href="${content('/pages/new')}"`)
      .and.contain('aria-current="page">Content');
    expect((await browser.get(content('/articles'))).html).to.contain('No articles yet');
    expect((await browser.get(content('/menu'))).html).to.contain('The main menu has no links yet');
  });

  it('adds a page with its body sanitised and its title escaped, a taken handle at its field, edits, hides and deletes it after a confirm step', async () => {
    const bad = await browser.submit(content('/pages/new'), content('/pages/new'), {
      title: ' ',
      handle: 'Not A Handle',
      body_html: '<p>Kept</p>',
      published: 'on',
    });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-title"[^>]*aria-invalid="true"/)
      .and.match(/id="f-handle-error"[^>]*>must be lowercase letters and digits/)
      .and.contain('&lt;p&gt;Kept&lt;/p&gt;');

    const made = await browser.submit(content('/pages/new'), content('/pages/new'), {
      title: 'About <b>us</b>',
      body_html: '<p onclick="steal()">We make <strong>lamps</strong>.</p><script>alert(1)</script>',
      published: 'on',
    });
    expect(made.status).to.equal(303);
    const id = idIn(made.location);
    expect((await page(id)).body.data).to.include({
      title: 'About <b>us</b>',
      handle: 'about-b-us-b',
      published: true,
      body_html: '<p>We make <strong>lamps</strong>.</p>',
    });
    const shown = await browser.get(made.location!);
    expect(shown.html)
      .to.contain('About &lt;b&gt;us&lt;/b&gt;')
      .and.contain(`http://${shop.store.subdomain}.localhost:${new URL(app.url).port}/pages/about-b-us-b">View in shop`)
      .and.not.contain('About <b>us</b>')
      .and.not.contain('alert(1)');

    const other = await browser.submit(content('/pages/new'), content('/pages/new'), { title: 'Contact', handle: 'contact', published: 'on' });
    expect(other.status).to.equal(303);
    const taken = await browser.submit(made.location!, made.location!, { title: 'About', handle: 'contact', body_html: '', published: 'on' });
    expect(taken.status).to.equal(409);
    expect(taken.html).to.match(/id="f-handle-error"[^>]*>The handle &quot;contact&quot; is already used by another page/);
    expect((await page(id)).body.data.handle).to.equal('about-b-us-b');

    // Published left unticked hides it; a blank handle keeps it.
    const saved = await browser.submit(made.location!, made.location!, { title: 'About us', handle: '', body_html: '<p>Lamps.</p>' });
    expect([saved.status, saved.location]).to.deep.equal([303, made.location]);
    expect((await page(id)).body.data).to.include({ title: 'About us', handle: 'about-b-us-b', published: false, body_html: '<p>Lamps.</p>' });
    const hidden = await browser.get(content('?published=false'));
    expect(hidden.html).to.contain('About us').and.contain('>hidden<').and.not.contain('>Contact<');
    expect((await browser.get(content('?published=true'))).html)
      .to.contain('Contact')
      .and.not.contain('About us');
    expect((await browser.get(made.location!)).html).to.not.contain('View in shop');

    const confirm = await browser.get(`${made.location}/delete`);
    expect(confirm.html).to.contain('Delete the page “About us”?');
    const deleted = await browser.post(`${made.location}/delete`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect([deleted.status, deleted.location]).to.deep.equal([303, content()]);
    expect((await page(id)).status).to.equal(404);
    expect((await browser.get(content())).html).to.contain('The page “About us” is deleted.');
    expect((await browser.get(made.location!)).status).to.equal(404);
  });

  it('adds, edits and deletes a blog article with its author and date', async () => {
    const bad = await browser.submit(content('/articles/new'), content('/articles/new'), { title: 'Spring', published_at: '2026-13-45', published: 'on' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.match(/id="f-published_at-error"[^>]*>must be a date as YYYY-MM-DD/);

    const made = await browser.submit(content('/articles/new'), content('/articles/new'), {
      title: 'Spring lamps',
      author: 'Ada',
      published_at: '2026-03-01',
      body_html: '<p>New shades.</p>',
      published: 'on',
    });
    expect(made.status).to.equal(303);
    const id = idIn(made.location);
    expect(await article(id)).to.include({
      title: 'Spring lamps',
      handle: 'spring-lamps',
      author: 'Ada',
      published: true,
      published_at: '2026-03-01T00:00:00.000Z',
    });
    const list = await browser.get(content('/articles'));
    expect(list.html).to.contain('Spring lamps').and.contain('Ada').and.contain('2026-03-01').and.contain('/blogs/news">View in shop');

    // The same day keeps the time it had; a blank author is none.
    await api.patch(`/v1/articles/${id}`, { published_at: '2026-03-01T09:30:00Z' }, shop.as);
    const same = await browser.submit(made.location!, made.location!, {
      title: 'Spring lamps',
      handle: 'spring-lamps',
      author: '',
      published_at: '2026-03-01',
      published: 'on',
    });
    expect(same.status).to.equal(303);
    expect(await article(id)).to.include({ author: null, published_at: '2026-03-01T09:30:00.000Z' });
    await browser.submit(made.location!, made.location!, { title: 'Spring lamps', handle: 'spring', published_at: '2026-04-02', published: 'on' });
    expect(await article(id)).to.include({ handle: 'spring', published_at: '2026-04-02T00:00:00.000Z' });

    const confirm = await browser.get(`${made.location}/delete`);
    const deleted = await browser.post(`${made.location}/delete`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect([deleted.status, deleted.location]).to.deep.equal([303, content('/articles')]);
    expect((await api.get(`/v1/articles/${id}`, shop.as)).status).to.equal(404);
  });

  it('builds the main menu from collections, products, pages and addresses, moves and removes links, and the shop’s header shows it', async () => {
    await api.post('/v1/pages', { title: 'Our story', handle: 'story' }, shop.as);
    await api.post('/v1/pages', { title: 'Draft', handle: 'draft', published: false }, shop.as);
    await givenProduct(api, shop.as, { title: 'Brass Lamp', handle: 'brass-lamp', status: 'active', variants: [{ price: 9000 }] });
    await givenProduct(api, shop.as, { title: 'Sketch', handle: 'sketch', status: 'draft', variants: [{ price: 100 }] });
    const at = content('/menu');

    const offered = await browser.get(at);
    expect(offered.html)
      .to.contain('value="/pages/story"')
      .and.contain('Product: Brass Lamp')
      .and.not.contain('/pages/draft')
      .and.not.contain('/products/sketch');
    const add = (fields: Record<string, string>) => browser.submit(at, `${at}/add`, { target: '', url: '', title: '', ...fields });
    expect((await add({ target: '/pages/story' })).status).to.equal(303);
    expect((await add({ target: '/products/brass-lamp', title: 'Lamps' })).status).to.equal(303);
    expect((await add({ url: 'https://instagram.com/lumen', title: 'Instagram' })).status).to.equal(303);
    expect(await menu()).to.deep.equal([
      { title: 'Our story', url: '/pages/story' },
      { title: 'Lamps', url: '/products/brass-lamp' },
      { title: 'Instagram', url: 'https://instagram.com/lumen' },
    ]);

    const script = await add({ url: 'javascript:alert(1)', title: 'Bad' });
    expect(script.status).to.equal(400);
    expect(script.html).to.match(/id="f-url-error"[^>]*>must be a path on the store/);
    expect(script.html).to.contain('value="javascript:alert(1)"');
    for (const [url, message] of [
      ['/products/sketch', 'No active product has the handle “sketch”'],
      ['/pages/draft', 'No published page has the handle “draft”'],
      ['/collections/nothing', 'No collection has the handle “nothing”'],
    ]) {
      const missing = await add({ url: url!, title: 'Missing' });
      expect(missing.status, url).to.equal(400);
      expect(missing.html).to.contain(`id="f-url-error" class="field__error">${message}`);
    }
    expect(await add({})).to.include({ status: 400 });
    expect(await menu()).to.have.length(3);

    // Each row is edited in place; a bad address is shown at its row's field, nothing saved.
    const shown = await browser.get(at);
    const wrong = await browser.post(at, linkFields(shown.html, { csrf_token: AdminBrowser.csrfOf(shown), title_0: 'Story', url_2: '//evil.example' }));
    expect(wrong.status).to.equal(400);
    expect(wrong.html).to.match(/id="f-url_2-error"[^>]*>must be a path on the store/);
    expect(wrong.html).to.contain('value="Story"');
    expect((await menu())[0].title).to.equal('Our story');
    const saved = await browser.post(at, linkFields(shown.html, { csrf_token: AdminBrowser.csrfOf(shown), title_0: 'Story <i>', title_2: '', url_2: '' }));
    expect([saved.status, saved.location]).to.deep.equal([303, at]);
    expect(await menu()).to.deep.equal([
      { title: 'Story <i>', url: '/pages/story' },
      { title: 'Lamps', url: '/products/brass-lamp' },
    ]);

    const move = async (op: string) => {
      const now = await browser.get(at);
      const version = /<form id="menu-move"[^>]*>.*?name="version" value="([^"]+)"/s.exec(now.html)![1]!;
      return browser.post(`${at}/move`, { csrf_token: AdminBrowser.csrfOf(now), version, op });
    };
    expect((await move('down:0')).status).to.equal(303);
    expect((await menu()).map((l: { title: string }) => l.title)).to.deep.equal(['Lamps', 'Story <i>']);
    const listed = await browser.get(at);
    expect(listed.html).to.contain('The link “Story &lt;i&gt;” is moved down.').and.contain('value="Story &lt;i&gt;"');

    // The shop's header prints the menu, in its order (on the live theme).
    const bundle = bundleOf('aurora');
    expect((await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token })).status).to.equal(201);
    expect((await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token })).status).to.equal(201);
    const home = await new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`).get('/');
    expect(home.status).to.equal(200);
    expect(home.html.indexOf('href="/products/brass-lamp"')).to.be.greaterThan(-1).and.lessThan(home.html.indexOf('href="/pages/story"'));
    expect(home.html).to.contain('Story &lt;i&gt;');

    // A change made from a page of an older menu is refused: positions may have moved.
    const old = await browser.get(at);
    expect((await move('remove:1')).status).to.equal(303);
    const late = await browser.post(`${at}/move`, {
      csrf_token: AdminBrowser.csrfOf(old),
      version: /name="version" value="([^"]+)"/.exec(old.html)![1]!,
      op: 'remove:0',
    });
    expect(late.status).to.equal(409);
    expect(late.html).to.contain('The menu changed since this page was opened').and.contain('value="/products/brass-lamp"');
    expect(await menu()).to.deep.equal([{ title: 'Lamps', url: '/products/brass-lamp' }]);
  });

  it('refuses another merchant, another store’s page, a missing or cross-site token and a bearer token, changing nothing', async () => {
    const kept = (await api.post('/v1/pages', { title: 'Kept', handle: 'kept' }, shop.as)).body.data;
    const at = content(`/pages/${kept.id}`);
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    const theirs = await stranger.get(at);
    expect(theirs.status).to.equal(404);
    expect(theirs.html).to.not.contain('Kept');
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    expect((await stranger.post(at, { csrf_token: strangerCsrf, title: 'Taken' })).status).to.equal(404);
    expect((await stranger.post(`${at}/delete`, { csrf_token: strangerCsrf })).status).to.equal(404);
    expect((await stranger.post(content('/menu/add'), { csrf_token: strangerCsrf, url: '/', title: 'Taken' })).status).to.equal(404);
    // The page in the stranger's own store's path: not theirs either.
    const inTheirs = `/admin/stores/${other.store.id}/content/pages/${kept.id}`;
    expect((await stranger.get(inTheirs)).status).to.equal(404);
    expect((await stranger.post(inTheirs, { csrf_token: strangerCsrf, title: 'Taken' })).status).to.equal(404);
    expect((await stranger.post(`${inTheirs}/delete`, { csrf_token: strangerCsrf })).status).to.equal(404);
    expect((await browser.get(content('/pages/not-an-id'))).status).to.equal(404);
    expect((await browser.get(content('/articles/0123456789abcdef01234567'))).status).to.equal(404);

    const csrf = AdminBrowser.csrfOf(await browser.get(at));
    for (const [fields, headers] of [
      [{ title: 'Taken' }, {}],
      [{ title: 'Taken', csrf_token: strangerCsrf }, {}],
      [{ title: 'Taken', csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(at, fields, headers)).status, JSON.stringify(fields)).to.equal(403);
      expect((await browser.post(`${at}/delete`, fields, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    const links = await menu();
    const menuCsrf = AdminBrowser.csrfOf(await browser.get(content('/menu')));
    for (const [fields, headers] of [
      [{ url: '/', title: 'Home' }, {}],
      [{ url: '/', title: 'Home', csrf_token: strangerCsrf }, {}],
      [{ url: '/', title: 'Home', csrf_token: menuCsrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(content('/menu/add'), fields, headers)).status, JSON.stringify(fields)).to.equal(403);
      expect((await browser.post(content('/menu/move'), { ...fields, op: 'remove:0' }, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    expect((await browser.get(at, { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect((await page(kept.id)).body.data.title).to.equal('Kept');
    expect(await menu()).to.deep.equal(links);
  });
});
