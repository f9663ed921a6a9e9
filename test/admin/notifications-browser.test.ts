import { expect } from 'chai';
import { readOutbox } from '../../src/messages/index.js';
import { fitsAndPasses } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';

/**
 * Settings → Notifications in Chromium (docs/notifications.md, The admin): the list and an edit
 * page fit at 1280 and 390 px, axe-clean; a template's script never runs in its preview; an
 * edit is saved, reset, and a test sent.
 */
describe('Admin: Settings → Notifications in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_notifications_browser');
  const chromium = useBrowser();

  it('edits, previews (no script of the template runs), resets and tests a notification', async () => {
    const shop = await givenMerchantWithStore(api);
    await givenOrder(api, shop.as, { email: 'latest@example.com', line_items: [{ title: 'Sea-salt soap', price: 900, quantity: 2 }] });
    const page = await chromium.page();
    await page.goto(`${app.url}/login`);
    const signIn = page.locator('form[action="/login"]');
    await signIn.getByLabel('Email').fill(shop.merchant.email);
    await signIn.getByLabel('Password').fill(shop.merchant.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/stores/${shop.store.id}`);

    await page.goto(`${app.url}/admin/stores/${shop.store.id}/settings/notifications`);
    await fitsAndPasses(page);
    await page.getByRole('link', { name: 'Order confirmation' }).click();
    await page.waitForURL(/\/settings\/notifications\/order_confirmation$/);
    await fitsAndPasses(page);
    const frame = page.frameLocator('iframe[title="HTML preview"]');
    await frame.getByText('Sea-salt soap').first().waitFor();

    // A template with script: the preview shows it, and nothing of it runs.
    await page
      .getByLabel('HTML', { exact: true })
      .fill('<p>Hello {{ order.name }}</p><script>parent.document.title = "ran"</script><img src="x" alt="" onerror="parent.document.title = \'ran\'">');
    await page.getByRole('button', { name: 'Preview without saving' }).click();
    await frame.getByText(/Hello #\d+/).waitFor();
    await page.waitForTimeout(300);
    expect(await page.title()).to.not.equal('ran');
    await fitsAndPasses(page);

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The template is saved').waitFor();
    expect((await api.get('/v1/notifications/order_confirmation', shop.as)).body.data.customized).to.equal(true);
    await page.getByRole('button', { name: `Send a test to ${shop.merchant.email}` }).click();
    await page.getByText(`A test went to ${shop.merchant.email}`).waitFor();
    const [test] = await readOutbox(app.platform, shop.merchant.email);
    expect(test!.html).to.contain('Hello #');
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await page.getByText('The default template is back.').waitFor();
    expect((await api.get('/v1/notifications/order_confirmation', shop.as)).body.data.customized).to.equal(false);
  });
});
