import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { fitsAndPasses } from '../helpers/admin.js';
import { useBrowser } from '../helpers/browser.js';
import { givenLocation, givenStockedVariant } from '../helpers/catalog.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';

/**
 * The admin in a real browser (Chromium; docs/admin.md): a merchant signs in through /login,
 * lands on their store's Home, opens Orders and an order; at 1280 and 390 px no page scrolls
 * sideways, and axe finds nothing serious.
 */
describe('Admin: in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_browser');
  const chromium = useBrowser();

  it('signs in, lands on Home, opens Orders and an order, fitting at 1280 and 390 px', async () => {
    const shop = await givenMerchantWithStore(api);
    const location = await givenLocation(api, shop.as);
    const mug = await givenStockedVariant(api, shop.as, location, 3, 1800);
    const order = await givenOrder(api, shop.as, { financial_status: 'paid', line_items: [{ variant_id: mug.variant, quantity: 1 }] });

    const page = await chromium.page();
    await page.goto(`${app.url}/admin`);
    expect(new URL(page.url()).pathname).to.equal('/login');
    const signIn = page.locator('form[action="/login"]');
    await signIn.getByLabel('Email').fill(shop.merchant.email);
    await signIn.getByLabel('Password').fill(shop.merchant.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/stores/${shop.store.id}`);
    expect(await page.getByRole('heading', { name: 'Test Store' }).count()).to.equal(1);
    expect(await page.locator('.stat__value').first().textContent()).to.equal('1');
    await fitsAndPasses(page);

    await page.getByRole('navigation', { name: 'Store' }).getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL(`**/admin/stores/${shop.store.id}/orders`);
    await fitsAndPasses(page);

    await page.getByRole('link', { name: `#${order.number}` }).click();
    await page.waitForURL(`**/orders/${order.id}`);
    expect(await page.getByRole('heading', { name: `Order #${order.number}` }).count()).to.equal(1);
    await fitsAndPasses(page);
  });
});
