import { expect } from 'chai';
import { fitsAndPasses, signInInBrowser } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp } from '../helpers/apps.js';
import { exampleAppPage, servePage } from '../../src/dev/example-app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'op-embed-browser@example.com';

/** A page of a third origin that opens the admin's host page in a window and posts bridge messages to it, recording any answer. */
const INTRUDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Intruder</title></head><body>
<button id="open" type="button">Open</button>
<script>
  window.received = [];
  window.addEventListener('message', (e) => window.received.push(e.data));
  document.getElementById('open').onclick = () => { window.target = window.open(location.hash.slice(1)); };
  window.intrude = () => {
    for (let id = 1; id <= 5; id++)
      window.target.postMessage({ emporium: 'bridge', version: 1, id, type: 'toast', payload: { message: 'Intruder toast' } }, '*');
  };
</script></body></html>`;

/**
 * The embedded app host in Chromium (docs/app-bridge.md): a partner's app, exactly the example page
 * of docs/app-bridge.md, served by a local HTTP server on another origin and installed with
 * read_products, opened in the admin: the handshake shows its store, its toast shows in the admin,
 * its resize sets the frame's height, its api.fetch of /products lists the store's products and of
 * /orders is refused; a third origin's messages are ignored and unanswered; toast turned off, then
 * the app uninstalled, and its actions are refused. Its admin_ui extension shows on a product's
 * page and is gone once disabled. The host page fits at 1280 and 390 px, axe-clean.
 */
describe('Admin: the embedded app host in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_apps_embed_browser', { OPERATOR_EMAILS: OPERATOR });
  const chromium = useBrowser();
  let operatorToken: string;
  let partnerApp: Awaited<ReturnType<typeof servePage>>;
  let intruder: Awaited<ReturnType<typeof servePage>>;

  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
    partnerApp = await servePage('127.0.0.1', exampleAppPage());
    intruder = await servePage('localhost', INTRUDER);
  });
  after(async () => {
    await partnerApp.close();
    await intruder.close();
  });

  it('hosts the example app: handshake, toast, resize, scoped reads, origins checked, capabilities and the uninstall enforced at once', async () => {
    expect(await (await fetch(`${partnerApp.origin}/app/`)).text()).to.equal(exampleAppPage());

    const shop = await givenMerchantWithStore(api);
    const storeName = (await api.get(`/v1/stores/${shop.store.id}`, shop.as)).body.data.name as string;
    await givenProduct(api, shop.as, { title: 'Enamel Mug' });
    await givenProduct(api, shop.as, { title: 'Linen Apron' });
    const partner = await givenPublishedApp(api, operatorToken, {
      name: 'Stock Helper',
      app_url: `${partnerApp.origin}/app`,
      bridge: { capabilities: ['api.fetch', 'toast', 'resize', 'navigation.redirect'] },
      extensions: [{ kind: 'admin_ui', handle: 'stock-panel', name: 'Stock panel', target: 'admin.product.details' }],
    });
    const { installationId } = await installApp(api, partner, shop, { scopes: ['read_products'] });
    const hostUrl = `${app.url}/admin/stores/${shop.store.id}/apps/${partner.app.handle}`;

    const page = await chromium.page();
    await signInInBrowser(page, app, shop);
    await page.goto(hostUrl);
    const frame = page.frameLocator('iframe.app-frame');
    await frame.locator('#store').getByText(`${storeName} (${shop.store.subdomain})`).waitFor();
    // api.fetch('/products'): the store's products, listed by the app.
    await frame.getByRole('listitem').filter({ hasText: 'Enamel Mug' }).waitFor();
    expect((await frame.getByRole('listitem').allTextContents()).sort()).to.deep.equal(['Enamel Mug', 'Linen Apron']);
    // resize: the frame's height is what the app asked (within the bounds), not the 600 px it started at.
    const height = () => page.locator('iframe.app-frame').evaluate((f) => (f as { style: { height: string } }).style.height);
    await until('the frame resized', async () => (await height()) !== '');
    const asked = Number.parseInt(await height(), 10);
    expect(asked).to.be.within(100, 599);
    expect(await page.locator('iframe.app-frame').evaluate((f) => Math.round(f.getBoundingClientRect().height))).to.equal(asked);

    // toast: shown in the admin's live region.
    await frame.getByRole('button', { name: 'Say hello' }).click();
    await page.locator('[data-app-toasts] .app-toast').getByText(`Hello from ${storeName}`).waitFor();
    await frame.locator('#status').getByText('Toast shown').waitFor();
    expect(await page.locator('[data-app-toasts]').getAttribute('role')).to.equal('status');
    // api.fetch('/orders') without read_orders: refused, the app says why.
    await frame.getByRole('button', { name: 'Load orders' }).click();
    await frame
      .locator('#status')
      .getByText(/^Refused: insufficient_scope/)
      .waitFor();
    await fitsAndPasses(page);

    // A third origin's messages to the host page: ignored, never answered.
    const outsider = await page.context().newPage();
    await outsider.goto(`${intruder.origin}/#${hostUrl}`);
    const [popup] = await Promise.all([page.context().waitForEvent('page'), outsider.getByRole('button', { name: 'Open' }).click()]);
    const popupFrame = popup.frameLocator('iframe.app-frame');
    await popupFrame.locator('#store').getByText(storeName).waitFor();
    await outsider.evaluate('window.intrude()');
    // The app's own toast after them: shown, so the intruder's (posted first) were handled before it.
    await popupFrame.getByRole('button', { name: 'Say hello' }).click();
    await popup.locator('[data-app-toasts] .app-toast').getByText(`Hello from ${storeName}`).waitFor();
    expect(await popup.locator('[data-app-toasts]').textContent()).to.not.contain('Intruder toast');
    expect(await outsider.evaluate('window.received.length')).to.equal(0);
    await popup.close();

    // The merchant turns toast off (the settings page's rule, updateEmbedding): the next toast is refused, in the page already open.
    const off = await api.patch(`/v1/app-store/installations/${installationId}/embedding`, { bridge_capabilities: { toast: false } }, shop.as);
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    const toastsBefore = await page.locator('[data-app-toasts] .app-toast').count();
    await frame.getByRole('button', { name: 'Say hello' }).click();
    await frame
      .locator('#status')
      .getByText(/^Refused: capability_disabled/)
      .waitFor();
    expect(await page.locator('[data-app-toasts] .app-toast').count()).to.be.at.most(toastsBefore);

    // The extension on a product's page: framed, speaking the bridge; gone once disabled.
    const [product] = (await api.get('/v1/products', shop.as)).body.data;
    const productUrl = `${app.url}/admin/stores/${shop.store.id}/products/${product.id}`;
    const productPage = await page.context().newPage();
    await productPage.goto(productUrl);
    await productPage.getByRole('heading', { name: /Stock panel/ }).waitFor();
    await productPage.frameLocator('iframe[data-extension="stock-panel"]').locator('#store').getByText(storeName).waitFor();
    const [row] = (await api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as)).body.data.extensions;
    const disabled = await api.patch(
      `/v1/app-store/installations/${installationId}/extensions/${row.id}`,
      { state: 'disabled', version: row.version },
      shop.as,
    );
    expect(disabled.status, JSON.stringify(disabled.body)).to.equal(200);
    await productPage.reload();
    await productPage.getByRole('heading', { name: 'Archive or delete' }).waitFor();
    expect(await productPage.locator('iframe').count()).to.equal(0);

    // Uninstalled: every action of the page still open is refused.
    expect((await api.delete(`/v1/app-store/installations/${installationId}`, shop.as)).status).to.equal(200);
    await frame.getByRole('button', { name: 'Load orders' }).click();
    await frame
      .locator('#status')
      .getByText(/^Refused: not_found/)
      .waitFor();
  });

  it('says plainly without JavaScript that the app needs it, with the way back to the installed apps', async () => {
    const shop = await givenMerchantWithStore(api);
    const partner = await givenPublishedApp(api, operatorToken, { app_url: `${partnerApp.origin}/app` });
    await installApp(api, partner, shop, { scopes: ['read_products'] });
    const page = await chromium.page({ javaScript: false });
    await signInInBrowser(page, app, shop);
    await page.goto(`${app.url}/admin/stores/${shop.store.id}/apps/${partner.app.handle}`);
    // Chromium parses <noscript> as markup with JavaScript off (Playwright's switch does not make it lay the element out, so its text is read, not seen).
    expect(await page.locator('noscript .card').textContent()).to.contain('Order Printer needs JavaScript.');
    expect(await page.locator('noscript a').getAttribute('href')).to.equal(`/admin/stores/${shop.store.id}/apps`);
    expect(await page.locator('iframe.app-frame').isVisible()).to.equal(false);
  });
});
