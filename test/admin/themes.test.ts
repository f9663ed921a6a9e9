import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { s3Env } from '../helpers/s3.js';
import { bundleOf, setAsset } from '../helpers/theme-uploads.js';
import { approvedTheme, useThemeMarketplace } from '../helpers/theme-marketplace.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'admin-themes-operator@example.com';

/**
 * The admin's Online store (docs/admin.md, Themes) against a real themes worker and the run's
 * real S3 server: a new store's closed shop, the theme store, Install of a free theme, Buy of a
 * paid one with the sandbox provider then Install, Publish, Preview, the releases of a theme and
 * Roll back, and the upload of a theme bundle file (private: installable at once; for the theme
 * store: reviewed by the worker). Refusals: another merchant's store, installed theme, release
 * and upload (404, nothing changed), a missing or foreign token, a bearer token, a bad bundle
 * (every problem at its path, nothing stored), a paid theme not bought.
 */
describe('Admin: Themes', () => {
  const { app, api, author, operator } = useThemeMarketplace('admin_themes', OPERATOR, s3Env);
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  let free: string;
  let paid: string;
  const themes = (path = '') => `/admin/stores/${shop.store.id}/themes${path}`;
  const installed = async (s = shop) => (await api.get('/v1/themes/installed', s.as)).body.data as { id: string; slug: string; role: string }[];
  const liveThemeId = async (s = shop) => (await api.get('/v1/stores/current', s.as)).body.data.live_theme_id as string | null;

  /** An aurora bundle named `name`, free or at `price` dollars, published in the theme store. */
  const published = (name: string, price: number | null) => {
    const bundle = bundleOf('aurora');
    Object.assign(bundle.package, { name }, price === null ? {} : { pricing_type: 'paid', price, currency: 'USD' });
    return approvedTheme(api, author, operator, bundle);
  };
  const post = async (from: string, action: string, fields: Record<string, string> = {}) => browser.submit(from, action, fields);

  before(async () => {
    free = await published('Harbor <Free>', null);
    paid = await published('Lantern', 49.99);
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('says on Home and in the library that a shop with no theme is closed, with the one action that opens it', async () => {
    const home = await browser.get(`/admin/stores/${shop.store.id}`);
    expect(home.status).to.equal(200);
    expect(home.html)
      .to.contain('Your shop is closed')
      .and.contain(`href="${themes('/store?pricing_type=free')}"`);
    const library = await browser.get(themes());
    expect(library.status).to.equal(200);
    expect(library.html)
      .to.contain('aria-current="page">Online store')
      .and.contain('503 Service Unavailable')
      .and.contain(`href="${themes('/store?pricing_type=free')}"`);
  });

  it('lists the theme store with prices, filters free themes, and shows a theme with what it offers', async () => {
    const store = await browser.get(themes('/store?limit=250'));
    expect(store.status).to.equal(200);
    expect(store.html)
      .to.contain('Harbor &lt;Free&gt;')
      .and.contain('Lantern')
      .and.contain('$49.99')
      .and.contain(`href="${themes(`/store/${free}`)}"`);
    const onlyFree = await browser.get(themes('/store?pricing_type=free&limit=250'));
    expect(onlyFree.html).to.contain('Harbor &lt;Free&gt;').and.not.contain('Lantern');
    const page = await browser.get(themes(`/store/${free}`));
    expect(page.status).to.equal(200);
    expect(page.html).to.contain('reviewed and approved').and.contain('Install Harbor &lt;Free&gt;').and.contain('Sections').and.contain('home');
    expect((await browser.get(themes('/store/no-such-theme'))).status).to.equal(404);
    expect((await browser.get(themes('/store?pricing_type=dear'))).status).to.equal(400);
  });

  it('installs a free theme, live as the store’s first; a second copy installs unpublished; Publish asks first, then makes it live', async () => {
    const first = await post(themes(`/store/${free}`), themes(`/store/${free}/install`));
    expect(first.status).to.equal(303);
    expect(first.location).to.equal(themes());
    const [live] = await installed();
    expect(live).to.include({ slug: free, role: 'live' });
    expect(await liveThemeId()).to.equal(live!.id);
    const library = await browser.get(themes());
    expect(library.html)
      .to.contain('is installed and live')
      .and.contain('Harbor &lt;Free&gt;')
      .and.contain(`href="${themes(`/${live!.id}/editor`)}"`)
      .and.match(new RegExp(`action="${themes(`/${live!.id}/preview`)}" target="_blank" rel="noopener"`))
      .and.not.contain('Your shop is closed');
    expect((await browser.get(`/admin/stores/${shop.store.id}`)).html).to.not.contain('Your shop is closed');

    expect((await post(themes(`/store/${free}`), themes(`/store/${free}/install`))).status).to.equal(303);
    const second = (await installed()).find((t) => t.id !== live!.id)!;
    expect(second.role).to.equal('unpublished');
    const confirm = await browser.get(themes(`/${second.id}/publish`));
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('Your shop changes at once');
    expect(await liveThemeId()).to.equal(live!.id);
    const done = await browser.post(themes(`/${second.id}/publish`), { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect(done.status).to.equal(303);
    expect(await liveThemeId()).to.equal(second.id);
  });

  it('installs one copy when the same Install form is sent twice, even at once (its form key); a new form installs another', async () => {
    const before = (await installed()).length;
    const page = await browser.get(themes(`/store/${free}`));
    const key = /name="form_key" value="([^"]+)"/.exec(page.html)?.[1];
    expect(key, 'the Install form carries a key').to.be.a('string');
    const fields = { csrf_token: AdminBrowser.csrfOf(page), form_key: key! };
    const [a, b] = await Promise.all([browser.post(themes(`/store/${free}/install`), fields), browser.post(themes(`/store/${free}/install`), fields)]);
    const again = await browser.post(themes(`/store/${free}/install`), fields);
    for (const sent of [a, b, again]) expect(sent.status, sent.html.slice(0, 300)).to.equal(303);
    expect((await installed()).length).to.equal(before + 1);
    // The same key sent by another merchant is another form (and another merchant may not install into this store at all).
    expect((await post(themes(`/store/${free}`), themes(`/store/${free}/install`))).status).to.equal(303);
    expect((await installed()).length).to.equal(before + 2);
  });

  it('opens a preview: a preview session of the theme, and the store’s page rendered with it', async () => {
    const [theme] = await installed();
    const preview = await post(themes(), themes(`/${theme!.id}/preview`));
    expect(preview.status).to.equal(303);
    expect(preview.location).to.match(new RegExp(`^/v1/storefront/${shop.store.subdomain}/pages/home\\?preview_token=emp_pv_`));
    const rendered = await api.get(preview.location!);
    expect(rendered.status).to.equal(200);
    expect(rendered.headers.get('content-type')).to.contain('text/html');
  });

  it('refuses to install a paid theme not bought, with a clear message; Buy with the sandbox, then Install', async () => {
    const before = (await installed()).length;
    const refused = await post(themes(`/store/${paid}`), themes(`/store/${paid}/install`));
    expect(refused.status).to.equal(402);
    expect(refused.html).to.contain('Lantern is a paid theme: buy it for this store first');
    expect(await installed()).to.have.length(before);

    const page = await browser.get(themes(`/store/${paid}`));
    expect(page.html).to.contain('Buy $49.99');
    const checkout = await browser.post(themes(`/store/${paid}/buy`), { csrf_token: AdminBrowser.csrfOf(page) });
    expect(checkout.status).to.equal(200);
    expect(checkout.html).to.contain('Sandbox checkout').and.contain('Pay $49.99');
    const purchaseId = /name="purchase_id" value="([0-9a-f]{24})"/.exec(checkout.html)![1]!;
    // A purchase id that is not this store's purchase of this theme pays nothing.
    const csrf = AdminBrowser.csrfOf(checkout);
    expect((await browser.post(themes(`/store/${paid}/pay`), { csrf_token: csrf, purchase_id: '0123456789abcdef01234567' })).status).to.equal(404);
    expect((await browser.post(themes(`/store/${paid}/pay`), { csrf_token: csrf, purchase_id: 'nope' })).status).to.equal(400);
    expect((await browser.get(themes(`/store/${paid}`))).html).to.not.contain('purchased for this store');
    const paidNow = await browser.post(themes(`/store/${paid}/pay`), { csrf_token: csrf, purchase_id: purchaseId });
    expect(paidNow.status).to.equal(303);
    expect(paidNow.location).to.equal(themes(`/store/${paid}`));
    const bought = await browser.get(themes(`/store/${paid}`));
    expect(bought.html).to.contain('purchased for this store').and.contain('Install Lantern');
    expect((await post(themes(`/store/${paid}`), themes(`/store/${paid}/install`))).status).to.equal(303);
    expect((await installed()).map((t) => t.slug)).to.include(paid);
  });

  it('lists a theme’s releases (when, who, from which drafts) and rolls back to an earlier one after a confirm step', async () => {
    const theme = (await installed()).find((t) => t.role === 'live')!;
    const as = { ...shop.as };
    const editor = (await api.get(`/v1/themes/${theme.slug}/editor?theme_id=${theme.id}`, as)).body.data;
    const home = editor.templates.home;
    const saved = await api.put(
      `/v1/themes/${theme.slug}/editor/draft?theme_id=${theme.id}`,
      { template_key: 'home', version: home.version, content: home.live },
      as,
    );
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect((await api.post(`/v1/themes/${theme.slug}/editor/publish?theme_id=${theme.id}`, {}, as)).status).to.equal(201);

    const releases = await browser.get(themes(`/${theme.id}/releases`));
    expect(releases.status).to.equal(200);
    expect(releases.html).to.contain('drafts of home').and.contain('installed at version').and.contain('current');
    expect(releases.html).to.contain(`href="${themes(`/${theme.id}/releases/0/rollback`)}"`);
    const confirm = await browser.get(themes(`/${theme.id}/releases/0/rollback`));
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('your shop changes at once');
    expect((await browser.get(themes(`/${theme.id}/releases/7/rollback`))).status).to.equal(404);
    const done = await browser.post(themes(`/${theme.id}/releases/0/rollback`), { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect(done.status).to.equal(303);
    const list = (await api.get(`/v1/themes/${theme.slug}/releases?theme_id=${theme.id}`, as)).body.data;
    expect(list.at(-1)).to.include({ number: 2, kind: 'rollback', rolled_back_to: 0 });
    expect((await browser.get(themes(`/${theme.id}/releases`))).html).to.contain('rolled back to the theme as installed');
  });

  it('uploads a theme bundle file: every problem at its path and nothing stored; a private theme installable at once; a theme-store one reviewed', async () => {
    const slugCount = (slug: string) => app.platform.db.collection('theme_packages').countDocuments({ slug });
    const file = (bundle: unknown) => ({ bytes: Buffer.from(JSON.stringify(bundle)), filename: 'theme.json', type: 'application/json' });
    const csrf = AdminBrowser.csrfOf(await browser.get(themes('/upload')));

    const broken = bundleOf('aurora');
    broken.package.price = -1;
    delete broken.templates.home;
    const bad = await browser.upload(themes('/upload'), { csrf_token: csrf, submission_mode: 'private_install' }, file(broken));
    expect(bad.status).to.equal(400);
    expect(bad.html).to.contain('The bundle was not uploaded').and.contain('<code>package.price</code>');
    expect(await slugCount(broken.package.slug)).to.equal(0);
    const notJson = await browser.upload(themes('/upload'), { csrf_token: csrf }, { bytes: Buffer.from('{ nope'), filename: 'theme.json' });
    expect(notJson.status).to.equal(400);
    expect(notJson.html).to.match(/id="f-file-error"[^>]*>is not JSON/);
    expect((await browser.upload(themes('/upload'), { csrf_token: csrf }, null)).status).to.equal(400);
    // Another author's slug: said at the file, nothing changed.
    const taken = await browser.upload(themes('/upload'), { csrf_token: csrf, submission_mode: 'marketplace' }, file(bundleOf('aurora', free)));
    expect(taken.status).to.equal(403);
    expect(taken.html).to.match(/id="f-file-error"[^>]*>The slug .* belongs to another author/);

    const mine = bundleOf('aurora');
    mine.package.name = 'My <own> theme';
    const up = await browser.upload(themes('/upload'), { csrf_token: csrf, submission_mode: 'private_install' }, file(mine));
    expect(up.status, up.html.slice(0, 2000)).to.equal(303);
    expect(up.location).to.equal(themes(`/uploads/${mine.package.slug}`));
    const page = await browser.get(up.location!);
    expect(page.html)
      .to.contain('My &lt;own&gt; theme')
      .and.contain('private: no review')
      .and.contain(`href="${themes(`/store/${mine.package.slug}`)}"`);
    expect((await post(themes(`/store/${mine.package.slug}`), themes(`/store/${mine.package.slug}/install`))).status).to.equal(303);
    expect((await installed()).map((t) => t.slug)).to.include(mine.package.slug);
    expect((await browser.get(themes())).html).to.contain('My &lt;own&gt; theme');

    const forSale = bundleOf('ember-liquid');
    setAsset(forSale, 'sections/hero.liquid', '<h1>{{ section.settings.title }}</h1>\n{% if %}broken{% endif %}');
    const queued = await browser.upload(themes('/upload'), { csrf_token: csrf, submission_mode: 'marketplace' }, file(forSale));
    expect(queued.status).to.equal(303);
    const checked = await until('the review checked', async () => {
      const at = await browser.get(queued.location!);
      return at.html.includes('checks failed') ? at : null;
    });
    expect(checked.html)
      .to.contain('liquid_syntax: failed')
      .and.match(/sections\/hero\.liquid:2:\d+: /);
    expect(checked.html).to.not.contain(`href="${themes(`/store/${forSale.package.slug}`)}"`);
  });

  it('refuses another merchant’s store, theme, release and upload, a missing or foreign token and a bearer token, changing nothing', async () => {
    const theme = (await installed()).find((t) => t.role === 'live')!;
    const other = (await installed()).find((t) => t.role !== 'live')!;
    const stranger = await givenMerchantWithStore(api);
    const theirs = await signedInAdmin(app, stranger.merchant);
    const strangerCsrf = AdminBrowser.csrfOf(await theirs.get('/admin/stores/new'));
    const inTheirs = (path: string) => `/admin/stores/${stranger.store.id}/themes${path}`;
    for (const path of [
      themes(),
      themes('/store'),
      themes(`/${theme.id}/releases`),
      inTheirs(`/${theme.id}/releases`),
      inTheirs(`/${other.id}/publish`),
      inTheirs(`/${theme.id}/releases/0/rollback`),
      inTheirs(`/uploads/${free}`),
    ]) {
      const page = await theirs.get(path);
      expect(page.status, path).to.equal(404);
      expect(page.html).to.not.contain('Harbor');
    }
    for (const path of [
      inTheirs(`/${other.id}/publish`),
      inTheirs(`/${theme.id}/preview`),
      inTheirs(`/${theme.id}/releases/0/rollback`),
      themes(`/${other.id}/publish`),
    ]) {
      expect((await theirs.post(path, { csrf_token: strangerCsrf })).status, path).to.equal(404);
    }
    expect((await theirs.get(inTheirs('/not-an-id/releases'))).status).to.equal(404);
    expect(await liveThemeId()).to.equal(theme.id);

    const csrf = AdminBrowser.csrfOf(await browser.get(themes(`/${other.id}/publish`)));
    for (const [fields, headers] of [
      [{}, {}],
      [{ csrf_token: strangerCsrf }, {}],
      [{ csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(themes(`/${other.id}/publish`), fields, headers)).status, JSON.stringify(fields)).to.equal(403);
      expect((await browser.post(themes(`/store/${free}/install`), fields, headers)).status).to.equal(403);
    }
    expect((await browser.upload(themes('/upload'), {}, { bytes: Buffer.from('{}'), filename: 'theme.json' })).status).to.equal(403);
    expect((await browser.get(themes(), { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect(await liveThemeId()).to.equal(theme.id);
  });
});
