import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { fitsAndPasses, signInInBrowser } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { until } from '../helpers/waiting.js';

/**
 * The theme editor in Chromium (docs/admin.md, The theme editor; the proof): with
 * JavaScript the preview shows a new heading and colour before Save is pressed; Publish, and the
 * shop at its real address shows them; the product template edited leaves the home draft as it
 * was; a rollback from the Releases page brings the old heading back to the shop; with JavaScript off the same edit
 * shows on Save. Every page kind fits at 1280 and 390 px, axe-clean.
 */
describe('Admin: the theme editor in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_themes_editor_browser');
  const chromium = useBrowser();
  let shop: GivenMerchantWithStore;
  let slug: string;
  let themeId: string;
  const editor = (query: string, rest = '') => `${app.url}/admin/stores/${shop.store.id}/themes/${themeId}/editor${rest}?${query}`;
  const homeDraft = () => app.platform.db.collection('theme_drafts').findOne({ template_key: 'home' });
  /** The preview frame's document as it is now ('' while it loads again). */
  const previewHtml = async (page: Page) => {
    const frame = page.frame({ url: /\/editor\/preview/ });
    return frame ? frame.content().catch(() => '') : '';
  };
  const previewShows = (page: Page, text: string) => until(`the preview to show ${text}`, async () => (await previewHtml(page)).includes(text), 20_000);

  before(async () => {
    shop = await givenMerchantWithStore(api);
    const bundle = bundleOf('aurora');
    slug = bundle.package.slug;
    expect((await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token })).status).to.equal(201);
    const installed = await api.post(`/v1/themes/${slug}/install`, { store_id: shop.store.id, publish: true }, { token: shop.merchant.token });
    themeId = installed.body.data.id;
  });

  it('previews a heading and a colour as they are typed, publishes them to the shop, keeps the home draft while the product template changes, and rolls back', async () => {
    const page = await chromium.page();
    await signInInBrowser(page, app, shop);
    await page.goto(editor('template=home&section=hero&block=heading'));
    await previewShows(page, 'New season, new light');
    await fitsAndPasses(page);

    await page.getByLabel('Heading', { exact: true }).fill('Winter light');
    await previewShows(page, 'Winter light'); // no Save pressed: the script saved the draft and reloaded the frame
    await page.goto(editor('template=home&section=%40theme'));
    await fitsAndPasses(page);
    await page.getByLabel('Accent').fill('#0f766e');
    await previewShows(page, '#0f766e');

    await page.getByRole('link', { name: 'Publish' }).click();
    await fitsAndPasses(page);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published: release 1').waitFor();
    const shopAddress = (await page.getByRole('link', { name: 'View shop' }).getAttribute('href'))!;
    expect(shopAddress).to.match(new RegExp(`^http://${shop.store.subdomain}\\.localhost:\\d+/$`));
    const shopper = await chromium.page();
    await shopper.goto(shopAddress);
    expect(await shopper.content())
      .to.contain('Winter light')
      .and.contain('#0f766e');

    // A new home draft, then the product template edited: the home draft is as it was.
    await page.goto(editor('template=home&section=hero&block=heading'));
    await page.getByLabel('Heading', { exact: true }).fill('Spring light');
    await previewShows(page, 'Spring light');
    const home = await homeDraft();
    await page.goto(editor('template=product&section=main'));
    await fitsAndPasses(page);
    await page.getByLabel('Show SKU').check();
    await until('the product draft', () => app.platform.db.collection('theme_drafts').findOne({ template_key: 'product', content: { $ne: null } }), 20_000);
    expect(await homeDraft()).to.deep.equal(home);

    // Roll back to the theme as installed from its Releases page, after the confirm step: the shop shows the old heading.
    await page.goto(`${app.url}/admin/stores/${shop.store.id}/themes/${themeId}/releases`);
    await fitsAndPasses(page);
    await page.getByRole('link', { name: 'Roll back to this (release 0)' }).click();
    await page.getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('heading', { name: /releases$/ }).waitFor();
    const releases = await api.get(`/v1/themes/${slug}/releases?theme_id=${themeId}`, { token: shop.merchant.token, storeId: shop.store.id });
    expect(releases.body.data.at(-1)).to.include({ kind: 'rollback', rolled_back_to: 0 });
    // A fresh browser: the shop's pages may be kept for 30 s (Cache-Control: public).
    const later = await chromium.page();
    await later.goto(shopAddress);
    expect(await later.content())
      .to.contain('New season, new light')
      .and.not.contain('Winter light');
  });

  // (fitsAndPasses runs axe in the page: the pages with JavaScript on, above, are the same markup.)
  it('saves the same edit without JavaScript on Save, and the preview shows it when the page comes back', async () => {
    const page = await chromium.page({ javaScript: false });
    await signInInBrowser(page, app, shop);
    await page.goto(editor('template=home&section=hero&block=heading'));
    // A page without JavaScript has no script to read its frame with: the frame's address is read with the page's cookies.
    const framed = async () => {
      const src = await page.locator('#preview').getAttribute('src');
      return (await page.context().request.get(new URL(src!, app.url).toString())).text();
    };
    await page.getByLabel('Heading', { exact: true }).fill('Quiet light');
    expect(await framed()).to.not.contain('Quiet light');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/editor\?template=home&section=hero&block=heading$/);
    expect(await framed()).to.contain('Quiet light');
    expect((await homeDraft())!.content.sections.hero.blocks.heading.settings.heading).to.equal('Quiet light');
  });
});
