import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { fitsAndPasses, signInInBrowser } from '../helpers/admin.js';
import { useBrowser } from '../helpers/browser.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { png } from '../helpers/images.js';
import { s3Env } from '../helpers/s3.js';

/**
 * The admin's Products and Collections in a real browser (Chromium; docs/admin.md): an image
 * uploaded through the product page's real file input (to the test run's SeaweedFS) shows on the
 * product and in the list; every page kind (the list, a product with images, New product, an
 * image's Remove step, Collections, a collection, its Delete step) fits at 1280 and 390 px (no
 * sideways scroll) and axe finds nothing serious.
 */
/** An image's width in pixels once it has loaded (decode() rejects when it cannot). */
const naturalWidth = (img: { decode(): Promise<void>; naturalWidth: number }) => img.decode().then(() => img.naturalWidth);

describe('Admin: Products and Collections in a browser (Chromium)', () => {
  const { app, api } = useTestApp('admin_products_browser', () => s3Env());
  const chromium = useBrowser();

  it('uploads an image through the file input, and shows every page kind of Products and Collections fitting at 1280 and 390 px, axe-clean', async () => {
    const shop = await givenMerchantWithStore(api);
    const product = await givenProduct(api, shop.as, {
      title: 'Linen shirt with a rather long title that has to wrap on a phone',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { option_values: ['S'], price: 4500, sku: 'LINEN-S' },
        { option_values: ['M'], price: 4800, sku: 'LINEN-M' },
      ],
    });
    const collection = (await api.post('/v1/products/collections', { type: 'manual', title: 'Summer', product_ids: [product.id] }, shop.as)).body.data;

    const page = await chromium.page();
    await signInInBrowser(page, app, shop);

    const at = `${app.url}/admin/stores/${shop.store.id}`;
    await page.goto(`${at}/products/${product.id}`);
    const upload = page.locator('form[enctype="multipart/form-data"]');
    await upload.getByLabel('Image', { exact: true }).setInputFiles({ name: 'linen shirt.png', mimeType: 'image/png', buffer: png(60, 40) });
    await upload.getByLabel('Alt text').fill('A linen shirt, folded');
    await upload.getByRole('button', { name: 'Upload image' }).click();
    await page.getByText('Image “linen shirt.png” uploaded.').waitFor();
    const shown = page.getByRole('img', { name: 'A linen shirt, folded' });
    expect(await shown.evaluate(naturalWidth)).to.equal(60);
    await fitsAndPasses(page);
    const [mediaId] = (await api.get(`/v1/products/${product.id}`, shop.as)).body.data.media_ids;

    await page.goto(`${at}/products`);
    expect(await page.locator(`img[src*="${mediaId}"]`).evaluate(naturalWidth)).to.equal(60);
    await fitsAndPasses(page);

    for (const path of [
      '/products/new',
      `/products/${product.id}/images/${mediaId}/remove`,
      '/collections',
      `/collections/${collection.id}`,
      `/collections/${collection.id}/delete`,
    ]) {
      await page.goto(at + path);
      await fitsAndPasses(page);
    }
  });
});
