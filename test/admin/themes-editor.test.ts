import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenAppBlockApp, installBlocks } from '../helpers/apps.js';
import { png } from '../helpers/images.js';
import { bundleOf } from '../helpers/theme-uploads.js';

const OPERATOR = 'op-themes-editor@example.com';

/**
 * The admin's theme editor (docs/admin.md, The theme editor) on the real server: a store's copy of
 * Aurora (every setting type), its templates' sections and blocks changed through the drafts
 * service, each setting type's form and the drafts API's bounds at their fields, drafts per
 * template, publish and discard, the preview frame's headers, and the refusals.
 */
describe('Admin: the theme editor', () => {
  const { app, api } = useTestApp('admin_themes_editor', { OPERATOR_EMAILS: OPERATOR });
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  let slug: string;
  let themeId: string;
  let mediaId: string;
  const editor = (query = '', rest = '', theme = themeId, store = shop.store.id) =>
    `/admin/stores/${store}/themes/${theme}/editor${rest}${query ? `?${query}` : ''}`;
  const state = async () => (await api.get(`/v1/themes/${slug}/editor?theme_id=${themeId}`, shop.as)).body.data;
  const drafts = () =>
    app.platform.db
      .collection('theme_drafts')
      .find({}, { sort: { template_key: 1 } })
      .toArray();
  /** A form of the editor page at `from`, posted with the page's token and draft version. */
  const submit = async (from: string, action: string, fields: Record<string, string>) => {
    const page = await browser.get(from);
    expect(page.status, page.html.slice(0, 300)).to.equal(200);
    const version = /name="version" value="(\d+)" data-draft-key="([a-z_]+)"/g;
    const versions = new Map([...page.html.matchAll(version)].map((m) => [m[2]!, m[1]!]));
    const key = fields.section === '@theme' && action === editor() ? 'settings_data' : (fields.template ?? 'home');
    return browser.post(action, { csrf_token: AdminBrowser.csrfOf(page), version: versions.get(key) ?? '0', ...fields });
  };
  const heroHeading = (t: any) => t.sections.hero.blocks.heading.settings.heading;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    const bundle = bundleOf('aurora');
    slug = bundle.package.slug;
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${slug}/install`, { store_id: shop.store.id, publish: true }, { token: shop.merchant.token });
    expect(installed.status).to.equal(201);
    themeId = installed.body.data.id;
    const form = new FormData();
    form.append('file', new Blob([png(4, 4)], { type: 'image/png' }), 'banner.png');
    form.append('alt', 'Banner');
    const media = await fetch(`${app.url}/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.merchant.token}`, 'x-store-id': shop.store.id },
      body: form,
    });
    expect(media.status).to.equal(201);
    mediaId = ((await media.json()) as any).data.id;
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('shows the template picker, the sections of the template, and the preview of its draft in a frame of its own origin', async () => {
    const page = await browser.get(editor('template=home'));
    expect(page.status).to.equal(200);
    for (const name of ['Home page', 'Product', 'Collection', 'Page', 'Cart', 'Blog']) expect(page.html).to.contain(name);
    expect(page.html).to.contain('Hero banner').and.contain('Featured collection').and.contain('aria-current="page">Home page');
    expect(page.html).to.contain(`src="${editor('template=home', '/preview')}" sandbox="allow-scripts"`);
    expect(page.headers['content-security-policy']).to.contain("frame-src 'self'").and.contain("frame-ancestors 'none'").and.contain("script-src 'self'");
    expect(page.html).to.match(/<script type="module" src="\/assets\/scripts\/theme-editor\.js\?v=/);

    const preview = await browser.get(editor('template=home', '/preview'));
    expect(preview.status).to.equal(200);
    expect(preview.html).to.contain('New season, new light');
    expect(preview.headers['content-security-policy']).to.equal("sandbox allow-scripts; frame-ancestors 'self'");
    expect(preview.headers['x-frame-options']).to.equal('SAMEORIGIN');
    expect(preview.headers['cache-control']).to.equal('no-store');
    // The shop's own answers keep their headers.
    const shopPage = await fetch(`${app.url}/v1/storefront/${shop.store.subdomain}/pages/home`);
    expect(shopPage.headers.get('content-security-policy')).to.equal(null);
  });

  it('generates a form for each of the eleven setting types, with labels in the merchant’s language', async () => {
    const page = await browser.get(editor('template=home&section=%40theme'));
    expect(page.status).to.equal(200);
    const html = page.html;
    expect(html).to.contain('<legend>Colors</legend>').and.not.contain('t:settings');
    expect(html).to.match(/id="f-s-color_accent" name="s.color_accent" type="text" value="#b45309"/); // color
    expect(html).to.match(/<select id="f-s-font_heading" name="s.font_heading"/); // select
    expect(html).to.match(/type="radio" id="f-s-font_body-0" name="s.font_body"/); // radio
    expect(html).to.match(/name="s.base_font_size" type="number" value="17" step="1" min="\d+" max="\d+"/); // range
    expect(html).to.match(/name="s.products_per_row" type="number"/); // number
    expect(html).to.match(/type="checkbox" name="s.show_breadcrumbs" value="on" checked/); // toggle
    expect(html)
      .to.match(/<select id="f-s-logo" name="s.logo"/)
      .and.contain(`value="${mediaId}">Media: Banner`)
      .and.contain('value="assets/logo.svg" selected'); // image
    expect(html).to.match(/name="s.social_instagram" type="text" value="https:\/\/instagram.com\/aurora.demo" inputmode="url"/); // url
    expect(html).to.match(/name="s.free_shipping_message" type="text"/); // text
    expect(html).to.match(/<textarea id="f-s-footer_text" name="s.footer_text" rows="6"/); // richtext
    expect(html).to.match(/<textarea id="f-s-newsletter_disclaimer" name="s.newsletter_disclaimer" rows="4"/); // textarea
  });

  it('checks the schema’s bounds as the drafts API does: errors at their fields, input kept, nothing saved', async () => {
    const at = editor('template=home&section=%40theme');
    const bad = await submit(at, editor(), {
      template: 'home',
      section: '@theme',
      's.color_accent': 'red',
      's.base_font_size': '99',
      's.cart_type': 'sideways',
      's.social_instagram': 'javascript:alert(1)',
      's.font_body': 'comic',
      's.free_shipping_message': '<b>Free</b>',
    });
    expect(bad.status, bad.html.slice(0, 2000)).to.equal(400);
    for (const id of ['color_accent', 'base_font_size', 'cart_type', 'social_instagram', 'font_body']) expect(bad.html).to.contain(`id="f-s-${id}-error"`);
    expect(bad.html).to.match(/name="s.color_accent" type="text" value="red"/);
    expect(bad.html).to.contain('value="&lt;b&gt;Free&lt;/b&gt;"');
    // An image not among the theme's or the store's, and a number that is none: this page's own checks.
    const foreign = await submit(at, editor(), { template: 'home', section: '@theme', 's.logo': '0123456789abcdef01234567', 's.products_per_row': 'abc' });
    expect(foreign.status).to.equal(400);
    expect(foreign.html).to.match(/id="f-s-logo-error"[^>]*>must be one of the theme’s images or the store’s media/);
    expect(foreign.html).to.contain('id="f-s-products_per_row-error"');
    // A step between the positions of a range, on a section's setting.
    const off = await submit(editor('template=home&section=hero'), editor(), { template: 'home', section: 'hero', 's.overlay_opacity': '33' });
    expect(off.status).to.equal(400);
    expect(off.html).to.contain('id="f-s-overlay_opacity-error"');
    expect(await drafts()).to.deep.equal([]);
  });

  it('saves a block’s and the theme’s settings as drafts and shows them in the preview, not in the shop', async () => {
    const saved = await submit(editor('template=home&section=hero&block=heading'), editor(), {
      template: 'home',
      section: 'hero',
      block: 'heading',
      's.heading': 'Winter <light>',
      's.size': 'medium',
    });
    expect(saved.status, saved.html.slice(0, 1500)).to.equal(303);
    expect(saved.location).to.equal(editor('template=home&section=hero&block=heading'));
    const colour = await submit(editor('template=home&section=%40theme'), editor(), {
      template: 'home',
      section: '@theme',
      's.color_accent': '#0f766e',
      's.logo': mediaId,
      's.footer_text': '<p>Hello</p><script>alert(1)</script>',
    });
    expect(colour.status, colour.html.slice(0, 1500)).to.equal(303);
    const s = await state();
    expect(heroHeading(s.templates.home.draft)).to.equal('Winter <light>');
    expect(s.settings.draft.current).to.include({ color_accent: '#0f766e', logo: mediaId, footer_text: '<p>Hello</p>' });
    const page = await browser.get(editor('template=home&section=hero&block=heading'));
    expect(page.html).to.contain('value="Winter &lt;light&gt;"').and.contain('differs from live');
    const preview = await browser.get(editor('template=home', '/preview'));
    expect(preview.html).to.contain('Winter &lt;light&gt;').and.contain('#0f766e');
    const live = await (await fetch(`${app.url}/v1/storefront/${shop.store.subdomain}/pages/home`)).text();
    expect(live).to.contain('New season, new light').and.not.contain('Winter');
  });

  it('adds, moves, hides, shows and removes sections and blocks', async () => {
    const at = editor('template=home');
    const added = await submit(at, editor('', '/sections'), { template: 'home', op: 'add', add: 'rich-text:0' });
    expect(added.status, added.html.slice(0, 1500)).to.equal(303);
    let home = (await state()).templates.home.draft;
    const id = home.order.at(-1);
    expect(home.sections[id].type).to.equal('rich-text');
    expect(added.location).to.equal(editor(`template=home&section=${id}`));
    expect((await submit(at, editor('', '/sections'), { template: 'home', op: 'up', target: id })).status).to.equal(303);
    home = (await state()).templates.home.draft;
    expect(home.order.at(-2)).to.equal(id);
    expect((await submit(at, editor('', '/sections'), { template: 'home', op: 'hide', target: id })).status).to.equal(303);
    expect((await state()).templates.home.draft.sections[id].disabled).to.equal(true);
    expect((await submit(at, editor('', '/sections'), { template: 'home', op: 'show', target: id })).status).to.equal(303);

    const inSection = editor(`template=home&section=${id}`);
    const block = await submit(inSection, editor('', '/blocks'), { template: 'home', section: id, in_section: id, op: 'add', add: 'heading' });
    expect(block.status, block.html.slice(0, 1500)).to.equal(303);
    const b = (await state()).templates.home.draft.sections[id].block_order.at(-1);
    expect((await submit(inSection, editor('', '/blocks'), { template: 'home', in_section: id, op: 'hide', target: b })).status).to.equal(303);
    expect((await state()).templates.home.draft.sections[id].blocks[b].disabled).to.equal(true);
    expect((await submit(inSection, editor('', '/blocks'), { template: 'home', in_section: id, op: 'remove', target: b })).status).to.equal(303);
    expect((await state()).templates.home.draft.sections[id].blocks).to.not.have.property(b);
    // A block type the section does not take: the drafts API's rule, on the page.
    const refused = await submit(inSection, editor('', '/blocks'), { template: 'home', in_section: id, op: 'add', add: 'buy-buttons' });
    expect(refused.status).to.equal(400);
    expect(refused.html).to.contain(`templates.home.sections.${id}.blocks.`);

    expect((await submit(at, editor('', '/sections'), { template: 'home', op: 'remove', target: id })).status).to.equal(303);
    expect((await state()).templates.home.draft.sections).to.not.have.property(id);
    // A section this template cannot have is refused.
    expect((await submit(at, editor('', '/sections'), { template: 'home', op: 'add', add: 'main-product' })).status).to.equal(400);
  });

  it('keeps drafts per template: editing the product template leaves the home draft byte-identical', async () => {
    const before = (await drafts()).find((d) => d.template_key === 'home')!;
    const product = await submit(editor('template=product&section=main'), editor(), {
      template: 'product',
      section: 'main',
      's.media_size': 'small',
    });
    expect(product.status, product.html.slice(0, 1500)).to.equal(303);
    const after = await drafts();
    expect(after.find((d) => d.template_key === 'home')).to.deep.equal(before);
    expect(after.find((d) => d.template_key === 'product')!.content.sections.main.settings.media_size).to.equal('small');
  });

  it('refuses a form made from an older draft (409), nothing saved', async () => {
    const page = await browser.get(editor('template=home&section=hero&block=heading'));
    const csrf = AdminBrowser.csrfOf(page);
    const before = (await drafts()).find((d) => d.template_key === 'home')!;
    const stale = await browser.post(editor(), {
      csrf_token: csrf,
      template: 'home',
      section: 'hero',
      block: 'heading',
      version: String(before.version - 1),
      's.heading': 'Stale',
    });
    expect(stale.status).to.equal(409);
    expect(stale.html).to.contain('The draft changed since this page was made');
    expect((await drafts()).find((d) => d.template_key === 'home')).to.deep.equal(before);
  });

  it('discards one template’s draft after its confirm step', async () => {
    const confirm = await browser.get(editor('template=product', '/discard'));
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('Discard the draft of the Product template?');
    const done = await browser.post(editor('template=product', '/discard'), { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect(done.status).to.equal(303);
    const s = await state();
    expect(s.templates.product.has_draft).to.equal(false);
    expect(s.templates.home.has_draft).to.equal(true);
  });

  it('publishes the drafts to the live theme as a release after its confirm step; the shop shows them', async () => {
    const page = await browser.get(editor('template=home'));
    expect(page.html).to.contain(`href="${editor('template=home', '/publish')}"`);
    const confirm = await browser.get(editor('template=home', '/publish'));
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('This theme is live');
    const published = await browser.post(editor('', '/publish'), { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect(published.status).to.equal(303);
    const s = await state();
    expect(s.release_number).to.equal(1);
    expect(s.templates.home.has_draft).to.equal(false);
    expect(heroHeading(s.templates.home.live)).to.equal('Winter <light>');
    const live = await (await fetch(`${app.url}/v1/storefront/${shop.store.subdomain}/pages/home`)).text();
    expect(live).to.contain('Winter &lt;light&gt;');
    const again = await browser.post(editor('', '/publish'), { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect(again.status).to.equal(409);
    expect(again.html).to.contain('no drafts to publish');
  });

  it('is another merchant’s 404 page, changing nothing; refuses a missing, foreign or cross-site token and a bearer token', async () => {
    const stranger = await givenMerchantWithStore(api);
    const theirs = await signedInAdmin(app, stranger.merchant);
    const strangerCsrf = AdminBrowser.csrfOf(await theirs.get(`/admin/stores/${stranger.store.id}/settings/store`));
    const before = await drafts();
    // Their browser on this store's editor, and on this theme under their own store: the 404 page.
    for (const path of [editor('template=home'), editor('template=home', '', themeId, stranger.store.id), editor('template=home', '/preview')]) {
      expect((await theirs.get(path)).status, path).to.equal(404);
    }
    for (const [path, fields] of [
      [editor(), { template: 'home', section: 'hero', block: 'heading', version: '0', 's.heading': 'Hacked' }],
      [editor('', '/sections', themeId, stranger.store.id), { template: 'home', op: 'remove', target: 'hero', version: '0' }],
      [editor('', '/publish'), {}],
      [editor('template=home', '/discard'), {}],
    ] as const) {
      expect((await theirs.post(path, { csrf_token: strangerCsrf, ...fields })).status, path).to.equal(404);
    }
    const csrf = AdminBrowser.csrfOf(await browser.get(editor('template=home')));
    const change = { template: 'home', section: 'hero', block: 'heading', version: '1', 's.heading': 'Forged' };
    for (const [fields, headers] of [
      [change, {}],
      [{ ...change, csrf_token: strangerCsrf }, {}],
      [{ ...change, csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(editor(), fields, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    expect((await browser.get(editor('template=home'), { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect((await browser.get(editor('template=home', '', 'not-an-id'))).status).to.equal(404);
    expect(await drafts()).to.deep.equal(before);
  });

  it('offers the store’s enabled app blocks where a section accepts them, with their settings checked by the drafts API', async () => {
    const operator = await givenMerchant(api, { email: OPERATOR });
    await installBlocks(api, await givenAppBlockApp(api, operator.token, 'editor-reviews', ['stars'], { heading: 'Stars' }), shop);
    expect((await browser.get(editor('template=home&section=hero'))).html).to.not.contain('@app/editor-reviews/stars');
    const at = editor('template=product&section=main');
    expect((await browser.get(at)).html).to.contain('value="@app/editor-reviews/stars">App: Stars (editor-reviews)');
    const added = await submit(at, editor('', '/blocks'), {
      template: 'product',
      section: 'main',
      in_section: 'main',
      op: 'add',
      add: '@app/editor-reviews/stars',
    });
    expect(added.status, added.html.slice(0, 1500)).to.equal(303);
    const block = 'app-editor-reviews-stars-1';
    expect(added.location).to.equal(editor(`template=product&section=main&block=${block}`));
    const fields = { template: 'product', section: 'main', block, 's.heading': 'Rated 5 <3', 's.cta_label': 'Read them' };
    const bad = await submit(added.location!, editor(), { ...fields, 's.cta_href': 'javascript:alert(1)' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.contain('id="f-s-cta_href-error"');
    expect((await submit(added.location!, editor(), { ...fields, 's.cta_href': '/pages/reviews' })).status).to.equal(303);
    const saved = (await state()).templates.product.draft.sections.main.blocks[block];
    expect(saved).to.deep.include({ type: '@app/editor-reviews/stars', disabled: false });
    expect(saved.settings).to.include({ heading: 'Rated 5 <3', cta_label: 'Read them', cta_href: '/pages/reviews' });
  });
});
