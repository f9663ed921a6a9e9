import { Ajv } from 'ajv';
import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import { givenAppBlockApp, installBlocks, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { appBlock, bundleOf, bundleWithAppBlocks } from '../helpers/theme-uploads.js';

const SF = '/v1/storefront';
const XSS = '<script>alert(1)</script>';
const OPERATOR = 'op-app-blocks@example.com';

/**
 * App blocks (docs/themes.md, App blocks; docs/rendering.md, App blocks): uploaded in a bundle or
 * saved in an editor draft, validated in sections that accept them, rendered escaped with a
 * sandboxed iframe; and the editor's preview sessions over HTTP.
 */
describe('Storefront app blocks and previews', () => {
  const { app, api } = useTestApp('storefront-app-blocks', { OPERATOR_EMAILS: OPERATOR });
  /** The app whose `@app/reviews-app/star-rating` the fixtures place (docs/extensions.md, Storefront app blocks). */
  let reviewsApp: GivenApp;
  let operatorToken: string;
  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
    reviewsApp = await givenAppBlockApp(api, operatorToken, 'reviews-app', ['star-rating']);
  });

  const upload = (shop: GivenMerchantWithStore, bundle: Record<string, any>) =>
    api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });

  /** `bundle` uploaded privately and installed in the shop (its first theme is live), with the reviews app installed too. */
  async function givenInstalled(shop: GivenMerchantWithStore, bundle: Record<string, any>, publish?: boolean) {
    await installBlocks(api, reviewsApp, shop);
    const up = await upload(shop, bundle);
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(
      `/v1/themes/${bundle.package.slug}/install`,
      { store_id: shop.store.id, ...(publish === undefined ? {} : { publish }) },
      { token: shop.merchant.token },
    );
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    return installed.body.data;
  }

  async function page(shop: GivenMerchantWithStore, path: string) {
    const res = await fetch(`${app.url}${SF}/${shop.store.subdomain}/pages/${path}`);
    return { status: res.status, html: await res.text(), headers: res.headers };
  }

  /** The upload's issues: it must be refused as invalid. */
  async function uploadIssues(bundle: Record<string, any>): Promise<string[]> {
    const shop = await givenMerchantWithStore(api);
    const res = await upload(shop, bundle);
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).to.deep.equal([400, 'invalid_bundle']);
    return res.body.error.details as string[];
  }

  function expectAppBlockRendered(html: string) {
    expect(html).to.include('<h3 class="app-block__heading">Reviews &lt;script&gt;alert(1)&lt;/script&gt;</h3>');
    expect(html).to.not.include(XSS);
    expect(html).to.include('<p class="app-block__body">Rated &quot;5&quot; by &lt;b&gt;you&lt;/b&gt;</p>');
    expect(html).to.include(
      `<iframe class="app-block__frame" src="https://apps.example.com/widget?x=1&amp;y=2" sandbox="allow-scripts allow-forms" referrerpolicy="no-referrer"`,
    );
    expect(html).to.not.match(/sandbox="[^"]*allow-same-origin/);
    expect(html).to.include('<a class="app-block__cta button" href="/pages/reviews" rel="noopener noreferrer">Read all</a>');
    // The bare `@app` names no app's block: nothing of it but a comment.
    expect(html).to.not.include('Plain app note');
    expect(html).to.include('<!-- app block unavailable: @app -->');
    expect(html).to.include('data-block-type="@app/reviews-app/star-rating"');
  }

  describe('POST /v1/themes/packages/upload with app blocks', () => {
    it('uploads, installs and renders an app block of a json-contract theme (aurora), escaped, with a sandboxed https iframe', async () => {
      const shop = await givenMerchantWithStore(api);
      await givenInstalled(shop, bundleWithAppBlocks('aurora'));
      const res = await page(shop, 'home');
      expect(res.status).to.equal(200);
      const hero = res.html.slice(res.html.indexOf('id="section-hero"'), res.html.indexOf('id="section-featured"'));
      expectAppBlockRendered(hero);
      // Among the hero's blocks, in block order (after its button), once.
      expect(hero.split('data-block-type="@app/reviews-app/star-rating"')).to.have.length(2);
      expect(hero.indexOf('app-block__heading')).to.be.greaterThan(hero.indexOf('data-block-id="button"'));
      expect(hero.indexOf('app-block__heading')).to.be.lessThan(hero.indexOf('</div></div></section>'));
    });

    it('uploads, installs and renders an app block of a Liquid theme (ember-liquid) after its section', async () => {
      const shop = await givenMerchantWithStore(api);
      await givenInstalled(shop, bundleWithAppBlocks('ember-liquid'));
      const res = await page(shop, 'home');
      expect(res.status).to.equal(200);
      const hero = res.html.slice(res.html.indexOf('id="shopify-section-hero"'), res.html.indexOf('id="shopify-section-featured"'));
      expect(hero).to.include('Hand-thrown, wood-fired');
      expectAppBlockRendered(hero);
    });

    it('renders an app block only while its extension is enabled in an installed app of this store: disabled, uninstalled or another store’s install render a comment, at once', async () => {
      const widgets = await givenAppBlockApp(api, operatorToken, 'widgets-app', ['banner'], {
        kind: 'inline',
        heading: 'From the app',
        body: 'App default body',
      });
      const bundle = bundleOf('aurora');
      bundle.sections.hero.accepts_app_blocks = true;
      bundle.templates.home.sections.hero.blocks.banner = { type: '@app/widgets-app/banner', settings: { body: 'Theme body <i>wins</i>' } };
      bundle.templates.home.sections.hero.block_order.push('banner');
      const shop = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      await givenInstalled(shop, bundle);
      const unavailable = '<!-- app block unavailable: @app/widgets-app/banner -->';
      // Not installed in this store (installed in another): a comment only.
      await installBlocks(api, widgets, other);
      expect((await page(shop, 'home')).html).to.include(unavailable);

      const installationId = await installBlocks(api, widgets, shop);
      let html = (await page(shop, 'home')).html;
      expect(html).to.include('<h3 class="app-block__heading">From the app</h3>'); // the extension's config, as a default
      expect(html).to.include('<p class="app-block__body">Theme body &lt;i&gt;wins&lt;/i&gt;</p>'); // the theme's setting wins
      expect(html).to.not.include(unavailable);

      const rows = await api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as);
      const banner = rows.body.data.extensions[0];
      const path = `/v1/app-store/installations/${installationId}/extensions/${banner.id}`;
      expect((await api.patch(path, { state: 'disabled', version: banner.version }, shop.as)).status).to.equal(200);
      html = (await page(shop, 'home')).html;
      expect(html).to.include(unavailable);
      expect(html).to.not.include('From the app');
      expect((await api.patch(path, { state: 'enabled', version: banner.version + 1 }, shop.as)).status).to.equal(200);
      expect((await page(shop, 'home')).html).to.include('From the app');

      // Uninstalled: gone from the next page, before any extensions worker has revoked the row.
      expect((await api.delete(`/v1/app-store/installations/${installationId}`, shop.as)).status).to.equal(200);
      const row = await app.platform.db.collection('app_extension_registrations').findOne({ _id: new ObjectId(banner.id) });
      expect(row).to.include({ state: 'enabled', revoked_at: null }); // no extensions worker runs in this file
      html = (await page(shop, 'home')).html;
      expect(html).to.include(unavailable);
      expect(html).to.not.include('From the app');
    });

    it('the published JSON Schema (GET /v1/themes/bundle-schema) accepts bundles with app blocks', async () => {
      const schema = await api.get('/v1/themes/bundle-schema');
      const check = new Ajv({ allErrors: true, strict: false }).compile(schema.body);
      const long = bundleWithAppBlocks('aurora');
      long.templates.home.sections.hero.blocks.reviews.type = `@app/${'a'.repeat(64)}/${'b'.repeat(64)}`;
      for (const b of [bundleWithAppBlocks('aurora'), bundleWithAppBlocks('ember-liquid'), long]) expect(check(b), JSON.stringify(check.errors)).to.equal(true);
    });

    it('refuses an app block in a section that does not accept app blocks, at the block type', async () => {
      const bundle = bundleWithAppBlocks('aurora');
      bundle.templates.home.sections.story.blocks = { widget: { type: '@app', settings: { heading: 'Not here' } } };
      delete bundle.templates.home.sections.story.block_order;
      const issues = await uploadIssues(bundle);
      expect(issues).to.deep.equal([
        'templates.home.sections.story.blocks.widget.type: app blocks are only allowed in sections with accepts_app_blocks (section "rich-text" does not accept them)',
      ]);
    });

    it('refuses bad app block settings and malformed app block types, each at its path', async () => {
      const bundle = bundleWithAppBlocks('aurora');
      const blocks = bundle.templates.home.sections.hero.blocks;
      Object.assign(blocks.reviews.settings, {
        iframe_url: 'http://apps.example.com/widget',
        colour: 'red',
        cta_href: 'javascript:alert(1)',
        kind: 'popup',
        heading: 'x'.repeat(201),
      });
      blocks.note.settings = { body: 7, iframe_url: 'https://user:secret@apps.example.com/' };
      blocks.bad = { type: '@app/Reviews/stars' };
      blocks.short = { type: `@app/${'a'.repeat(65)}/b` };
      bundle.templates.home.sections.hero.block_order.push('bad', 'short');
      const issues = await uploadIssues(bundle);
      const at = 'templates.home.sections.hero.blocks';
      const paths = issues.map((i) => i.slice(0, i.indexOf(': ')));
      expect(paths).to.have.members([
        `${at}.reviews.settings.iframe_url`,
        `${at}.reviews.settings.colour`,
        `${at}.reviews.settings.cta_href`,
        `${at}.reviews.settings.kind`,
        `${at}.reviews.settings.heading`,
        `${at}.note.settings.body`,
        `${at}.note.settings.iframe_url`,
        `${at}.bad.type`,
        `${at}.short.type`,
      ]);
      expect(issues).to.include(`${at}.reviews.settings.iframe_url: must be an https URL without credentials (app block iframe_url)`);
      expect(issues).to.include(`${at}.reviews.settings.colour: is not a setting of an app block (heading, body, cta_label, cta_href, iframe_url, kind)`);
    });
  });

  describe('previews over HTTP (GET /v1/storefront/:subdomain/pages/:template?preview_token=)', () => {
    let shop: GivenMerchantWithStore;
    let slug: string;
    let token: string;
    before(async () => {
      shop = await givenMerchantWithStore(api);
      const bundle = bundleWithAppBlocks('aurora');
      slug = bundle.package.slug;
      await givenInstalled(shop, bundle);
      const home = structuredClone(bundle.templates.home);
      home.sections.hero.blocks.heading.settings.heading = 'Draft headline';
      home.sections.hero.blocks.reviews = appBlock('Draft app block');
      const saved = await api.put(`/v1/themes/${slug}/editor/draft`, { template_key: 'home', content: home, version: 0 }, shop.as);
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      const session = await api.post(`/v1/themes/${slug}/preview-session`, { template_key: 'home' }, shop.as);
      expect(session.status, JSON.stringify(session.body)).to.equal(201);
      token = session.body.data.token;
    });

    it("shows the draft (its app block too) privately to the token's store only; the live page does not", async () => {
      const preview = await page(shop, `home?preview_token=${token}`);
      expect(preview.status).to.equal(200);
      expect(preview.headers.get('cache-control')).to.equal('private, no-store');
      expect(preview.html).to.include('Draft headline');
      expect(preview.html).to.include('<h3 class="app-block__heading">Draft app block</h3>');
      const live = await page(shop, 'home');
      expect(live.status).to.equal(200);
      expect(live.headers.get('cache-control')).to.equal('public, max-age=30');
      expect(live.html).to.not.include('Draft headline');
      expect(live.html).to.not.include('Draft app block');
      const other = await givenMerchantWithStore(api);
      await givenInstalled(other, bundleOf('aurora'));
      const elsewhere = await api.get(`${SF}/${other.store.subdomain}/pages/home?preview_token=${token}`);
      expect([elsewhere.status, elsewhere.body.error.code]).to.deep.equal([404, 'preview_not_found']);
      for (const garbage of ['nope', `${token}x`, 'emp_pv_AAAA']) {
        const res = await api.get(`${SF}/${shop.store.subdomain}/pages/home?preview_token=${encodeURIComponent(garbage)}`);
        expect([res.status, res.body.error.code], garbage).to.deep.equal([404, 'preview_not_found']);
      }
    });

    it('refuses a draft with an app block its section does not accept (400 invalid_draft at the block type)', async () => {
      const state = await api.get(`/v1/themes/${slug}/editor`, shop.as);
      const home = structuredClone(state.body.data.templates.home.draft);
      home.sections.story.blocks = { widget: { type: '@app', settings: { heading: 'Not here' } } };
      home.sections.story.block_order = ['widget'];
      const res = await api.put(
        `/v1/themes/${slug}/editor/draft`,
        { template_key: 'home', content: home, version: state.body.data.templates.home.version },
        shop.as,
      );
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'invalid_draft']);
      expect(JSON.stringify(res.body.error)).to.include(
        'templates.home.sections.story.blocks.widget.type: app blocks are only allowed in sections with accepts_app_blocks',
      );
    });

    it("previews a theme that is not live with its own version's assets; a version not installed in the store is not served", async () => {
      const second = bundleOf('aurora');
      const installed = await givenInstalled(shop, second, false);
      const home = structuredClone(second.templates.home);
      home.sections.hero.blocks.heading.settings.heading = 'Second theme draft';
      const saved = await api.put(`/v1/themes/${second.package.slug}/editor/draft`, { template_key: 'home', content: home, version: 0 }, shop.as);
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      const session = await api.post(`/v1/themes/${second.package.slug}/preview-session`, { template_key: 'home' }, shop.as);
      const preview = await page(shop, `home?preview_token=${session.body.data.token}`);
      expect(preview.html).to.include('Second theme draft');
      const href = /<link rel="stylesheet" href="([^"]+base\.css)">/.exec(preview.html)![1]!;
      const live = /<link rel="stylesheet" href="([^"]+base\.css)">/.exec((await page(shop, 'home')).html)![1]!;
      expect(href).to.not.equal(live); // the previewed theme's own version
      expect(installed.role).to.not.equal('live');
      const css = await fetch(`${app.url}${href}`);
      expect(css.status).to.equal(200);
      expect(css.headers.get('content-type')).to.match(/^text\/css/);
      expect(css.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect((await fetch(`${app.url}${href.replace('base.css', 'nope.css')}`)).status).to.equal(404);
      // That version through another store's subdomain: not installed there.
      const other = await givenMerchantWithStore(api);
      await givenInstalled(other, bundleOf('aurora'));
      expect((await fetch(`${app.url}${href.replace(`/${shop.store.subdomain}/`, `/${other.store.subdomain}/`)}`)).status).to.equal(404);
    });
  });
});
