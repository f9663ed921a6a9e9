import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { apiClient, type Json } from './api-client.js';
import { launchChromium } from './chromium.js';
import { demoProductImage, type DemoShape } from './demo-images.js';
import { exampleAppPage, servePage } from './example-app.js';
import { installApp, publishApp } from './screenshot-apps.js';
import { shootThemes } from './admin-screenshot-themes.js';
import { adminShooter, SCREENSHOT_WIDTHS } from './screenshot-widths.js';

/**
 * `npm run screenshot:admin` (docs/admin.md, Screenshots): the merchant admin's page kinds in a
 * real browser, at 1280 and 390 px. Against a running platform (`npm start`; BASE_URL, default
 * http://localhost:3000), it signs a new merchant up, shoots Create your store, then makes a
 * store with something to show through the API (a location, a product low on stock, a product
 * with two images, customers, orders paid, pending, shipped in part, refunded and cancelled), puts
 * the session in the browser's `emporium_session` cookie, and saves
 * docs/screenshots/admin-<page>.png for Create store, Home, Orders, an order, Create order (two
 * lines), Products, a product, an image's Remove step, New product, Collections, a collection,
 * Locations, Customers, a customer, Add customer, Discounts (coupons), a coupon, gift cards and a
 * gift card, Content (pages, a page, the blog, an article and the main menu), then Settings and
 * its store details, shipping, taxes, payments, notifications and webhooks pages (the list, a
 * webhook, a delivery), the Export page, an export under way and completed, the exports list, and
 * Your account; with SCREENSHOT_OPERATOR (an address in the platform's OPERATOR_EMAILS), Apps
 * too: the App Store, an app's listing, the installed apps, an app's page, its Uninstall step,
 * its extensions and a function's run log; last the theme editor of a live copy of aurora with a
 * draft (its preview, the theme settings with every setting type, a refused colour).
 */
const BASE = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const OUT = new URL('../../../docs/screenshots/', import.meta.url).pathname;
const call = apiClient(BASE);
const tag = randomBytes(3).toString('hex');
const OPERATOR = process.env.SCREENSHOT_OPERATOR;

const email = `admin-shots-${tag}@example.com`;
const password = 'screenshot password';
await call('POST', '/v1/auth/signup', { email, password, name: 'Ada Admin' });
const token = (await call('POST', '/v1/auth/signin', { email, password })).data.session.token as string;
const auth = { authorization: `Bearer ${token}` };

mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  const { page, shot } = await adminShooter(browser, BASE, token, OUT);
  await shot('create-store', '/admin');

  const store = (await call('POST', '/v1/stores', { name: 'Harbour Goods', subdomain: `harbour-${tag}`, currency: 'USD' }, auth)).data;
  const as = { ...auth, 'x-store-id': store.id as string };
  const location = (await call('POST', '/v1/inventory/locations', { name: 'Harbour warehouse', city: 'Bristol', country_code: 'GB' }, as)).data.id as string;
  const variantOf = async (title: string, price: number, available: number) => {
    const product = (await call('POST', '/v1/products', { title, status: 'active', variants: [{ price, sku: title.toUpperCase().replace(/\W+/g, '-') }] }, as))
      .data;
    const variant = product.variants[0].id as string;
    await call('POST', '/v1/inventory/levels/set', { variant_id: variant, location_id: location, available }, as);
    return variant;
  };
  const mug = await variantOf('Enamel Mug', 1800, 4);
  const shirt = await variantOf('Oxford Shirt', 4500, 40);
  await variantOf('Linen Apron', 3200, 2);
  const customer = (first_name: string, last_name: string) =>
    call('POST', '/v1/customers', { email: `${first_name.toLowerCase()}-${tag}@example.com`, first_name, last_name }, as).then((r) => r.data.id as string);
  const ada = await customer('Ada', 'Lovelace');
  const grace = await customer('Grace', 'Hopper');
  const address = { first_name: 'Ada', last_name: 'Lovelace', address1: '12 Harbour Street', city: 'Bristol', zip: 'BS1 4RN', country_code: 'GB' };
  const order = (body: Record<string, unknown>) => call('POST', '/v1/orders', body, as).then((r) => r.data);

  const shown = await order({
    customer_id: ada,
    financial_status: 'paid',
    line_items: [
      { variant_id: mug, quantity: 2 },
      { variant_id: shirt, quantity: 1 },
    ],
    shipping_address: address,
    billing_address: address,
    shipping_line: { title: 'Royal Mail Tracked 48', price: 495 },
    note: 'Gift: please leave out the receipt.',
  });
  await call(
    'POST',
    `/v1/orders/${shown.id}/fulfill`,
    {
      location_id: location,
      line_items: [{ line_item_id: shown.line_items[1].id, quantity: 1 }],
      tracking_company: 'Royal Mail',
      tracking_number: 'RM123456785GB',
      tracking_url: 'https://track.example/RM123456785GB',
    },
    as,
  );
  await call('POST', `/v1/orders/${shown.id}/refund`, { amount: 500, reason: 'Late delivery' }, as);
  await order({
    customer_id: grace,
    financial_status: 'paid',
    line_items: [{ variant_id: shirt, quantity: 2 }],
    shipping_address: { ...address, first_name: 'Grace', last_name: 'Hopper' },
  });
  await order({ email: `walk-in-${tag}@example.com`, line_items: [{ title: 'Gift wrapping', price: 400, quantity: 1 }] });
  const cancelled = await order({ customer_id: grace, line_items: [{ variant_id: mug, quantity: 1 }] });
  await call('POST', `/v1/orders/${cancelled.id}/cancel`, { reason: 'customer' }, as);

  await shot('home', `/admin/stores/${store.id}`);
  await shot('orders', `/admin/stores/${store.id}/orders`);
  await shot('order', `/admin/stores/${store.id}/orders/${shown.id}`);
  await shot('order-new', `/admin/stores/${store.id}/orders/new?lines=${mug}:2,${shirt}:1`);

  const tee = (
    await call(
      'POST',
      '/v1/products',
      {
        title: 'Harbour Tee',
        status: 'active',
        vendor: 'Harbour Goods',
        description_html: '<p>Heavy cotton, garment dyed.</p>',
        options: [{ name: 'Size', values: ['S', 'M'] }],
        variants: [
          { option_values: ['S'], price: 2400, sku: 'TEE-S' },
          { option_values: ['M'], price: 2600, compare_at_price: 3000, sku: 'TEE-M' },
        ],
      },
      as,
    )
  ).data;
  await call('POST', '/v1/inventory/levels/set', { variant_id: tee.variants[0].id, location_id: location, available: 12 }, as);
  // Two pictures, uploaded and linked as the API does it (docs/media.md, docs/catalog.md).
  const picture = async (shape: DemoShape, hue: number, alt: string): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([demoProductImage(shape, hue)], { type: 'image/png' }), `harbour-tee-${shape}.png`);
    form.append('alt', alt);
    const res = await fetch(`${BASE}/v1/media`, { method: 'POST', headers: as, body: form });
    if (res.status !== 201) throw new Error(`POST /v1/media: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return ((await res.json()) as Json).data.id as string;
  };
  const pictures = [await picture('block', 205, 'Harbour Tee, folded'), await picture('stack', 30, 'Harbour Tee, both sizes stacked')];
  await call('PATCH', `/v1/products/${tee.id}`, { media_ids: pictures }, as);
  await shot('products', `/admin/stores/${store.id}/products`);
  // The tee in a manual collection, and a second one to add it to, for its page's Collections.
  const summerCollection = (await call('POST', '/v1/products/collections', { type: 'manual', title: 'Summer', product_ids: [tee.id] }, as)).data;
  await call('POST', '/v1/products/collections', { type: 'manual', title: 'Gifts under $30' }, as);
  await shot('product', `/admin/stores/${store.id}/products/${tee.id}`);
  await shot('product-image-remove', `/admin/stores/${store.id}/products/${tee.id}/images/${pictures[1]}/remove`);
  await shot('product-new', `/admin/stores/${store.id}/products/new`);
  await shot('collections', `/admin/stores/${store.id}/collections`);
  await shot('collection', `/admin/stores/${store.id}/collections/${summerCollection.id}`);
  await shot('locations', `/admin/stores/${store.id}/settings/locations`);

  await call('POST', `/v1/customers/${ada}/addresses`, { ...address, phone: '+44 117 496 0000' }, as);
  await call(
    'PATCH',
    `/v1/customers/${ada}`,
    { phone: '+44 117 496 0123', tags: ['vip', 'newsletter'], accepts_marketing: true, note: 'Prefers recycled packaging.' },
    as,
  );
  await shot('customers', `/admin/stores/${store.id}/customers`);
  await shot('customer', `/admin/stores/${store.id}/customers/${ada}`);
  await shot('customer-new', `/admin/stores/${store.id}/customers/new`);

  const coupon = (body: Record<string, unknown>) => call('POST', '/v1/coupons', body, as).then((r) => r.data.id as string);
  const summer = await coupon({
    code: 'SUMMER15',
    type: 'percentage',
    value: 15,
    usage_limit: 500,
    usage_limit_per_customer: 1,
    ends_at: '2030-09-01T00:00:00Z',
  });
  await coupon({ code: 'SHIPFREE', type: 'free_shipping', minimum_subtotal: 5000 });
  await coupon({ code: 'WELCOME5', type: 'fixed_amount', value: 500, active: false });
  await call('POST', '/v1/products/gift-cards', { initial_value: 5000, note: 'Raffle prize', expires_on: '2030-12-31' }, as);
  const card = (await call('POST', '/v1/products/gift-cards', { initial_value: 2500 }, as)).data.id as string;
  await shot('discounts', `/admin/stores/${store.id}/discounts`);
  await shot('coupon', `/admin/stores/${store.id}/discounts/coupons/${summer}`);
  await shot('gift-cards', `/admin/stores/${store.id}/discounts/gift-cards`);
  await shot('gift-card', `/admin/stores/${store.id}/discounts/gift-cards/${card}`);

  const about = (
    await call(
      'POST',
      '/v1/pages',
      { title: 'Our story', handle: 'about', body_html: '<p>Harbour Goods makes <strong>hard-wearing</strong> goods by the sea in Bristol.</p>' },
      as,
    )
  ).data.id as string;
  await call('POST', '/v1/pages', { title: 'Shipping and returns', body_html: '<p>We ship within two working days.</p>' }, as);
  await call('POST', '/v1/pages', { title: 'Winter sale', published: false }, as);
  const article = (
    await call(
      'POST',
      '/v1/articles',
      { title: 'The summer range is in', author: 'Ada Admin', published_at: '2026-06-01T09:00:00Z', body_html: '<p>Linen aprons and the new tee.</p>' },
      as,
    )
  ).data.id as string;
  await call('POST', '/v1/articles', { title: 'Caring for enamel', author: 'Ada Admin', published: false }, as);
  await call(
    'PUT',
    '/v1/menus/main-menu',
    {
      title: 'Main menu',
      items: [
        { title: 'Shop all', url: '/collections/all' },
        { title: 'Summer', url: `/collections/${summerCollection.handle}` },
        { title: 'Harbour Tee', url: `/products/${tee.handle}` },
        { title: 'Our story', url: '/pages/about' },
        { title: 'Instagram', url: 'https://instagram.com/harbourgoods' },
      ],
    },
    as,
  );
  await shot('content', `/admin/stores/${store.id}/content`);
  await shot('content-page', `/admin/stores/${store.id}/content/pages/${about}`);
  await shot('content-articles', `/admin/stores/${store.id}/content/articles`);
  await shot('content-article', `/admin/stores/${store.id}/content/articles/${article}`);
  await shot('content-menu', `/admin/stores/${store.id}/content/menu`);

  await call(
    'PUT',
    '/v1/shipping',
    {
      rates: [
        { code: 'standard', name: 'Royal Mail Tracked 48', price: 495, country_code: 'GB' },
        { code: 'standard', name: 'Free UK delivery', price: 0, country_code: 'GB', province_code: 'ENG', min_subtotal: 7500 },
        { code: 'world', name: 'International', price: 1800, country_code: '*' },
      ],
    },
    as,
  );
  await call('PUT', '/v1/taxes', { shipping_taxable: true, rates: [{ country_code: 'GB', name: 'VAT', rate_bps: 2000 }] }, as);
  await call('PUT', '/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `harbour-sandbox-${tag}-secret` } }, as);
  await call('PUT', '/v1/payments/providers/manual', { enabled: true, instructions: 'Pay by bank transfer within 7 days.' }, as);
  await call('PATCH', `/v1/stores/${store.id}`, { email_sender: { name: 'Harbour Goods', email: 'hello@harbour.example' } }, auth);
  await shot('settings', `/admin/stores/${store.id}/settings`);
  await shot('settings-store', `/admin/stores/${store.id}/settings/store`);
  await shot('settings-shipping', `/admin/stores/${store.id}/settings/shipping`);
  await shot('settings-taxes', `/admin/stores/${store.id}/settings/taxes`);
  await shot('settings-payments', `/admin/stores/${store.id}/settings/payments`);
  await shot('settings-notifications', `/admin/stores/${store.id}/settings/notifications`);
  await shot('settings-notification', `/admin/stores/${store.id}/settings/notifications/order_confirmation`);
  const hook = (body: Record<string, unknown>) => call('POST', '/v1/operations/webhook-subscriptions', body, as).then((r) => r.data.id as string);
  const erp = await hook({
    target_url: 'https://erp.example.com/emporium/hooks',
    event_types: ['order.created', 'order.cancelled', 'product.*'],
    description: 'ERP sync',
  });
  await hook({ target_url: 'https://hooks.example.com/analytics', event_types: ['*'], active: false });
  // The store changes an order once more; the webhooks worker makes its delivery to each webhook that asks for it (the ERP's fails: its host does not answer).
  await order({ customer_id: ada, financial_status: 'paid', line_items: [{ variant_id: shirt, quantity: 1 }] });
  let delivery: string | undefined;
  for (let i = 0; i < 40 && !delivery; i++) {
    delivery = (await call('GET', `/v1/operations/webhook-deliveries?subscription_id=${erp}`, undefined, as)).data[0]?.id as string | undefined;
    if (!delivery) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await shot('webhooks', `/admin/stores/${store.id}/settings/webhooks`);
  await shot('webhook', `/admin/stores/${store.id}/settings/webhooks/${erp}`);
  if (delivery) await shot('webhook-delivery', `/admin/stores/${store.id}/settings/webhooks/${erp}/deliveries/${delivery}`);
  // Apps (docs/admin.md, Apps): with SCREENSHOT_OPERATOR (an address in the platform's OPERATOR_EMAILS), the operator publishes three apps (as one developer: the operator's profile is one); the store installs one with an admin block and a Checkout Function that runs at checkout, and rates it.
  if (OPERATOR) {
    await call('POST', '/v1/auth/signup', { email: OPERATOR, password, name: 'Operator' });
    const operatorAuth = { authorization: `Bearer ${(await call('POST', '/v1/auth/signin', { email: OPERATOR, password })).data.session.token as string}` };
    const developer = { name: 'Parcel Labs', site: 'https://parcel-labs.example.com', email: 'apps@parcel-labs.example.com' };
    const handle = `label-printer-${tag}`;
    const printer = await publishApp(call, operatorAuth, developer, {
      name: 'Label Printer',
      handle,
      description:
        'Prints shipping labels and packing slips for your orders, with the carrier’s tracking number filled in.\nBatch-print a day’s orders in one go.',
      scopes: ['read_orders', 'write_orders', 'read_products'],
      embedded: { enabled: true, admin_path: '/admin' },
      bridge: { capabilities: ['api.fetch', 'toast', 'resize'] },
      extensions: [
        { kind: 'admin_ui', handle: 'order-label', name: 'Order label', target: 'admin.order.details', config: {} },
        {
          kind: 'checkout_function',
          handle: 'no-international-express',
          name: 'No international shipping for oversize parcels',
          target: 'shipping',
          config: { program: { eachKey: { operations: { preserve: [{ hide: 'world' }] } } } },
        },
      ],
    });
    await publishApp(call, operatorAuth, developer, {
      name: 'Stock Sync',
      handle: `stock-sync-${tag}`,
      description: 'Keeps your stock levels in line with your warehouse, every five minutes.',
      scopes: ['read_inventory', 'write_inventory', 'read_products'],
    });
    await publishApp(call, operatorAuth, developer, {
      name: 'Star Reviews',
      handle: `star-reviews-${tag}`,
      description: 'Collects product reviews after delivery and shows the stars on your product pages.',
      scopes: ['read_orders', 'read_products', 'read_reviews', 'write_reviews'],
    });
    await installApp(call, auth, { appId: printer.app.id, handle, storeId: store.id, scopes: ['read_orders', 'read_products'] });
    const installation = (await call('GET', '/v1/app-store/installations', undefined, as)).data[0].id as string;
    await call(
      'POST',
      `/v1/app-store/apps/${printer.app.id}/reviews`,
      { store_id: store.id, rating: 5, title: 'Saves an hour a day', body: 'Labels for the whole morning’s orders in one click.' },
      auth,
    );
    const fn = (await call('GET', `/v1/app-store/installations/${installation}/extensions`, undefined, as)).data.functions[0];
    await call('PATCH', `/v1/app-store/installations/${installation}/functions/${fn.id}`, { state: 'enabled', version: fn.version }, as);
    const cart = (await call('POST', `/v1/storefront/${store.subdomain}/cart`, { lines: [{ variant_id: shirt, quantity: 1 }] })).data.token as string;
    for (const country of ['GB', 'FR', 'US']) {
      await call('GET', `/v1/storefront/${store.subdomain}/cart/checkout-options?country_code=${country}`, undefined, { 'x-cart-token': cart });
    }
    await shot('app-store', `/admin/stores/${store.id}/app-store`);
    await shot('app-listing', `/admin/stores/${store.id}/app-store/${printer.app.id}`);
    await shot('apps', `/admin/stores/${store.id}/apps`);
    await shot('app-settings', `/admin/stores/${store.id}/apps/${handle}/settings`);
    await shot('app-uninstall', `/admin/stores/${store.id}/apps/${handle}/uninstall`);
    await shot('app-extensions', `/admin/stores/${store.id}/apps/${handle}/extensions`);
    await shot('app-function-runs', `/admin/stores/${store.id}/apps/${handle}/extensions/${fn.id}/runs`);
  } else console.log('SCREENSHOT_OPERATOR not set: no Apps screenshots (start the platform with OPERATOR_EMAILS=<it> and set it here)');
  // Exports (docs/admin.md, Exports): the Export page with the list's search; an export caught
  // under way, before the bulk worker (polling every 2 s) has finished it (`refresh=off`: the page
  // holds still while it is shot); the same once completed; the store's exports.
  await shot('export-new', `/admin/stores/${store.id}/exports/new?kind=products&query=Harbour`);
  await page.goto(`${BASE}/admin/stores/${store.id}/exports/new?kind=products`);
  await page.getByRole('button', { name: 'Start export' }).click();
  await page.waitForURL(/\/exports\/[0-9a-f]{24}$/);
  const exported = page.url().split('/').pop()!;
  await shot('export-running', `/admin/stores/${store.id}/exports/${exported}?refresh=off`);
  if (!(await page.getByRole('button', { name: 'Cancel export' }).count())) console.warn('the export had finished before its running page was shot');
  const exportDone = async (id: string) => {
    for (let i = 0; i < 120; i++) {
      if ((await call('GET', `/v1/bulk-operations/${id}`, undefined, as)).data.status === 'completed') return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`export ${id} did not complete`);
  };
  await exportDone(exported);
  await shot('export', `/admin/stores/${store.id}/exports/${exported}`);
  const customersExport = (await call('POST', '/v1/bulk-operations', { query: '{ customers { nodes { id email } } }' }, as)).data.id as string;
  await exportDone(customersExport);
  await shot('exports', `/admin/stores/${store.id}/exports`);
  await shot('account', '/admin/account');

  // Online store and the theme editor (src/dev/admin-screenshot-themes.ts).
  await shootThemes({ call, auth, as, store, tag, password, page, shot });
  // The embedded app host and an admin_ui extension (docs/admin.md, The embedded app host): the example app of
  // docs/app-bridge.md served on this machine as a partner's, published by the operator, installed with read_products.
  if (OPERATOR) {
    const operator = { authorization: `Bearer ${(await call('POST', '/v1/auth/signin', { email: OPERATOR, password })).data.session.token}` };
    const partnerApp = await servePage('127.0.0.1', exampleAppPage());
    try {
      const handle = `stock-helper-${tag}`;
      const developer = { name: 'Stock Helper', site: 'https://stock-helper.example.com', email: 'apps@stock-helper.example.com' };
      const submitted = await publishApp(call, operator, developer, {
        name: 'Stock Helper',
        handle,
        description: 'Keeps an eye on what is running low.',
        scopes: ['read_products'],
        webhooks: { topics: ['app.uninstalled'] },
        support_url: `${developer.site}/support`,
        bridge: { capabilities: ['api.fetch', 'toast', 'resize'] },
        extensions: [{ kind: 'admin_ui', handle: 'stock-panel', name: 'Stock panel', target: 'admin.product.details' }],
      });
      await installApp(call, auth, { appId: submitted.app.id, handle, storeId: store.id, scopes: ['read_products'] });
      const [installed] = (await call('GET', '/v1/app-store/installations', undefined, as)).data.filter((i: Json) => i.app_id === submitted.app.id);
      await call('PATCH', `/v1/app-store/installations/${installed.id}/embedding`, { embed_url: `${partnerApp.origin}/app` }, as);
      // Each width shot once the frames have fitted themselves to it (the app resizes through the bridge), with the app's toast showing.
      const shootHosted = async (path: string, name: string) => {
        await page.goto(BASE + path);
        await page.frameLocator('iframe.app-frame').first().locator('li').first().waitFor();
        const heights = "[...document.querySelectorAll('iframe.app-frame')].map((f) => f.style.height).join()";
        for (const width of SCREENSHOT_WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          // Polled through the DevTools protocol (the page's CSP forbids the eval waitForFunction needs): settled when unchanged for 400 ms.
          for (let i = 0, last = ''; i < 50; i++) {
            await page.waitForTimeout(400);
            const now = String(await page.evaluate(heights));
            if (now === last && !now.split(',').includes('')) break;
            last = now;
          }
          // One toast in the shot: the last width's gone first.
          if (await page.locator('.app-toast').count()) await page.locator('.app-toast').first().waitFor({ state: 'detached' });
          // A click while the frame's document is still settling (a second handshake on a busy machine) may be lost: ask again.
          for (let attempt = 1; ; attempt++) {
            await page.frameLocator('iframe.app-frame').first().getByRole('button', { name: 'Say hello' }).click();
            const shown = await page
              .locator('.app-toast')
              .first()
              .waitFor({ timeout: 10_000 })
              .then(() => true)
              .catch(() => false);
            if (shown) break;
            if (attempt === 3) throw new Error(`${path}: the app's toast did not show after 3 clicks`);
          }
          const file = `${OUT}admin-${name}${width === SCREENSHOT_WIDTHS[0] ? '' : `-${width}`}.png`;
          await page.screenshot({ path: file, fullPage: true });
          console.log(`saved ${file.slice(file.indexOf('docs/'))}`);
        }
        await page.setViewportSize({ width: SCREENSHOT_WIDTHS[0], height: 900 });
      };
      await shootHosted(`/admin/stores/${store.id}/apps/${handle}`, 'app');
      await shootHosted(`/admin/stores/${store.id}/products/${tee.id}`, 'product-extension');
    } finally {
      await partnerApp.close();
    }
  } else console.log('SCREENSHOT_OPERATOR not set: no embedded app screenshots (start the platform with OPERATOR_EMAILS=<it> and set it here)');
} finally {
  await browser.close();
}
