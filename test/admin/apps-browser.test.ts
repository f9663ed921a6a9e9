import { expect } from 'chai';
import { fitsAndPasses, signInInBrowser } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { PartnerApp } from '../helpers/partner-app.js';

const OPERATOR = 'apps-browser-operator@example.com';

/**
 * The admin's Apps in a real browser (Chromium; docs/admin.md, Apps): a merchant installs an app
 * from the App Store through the real consent page, the partner's app (a local HTTP server,
 * test/helpers/partner-app.ts) exchanging the code and sending the browser back to the admin,
 * where the app is listed; every page kind fits at 1280 and 390 px and axe finds nothing serious.
 */
describe('Admin: Apps in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_apps_browser', { OPERATOR_EMAILS: OPERATOR });
  const chromium = useBrowser();
  let partner: PartnerApp;
  before(async () => {
    partner = await new PartnerApp(app.url).start();
  });
  after(() => partner.close());

  it('installs an app from the App Store through the consent page and lands back in the admin with it listed; every page fits and passes', async () => {
    const operator = (await givenMerchant(api, { email: OPERATOR })).token;
    const published = await partner.publish(api, operator, { name: 'Label Maker', handle: 'label-maker-browser' });
    const shop = await givenMerchantWithStore(api);
    const admin = (path: string) => `${app.url}/admin/stores/${shop.store.id}${path}`;

    const page = await chromium.page();
    await signInInBrowser(page, app, shop);
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.waitForURL(admin('/apps'));
    expect(await page.locator('main').innerText()).to.contain('No apps installed yet');
    await fitsAndPasses(page);

    await page.getByRole('link', { name: 'Visit the App Store' }).first().click();
    await page.waitForURL(admin('/app-store'));
    await fitsAndPasses(page);
    await page.getByRole('link', { name: 'Label Maker' }).click();
    await page.waitForURL(admin(`/app-store/${published.app.id}`));
    expect(await page.locator('main').innerText()).to.contain('See your orders');
    await fitsAndPasses(page);

    // Install: to the partner's app, which sends the browser to the consent page.
    await Promise.all([page.waitForURL(`${app.url}/v1/app-store/oauth/authorize?**`), page.getByRole('button', { name: 'Install' }).click()]);
    expect(await page.locator('h1').innerText()).to.equal('Install Label Maker?');
    // The consent page's Install: the code to the partner, which sends the merchant back to the admin.
    await Promise.all([page.waitForURL(admin('/apps/label-maker-browser/settings')), page.getByRole('button', { name: 'Install' }).click()]);
    expect(partner.callbacks.at(-1)).to.deep.equal({ scope: 'read_orders read_products' });
    expect(await page.locator('h1').innerText()).to.equal('Label Maker');
    expect(await page.locator('main').innerText())
      .to.contain('See your products and collections')
      .and.contain('Show messages in the admin');
    await fitsAndPasses(page);

    await page.goto(admin('/apps'));
    expect(await page.locator('main').innerText())
      .to.contain('Label Maker')
      .and.contain('active');
    await fitsAndPasses(page);

    await page.goto(admin('/apps/label-maker-browser/extensions'));
    expect(await page.locator('main').innerText())
      .to.contain('Order labels')
      .and.contain('Quality checklist');
    await fitsAndPasses(page);
    await page.getByRole('button', { name: 'Enable Hide express for oversize parcels' }).click();
    await page.waitForURL(admin('/apps/label-maker-browser/extensions'));
    expect(await page.locator('main').innerText()).to.contain('Hide express for oversize parcels is enabled.');
    await page.getByRole('link', { name: 'Runs' }).click();
    expect(await page.locator('main').innerText()).to.contain('No runs yet');
    await fitsAndPasses(page);

    await page.goto(admin('/apps/label-maker-browser/uninstall'));
    await fitsAndPasses(page);
    await page.getByRole('button', { name: 'Uninstall Label Maker' }).click();
    await page.waitForURL(admin('/apps'));
    expect(await page.locator('main').innerText())
      .to.contain('Label Maker is uninstalled.')
      .and.contain('uninstalled');
  });
});
