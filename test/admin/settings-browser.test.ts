import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { fitsAndPasses } from '../helpers/admin.js';
import { useBrowser } from '../helpers/browser.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Settings in a real browser (Chromium; docs/admin.md, Settings): every page kind fits
 * at 1280 and 390 px (no sideways scroll) and axe finds nothing serious, a shipping rate added and a
 * form shown again with an error included; the sandbox turned on from its form.
 */
describe('Admin: Settings in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_settings_browser');
  const chromium = useBrowser();

  it('shows every page kind of Settings fitting at 1280 and 390 px, axe-clean', async () => {
    const shop = await givenMerchantWithStore(api);
    await api.put('/v1/taxes', { rates: [{ country_code: 'DE', name: 'MwSt', rate_bps: 1900 }] }, shop.as);

    const page = await chromium.page();
    await page.goto(`${app.url}/login`);
    const signIn = page.locator('form[action="/login"]');
    await signIn.getByLabel('Email').fill(shop.merchant.email);
    await signIn.getByLabel('Password').fill(shop.merchant.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/stores/${shop.store.id}`);

    const at = `${app.url}/admin/stores/${shop.store.id}/settings`;
    for (const path of ['', '/store', '/taxes', '/payments', '/notifications']) {
      await page.goto(at + path);
      await fitsAndPasses(page);
    }

    await page.goto(`${at}/shipping`);
    const rate = page.getByRole('group', { name: 'Add a rate' });
    await rate.getByLabel('Name').fill('Standard');
    await rate.getByLabel('Code').fill('standard');
    await rate.getByLabel('Price (USD)').fill('4.999');
    await rate.getByLabel('Country').fill('US');
    await page.getByRole('button', { name: 'Save rates' }).click();
    await page.getByText('must be an amount such as 12.50').waitFor();
    await fitsAndPasses(page);
    await page.getByLabel('Price (USD)').first().fill('4.99');
    await page.getByRole('button', { name: 'Save rates' }).click();
    await page.getByText('The shipping rates are saved: 1 rate.').waitFor();
    await fitsAndPasses(page);

    await page.goto(`${at}/payments`);
    const sandbox = page.locator(`form[action$="/settings/payments/sandbox"]`);
    await sandbox.getByLabel('Offer Sandbox at checkout').check();
    await sandbox.getByLabel(/Signing secret/).fill('a-sandbox-secret-0123456789');
    await sandbox.getByRole('button', { name: 'Save Sandbox' }).click();
    await page.getByText('Sandbox is saved and on.').waitFor();
    expect(await page.content()).to.not.contain('a-sandbox-secret-0123456789');
    const providers = (await api.get('/v1/payments/providers', shop.as)).body.data;
    expect(providers.find((p: { provider: string }) => p.provider === 'sandbox')).to.include({ enabled: true, credentials_set: true });
  });
});
