import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { s3Env } from '../helpers/s3.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { approvedTheme, useThemeMarketplace } from '../helpers/theme-marketplace.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'admin-catalog-preview-operator@example.com';
const ASSET_URL = /\/v1\/storefront\/[a-z0-9-]+\/assets\/[0-9a-f]{24}\/[^"'\s)<>]+/g;

/**
 * The preview of a theme store theme before it is installed (docs/admin.md, Themes): the theme's
 * published version rendered with the store's own products by the shop's renderer, its assets
 * served, framed by the admin only and sandboxed, nothing installed or drafted. Refusals: another
 * author's private theme, another merchant's store, a version not published, a bearer token.
 */
describe('Admin: a theme store theme’s preview', () => {
  const { app, api, author, operator } = useThemeMarketplace('admin_catalog_preview', OPERATOR, s3Env);
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  let live: string;
  let paid: string;
  const themes = (path = '', s = shop) => `/admin/stores/${s.store.id}/themes${path}`;
  const db = () => app.platform.db;
  const publishedVersionOf = async (slug: string) =>
    ((await db().collection('theme_packages').findOne({ slug }))!.published_version_id as { toHexString(): string }).toHexString();
  const written = async (s = shop) => {
    const store = await db().collection('stores').findOne({ subdomain: s.store.subdomain });
    return {
      installs: await db().collection('store_themes').countDocuments({ store_id: store!._id }),
      drafts: await db().collection('theme_drafts').countDocuments({}),
      sessions: await db().collection('theme_preview_sessions').countDocuments({}),
      purchases: await db().collection('theme_purchases').countDocuments({ store_id: store!._id }),
      live: store!.live_theme_id?.toHexString() ?? null,
    };
  };
  const upload = async (bundle: Record<string, any>, mode: 'marketplace' | 'private_install') => {
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: mode }, { token: author.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    return up.body.data;
  };

  before(async () => {
    const harbor = bundleOf('aurora');
    harbor.package.name = 'Harbor';
    live = await approvedTheme(api, author, operator, harbor);
    // Ember is a paid Liquid theme (49 USD): previewable without buying it.
    paid = await approvedTheme(api, author, operator, bundleOf('ember-liquid'));
    shop = await givenMerchantWithStore(api);
    await givenProduct(api, shop.as, { title: 'Lamp <one>' });
    expect((await api.post(`/v1/themes/${live}/install`, { store_id: shop.store.id }, { token: shop.merchant.token })).status).to.equal(201);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('renders the theme with the store’s own products (not the live theme), its assets load, framed by the admin only and sandboxed', async () => {
    const version = await publishedVersionOf(paid);
    const liveVersion = await publishedVersionOf(live);
    for (const template of ['collection', 'product', 'home']) {
      const frame = await browser.get(themes(`/store/${paid}/preview?template=${template}`));
      expect(frame.status, template).to.equal(200);
      expect(frame.headers['content-security-policy']).to.contain('sandbox allow-scripts').and.contain("frame-ancestors 'self'");
      expect(frame.headers['x-frame-options']).to.equal('SAMEORIGIN');
      expect(frame.html).to.contain(`class="template-${template}"`);
      if (template !== 'home') expect(frame.html).to.contain('Lamp &lt;one&gt;');
      const assets = [...new Set(frame.html.match(ASSET_URL) ?? [])];
      expect(assets, template).to.not.be.empty;
      for (const url of assets) {
        expect(url).to.contain(`/assets/${version}/`).and.not.contain(liveVersion);
        expect((await api.get(url)).status, url).to.equal(200);
      }
    }
    // A JSON-contract theme too (the live one's bundle, previewed from the theme store): its own assets.
    const harbor = await browser.get(themes(`/store/${live}/preview`));
    expect(harbor.status).to.equal(200);
    const harborAssets = [...new Set(harbor.html.match(ASSET_URL) ?? [])];
    expect(harborAssets).to.not.be.empty;
    for (const url of harborAssets) expect((await api.get(url)).status, url).to.equal(200);
  });

  it('shows the preview on the theme’s page with a template picker and a new tab link, linked from the theme store; installs and writes nothing', async () => {
    const before = await written();
    const page = await browser.get(themes(`/store/${paid}?template=product`));
    expect(page.status).to.equal(200);
    expect(page.html)
      .to.contain(`src="${themes(`/store/${paid}/preview?template=product`)}"`)
      .and.contain('sandbox="allow-scripts"')
      .and.contain(`href="${themes(`/store/${paid}/preview?template=product`)}" target="_blank" rel="noopener"`)
      .and.contain(`href="${themes(`/store/${paid}?template=collection`)}#preview"`)
      .and.contain('<strong aria-current="page">Product</strong>')
      .and.not.contain('keeps no screenshots');
    expect(page.headers['content-security-policy']).to.match(/frame-src 'self'/);
    const store = await browser.get(themes('/store?limit=250'));
    expect(store.html).to.contain(`href="${themes(`/store/${paid}`)}#preview"`);
    // A paid theme not bought: previewable, not installable.
    expect(page.html).to.contain('Buy $49.00');
    expect((await browser.submit(themes(`/store/${paid}`), themes(`/store/${paid}/install`), {})).status).to.equal(402);
    expect(await written()).to.deep.equal(before);
  });

  it('never renders or serves a version that is not published: a theme awaiting review, a rejected new version', async () => {
    const pending = await upload(bundleOf('aurora'), 'marketplace');
    const pendingSlug = pending.package.slug as string;
    const pendingVersion = pending.theme.id as string;
    expect((await browser.get(themes(`/store/${pendingSlug}/preview`))).status).to.equal(404);
    expect((await api.get(`/v1/storefront/${shop.store.subdomain}/assets/${pendingVersion}/assets/base.css`)).status).to.equal(404);

    const next = bundleOf('ember-liquid', paid);
    Object.assign(next.package, { version: '2.1.0', version_number: 4 });
    const review = (await upload(next, 'marketplace')).review_record.id as string;
    await until(`review ${review} checked`, async () => {
      const r = await api.get(`/v1/operations/theme-reviews/${review}`, { token: operator.token });
      return r.body.data?.status === 'awaiting_review' ? r.body.data : null;
    });
    const rejected = await api.post(`/v1/operations/theme-reviews/${review}/reject`, { reasons: ['Not yet'] }, { token: operator.token });
    expect(rejected.status).to.equal(200);
    const rejectedVersion = (await db().collection('theme_versions').findOne({ slug: paid, version_number: 4 }))!._id.toHexString();
    expect((await api.get(`/v1/storefront/${shop.store.subdomain}/assets/${rejectedVersion}/assets/ember.css`)).status).to.equal(404);
    const still = await browser.get(themes(`/store/${paid}/preview`));
    expect(still.status).to.equal(200);
    expect(still.html)
      .to.contain(`/assets/${await publishedVersionOf(paid)}/`)
      .and.not.contain(rejectedVersion);
  });

  it('shows a private theme to its author only, and serves its assets only to the author’s store', async () => {
    const mine = bundleOf('ember-liquid');
    mine.package.name = 'Secret <draft>';
    const uploaded = await upload(mine, 'private_install');
    const slug = uploaded.package.slug as string;
    const version = uploaded.theme.id as string;
    const authors = await signedInAdmin(app, author.merchant);
    const own = await authors.get(themes(`/store/${slug}/preview`, author));
    expect(own.status).to.equal(200);
    for (const url of new Set(own.html.match(ASSET_URL) ?? [])) expect((await api.get(url)).status, url).to.equal(200);
    const theirs = await browser.get(themes(`/store/${slug}/preview`));
    expect(theirs.status).to.equal(404);
    expect(theirs.html).to.not.contain('Secret');
    expect((await browser.get(themes(`/store/${slug}`))).status).to.equal(404);
    expect((await api.get(`/v1/storefront/${shop.store.subdomain}/assets/${version}/assets/ember.css`)).status).to.equal(404);
  });

  it('refuses another merchant’s store and a bearer token, writing nothing', async () => {
    const before = await written();
    const stranger = await givenMerchantWithStore(api);
    const theirs = await signedInAdmin(app, stranger.merchant);
    for (const path of [themes(`/store/${paid}/preview`), themes(`/store/${paid}`)]) {
      const page = await theirs.get(path);
      expect(page.status, path).to.equal(404);
      expect(page.html).to.not.contain('Lamp');
    }
    expect((await browser.get(themes(`/store/${paid}/preview`), { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect((await browser.get(themes('/store/no-such-theme/preview'))).status).to.equal(404);
    expect(await written()).to.deep.equal(before);
  });
});
