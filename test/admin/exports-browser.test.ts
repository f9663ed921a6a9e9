import { expect } from 'chai';
import { fitsAndPasses, signInInBrowser } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { s3Env } from '../helpers/s3.js';

/**
 * The admin's Exports in a real browser (Chromium; docs/admin.md, Exports): Export from the
 * products list, Start, the export's page waiting for the bulk worker, then updating itself
 * (the Refresh header, no script) until its Download link shows; every page kind fits at 1280 and
 * 390 px and axe finds nothing serious.
 */
describe('Admin: Exports in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_exports_browser', () => ({ ...s3Env(), JOBS_POLL_INTERVAL_MS: '100' }));
  const chromium = useBrowser();
  const workers: RunningProcess[] = [];
  after(() => stopAll(workers));

  it('starts an export from the products list and shows it under way, then done, fitting at 1280 and 390 px, axe-clean', async () => {
    const shop = await givenMerchantWithStore(api);
    await givenProduct(api, shop.as, { title: 'Enamel Mug' });
    const page = await chromium.page();
    await signInInBrowser(page, app, shop);
    const admin = `${app.url}/admin/stores/${shop.store.id}`;

    await page.goto(`${admin}/products?query=Mug`);
    await page.getByRole('link', { name: 'Export', exact: true }).click();
    await page.getByRole('heading', { name: 'Export products' }).waitFor();
    await fitsAndPasses(page);
    await page.getByRole('button', { name: 'Start export' }).click();
    // No bulk worker yet: the export waits; the page still (refresh=off) for the checks.
    await page.waitForURL(/\/exports\/[0-9a-f]{24}$/);
    const exportPath = new URL(page.url()).pathname;
    await page.getByText('The export of products has started.').waitFor();
    await page.goto(`${app.url}${exportPath}?refresh=off`);
    await page.getByRole('button', { name: 'Cancel export' }).waitFor();
    await fitsAndPasses(page);

    // The page reloads itself while it runs: once the worker is up, the Download link appears without a click.
    await page.goto(`${app.url}${exportPath}`);
    await startWorker(app, 'bulk', workers);
    await page.getByRole('link', { name: /^Download \(JSONL/ }).waitFor({ timeout: 60_000 });
    await fitsAndPasses(page);
    const file = await fetch((await page.getByRole('link', { name: /^Download \(JSONL/ }).getAttribute('href'))!);
    const lines = (await file.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { title: string; __parentId?: string });
    expect(lines.filter((l) => !l.__parentId).map((l) => l.title)).to.deep.equal(['Enamel Mug']);

    await page.getByRole('link', { name: '« Exports' }).click();
    await page.getByRole('heading', { name: 'Exports' }).waitFor();
    expect(await page.getByRole('link', { name: 'Products matching “Mug”' }).count()).to.equal(1);
    await fitsAndPasses(page);
  });
});
