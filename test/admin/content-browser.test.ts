import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { fitsAndPasses } from '../helpers/admin.js';
import { useBrowser } from '../helpers/browser.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Content in a real browser (Chromium; docs/admin.md): every page kind (the pages and
 * blog lists, a page, an article, their forms, a delete's confirm step, the main menu) fits at
 * 1280 and 390 px (no sideways scroll) and axe finds nothing serious; a link added from the menu's
 * form and moved by its buttons lands where it should, without a script.
 */
describe('Admin: Content in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_content_browser');
  const chromium = useBrowser();

  it('shows every page kind of Content fitting at 1280 and 390 px, axe-clean, and builds the menu with its forms', async () => {
    const shop = await givenMerchantWithStore(api);
    const about = (await api.post('/v1/pages', { title: 'About us', body_html: '<p>We make lamps.</p>' }, shop.as)).body.data;
    const article = (await api.post('/v1/articles', { title: 'Spring lamps', author: 'Ada', body_html: '<p>New shades.</p>' }, shop.as)).body.data;
    await givenProduct(api, shop.as, { title: 'Brass Lamp', handle: 'brass-lamp' });
    await api.put('/v1/menus/main-menu', { title: 'Main menu', items: [{ title: 'Shop', url: '/collections/all' }] }, shop.as);

    const page = await chromium.page();
    await page.goto(`${app.url}/login`);
    const signIn = page.locator('form[action="/login"]');
    await signIn.getByLabel('Email').fill(shop.merchant.email);
    await signIn.getByLabel('Password').fill(shop.merchant.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/stores/${shop.store.id}`);

    const at = `${app.url}/admin/stores/${shop.store.id}`;
    for (const path of [
      '/content',
      '/content/pages/new',
      `/content/pages/${about.id}`,
      `/content/pages/${about.id}/delete`,
      '/content/articles',
      '/content/articles/new',
      `/content/articles/${article.id}`,
      '/content/menu',
    ]) {
      await page.goto(at + path);
      await fitsAndPasses(page);
    }

    await page.getByLabel('Links to').selectOption({ label: 'Product: Brass Lamp' });
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByText('The link “Brass Lamp” is added.').waitFor();
    await page.getByRole('button', { name: 'Move up link 2' }).click();
    await page.getByText('The link “Brass Lamp” is moved up.').waitFor();
    await fitsAndPasses(page);
    const items = (await api.get('/v1/menus/main-menu', shop.as)).body.data.items;
    expect(items.map((i: { url: string }) => i.url)).to.deep.equal(['/products/brass-lamp', '/collections/all']);
  });
});
