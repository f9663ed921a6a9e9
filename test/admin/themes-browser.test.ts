import { expect } from 'chai';
import { fitsAndPasses, signInInBrowser } from '../helpers/admin.js';
import { useBrowser } from '../helpers/browser.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { s3Env } from '../helpers/s3.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { approvedTheme, useThemeMarketplace } from '../helpers/theme-marketplace.js';

const OPERATOR = 'admin-themes-browser-operator@example.com';

/**
 * The admin's Online store in a real browser (Chromium; docs/admin.md, Themes): a new store's
 * closed shop opened by installing a free theme from the theme store, a second copy published
 * after its confirm step, its preview opened in a new tab, the shop rendering the live theme,
 * its releases and a bundle upload with its problems; every page kind fits at 1280 and 390 px
 * and axe finds nothing serious.
 */
describe('Admin: Online store in a browser (Chromium)', () => {
  const { app, api, author, operator } = useThemeMarketplace('admin_themes_browser', OPERATOR, s3Env);
  const chromium = useBrowser();

  it('installs a free theme, publishes it, opens its preview and sees the shop render it, every page fitting and axe-clean', async () => {
    const bundle = bundleOf('aurora');
    bundle.package.name = 'Harbor, a theme with a rather long name for a phone';
    const slug = await approvedTheme(api, author, operator, bundle);
    const shop = await givenMerchantWithStore(api);
    const page = await chromium.page();
    await signInInBrowser(page, app, shop);
    const at = `${app.url}/admin/stores/${shop.store.id}/themes`;

    await page.getByText('Your shop is closed').waitFor();
    await page.getByRole('link', { name: 'Online store' }).click();
    await fitsAndPasses(page);
    await page.locator('main').getByRole('link', { name: 'Install a free theme' }).click();
    await fitsAndPasses(page);
    await page.getByRole('link', { name: bundle.package.name, exact: true }).click();
    await fitsAndPasses(page);
    await page.getByRole('button', { name: `Install ${bundle.package.name}` }).click();
    await page.getByText('is installed and live').waitFor();

    // A second copy installs unpublished; Publish asks first.
    await page.goto(`${at}/store/${slug}`);
    await page.getByRole('button', { name: `Install ${bundle.package.name}` }).click();
    await page.getByText('Preview it, customize it, then publish it').waitFor();
    await fitsAndPasses(page);
    await page.getByRole('link', { name: /^Publish/ }).click();
    await page.getByText('Your shop changes at once').waitFor();
    await fitsAndPasses(page);
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('your shop shows it now').waitFor();
    const live = (await api.get('/v1/stores/current', shop.as)).body.data.live_theme_id as string;
    const themes = (await api.get('/v1/themes/installed', shop.as)).body.data as { id: string; created_at: string }[];
    expect(live).to.equal(themes.at(-1)!.id);

    const [preview] = await Promise.all([
      page.waitForEvent('popup'),
      page
        .getByRole('button', { name: /^Preview/ })
        .first()
        .click(),
    ]);
    await preview.waitForLoadState();
    expect(preview.url()).to.contain('preview_token=emp_pv_');
    expect(await preview.locator('body').innerText()).to.contain('Test Store');
    await preview.close();

    const shopPage = await chromium.page();
    const answer = await shopPage.goto(`http://${shop.store.subdomain}.localhost:${new URL(app.url).port}/`);
    expect(answer?.status()).to.equal(200);
    expect(await shopPage.locator('body').innerText()).to.contain('Test Store');

    await page.goto(`${at}/${live}/releases`);
    await fitsAndPasses(page);

    await page.goto(`${at}/upload`);
    const broken = bundleOf('aurora');
    broken.package.price = -1;
    await page.getByLabel('Theme bundle').setInputFiles({ name: 'theme.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
    await page.getByRole('button', { name: 'Upload theme' }).click();
    await page.getByText('The bundle was not uploaded').waitFor();
    await fitsAndPasses(page);
  });

  it('previews a paid theme store theme before it is installed: the frame shows it with the store’s products and its assets, fitting and axe-clean', async () => {
    const bundle = bundleOf('ember-liquid');
    bundle.package.name = 'Ember';
    await approvedTheme(api, author, operator, bundle);
    const shop = await givenMerchantWithStore(api);
    await givenProduct(api, shop.as, { title: 'Harbour lantern' });
    const page = await chromium.page();
    await signInInBrowser(page, app, shop);
    const assets: [string, number][] = [];
    page.on('response', (r) => {
      if (r.url().includes('/assets/')) assets.push([r.url(), r.status()]);
    });
    await page.goto(`${app.url}/admin/stores/${shop.store.id}/themes/store`);
    await page.getByRole('link', { name: 'Preview Ember' }).click();
    await page.locator('#preview iframe').waitFor();
    await page.locator('#preview').getByRole('link', { name: 'Collection' }).click();
    const frame = page.frameLocator('#preview iframe');
    await frame.getByText('Harbour lantern').first().waitFor();
    expect(await frame.locator('body').getAttribute('class')).to.equal('template-collection');
    expect(assets.map(([url]) => url).some((url) => url.endsWith('/assets/ember.css'))).to.equal(true);
    expect(assets.filter(([, status]) => status !== 200)).to.deep.equal([]);
    await fitsAndPasses(page);
    await page.setViewportSize({ width: 390, height: 900 });
    const box = (await page.locator('#preview iframe').boundingBox())!;
    expect(box.x + box.width).to.be.at.most(390);
    expect((await api.get('/v1/themes/installed', shop.as)).body.data).to.deep.equal([]);
  });
});
