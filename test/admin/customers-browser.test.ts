import { useTestApp } from '../helpers/app.js';
import { fitsAndPasses, signInInBrowser } from '../helpers/admin.js';
import { useBrowser } from '../helpers/browser.js';
import { givenCoupon } from '../helpers/coupons.js';
import { givenAddress, givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Customers and Discounts in a real browser (Chromium; docs/admin.md): every page kind
 * fits at 1280 and 390 px (no sideways scroll) and axe finds nothing serious; a gift card issued
 * from its form shows its code once.
 */
describe('Admin: Customers and Discounts in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_customers_browser');
  const chromium = useBrowser();

  it('shows every page kind of Customers and Discounts fitting at 1280 and 390 px, axe-clean', async () => {
    const shop = await givenMerchantWithStore(api);
    const customer = await givenCustomer(api, shop.as, { first_name: 'Ada', last_name: 'Lovelace', tags: ['vip'] });
    const address = await givenAddress(api, shop.as, customer.id);
    const coupon = await givenCoupon(api, shop.as);

    const page = await chromium.page();
    await signInInBrowser(page, app, shop);

    const at = `${app.url}/admin/stores/${shop.store.id}`;
    for (const path of [
      '/customers',
      '/customers/new',
      `/customers/${customer.id}`,
      `/customers/${customer.id}/addresses/${address.id}`,
      `/customers/${customer.id}/redact`,
      '/discounts',
      '/discounts/coupons/new',
      `/discounts/coupons/${coupon.id}`,
      '/discounts/gift-cards',
      '/discounts/gift-cards/new',
    ]) {
      await page.goto(at + path);
      await fitsAndPasses(page);
    }

    await page.getByLabel('Value (USD)').fill('20');
    await page.getByRole('button', { name: 'Issue gift card' }).click();
    await page.getByRole('heading', { name: 'Gift card issued' }).waitFor();
    await fitsAndPasses(page);
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('heading', { name: /Gift card •••• / }).waitFor();
    await fitsAndPasses(page);
  });
});
