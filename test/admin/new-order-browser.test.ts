import { fitsAndPasses } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenLocation, givenStockedVariant } from '../helpers/catalog.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Create order in a real browser (Chromium; docs/admin.md, Orders): the page with two
 * lines fits at 1280 and 390 px (no sideways scroll) and axe finds nothing serious; a search's Add
 * link and the order form make the order, to its page.
 */
describe('Admin: Create order in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_new_order_browser');
  const chromium = useBrowser();

  it('shows the page with two lines fitting at 1280 and 390 px, axe-clean, and makes the order', async () => {
    const shop = await givenMerchantWithStore(api);
    const location = await givenLocation(api, shop.as);
    const mug = await givenStockedVariant(api, shop.as, location, 10, 1800);
    const shirt = await givenStockedVariant(api, shop.as, location, 10, 4500);

    const page = await chromium.page();
    await page.goto(`${app.url}/login`);
    const signIn = page.locator('form[action="/login"]');
    await signIn.getByLabel('Email').fill(shop.merchant.email);
    await signIn.getByLabel('Password').fill(shop.merchant.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/stores/${shop.store.id}`);

    await page.goto(`${app.url}/admin/stores/${shop.store.id}/orders/new?lines=${mug.variant}:2,${shirt.variant}:1`);
    await fitsAndPasses(page);

    await page.getByLabel('Search products').fill('Item');
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .getByRole('link', { name: /^Add Item/ })
      .first()
      .click();
    await page.getByLabel('Email').fill('walk-in@example.com');
    await page.getByLabel('Payment').selectOption('paid');
    await page.getByRole('button', { name: 'Create order' }).click();
    await page.getByText(/Order #\d+ is created\./).waitFor();
    await fitsAndPasses(page);
  });
});
