import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { apiClient } from './api-client.js';
import { launchChromium } from './chromium.js';
import { adminShooter, shootAtWidths } from './screenshot-widths.js';

/**
 * `npm run screenshot:notifications` (docs/notifications.md): Settings → Notifications, a
 * notification's edit page with its preview, and the order confirmation email itself, at 1280 and
 * 390 px, against a running platform (`npm start`; BASE_URL, default http://localhost:3000). It
 * makes a merchant and a store with an order through the API and saves
 * docs/screenshots/admin-settings-notification*.png and docs/screenshots/email-order-confirmation*.png.
 * (`npm run screenshot:admin` shoots the two admin pages too, among all the others.)
 */
const BASE = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const OUT = new URL('../../../docs/screenshots/', import.meta.url).pathname;
const call = apiClient(BASE);
const tag = randomBytes(3).toString('hex');

const email = `notify-shots-${tag}@example.com`;
const password = 'screenshot password';
await call('POST', '/v1/auth/signup', { email, password, name: 'Ada Admin' });
const token = (await call('POST', '/v1/auth/signin', { email, password })).data.session.token as string;
const auth = { authorization: `Bearer ${token}` };
const store = (await call('POST', '/v1/stores', { name: 'Harbour Goods', subdomain: `harbour-${tag}`, currency: 'USD' }, auth)).data;
const as = { ...auth, 'x-store-id': store.id as string };
await call('PATCH', `/v1/stores/${store.id}`, { email_sender: { name: 'Harbour Goods', email: 'hello@harbour.example' } }, auth);
await call(
  'POST',
  '/v1/orders',
  {
    email: 'sam@example.com',
    financial_status: 'paid',
    line_items: [
      { title: 'Sea-salt soap', price: 900, quantity: 2 },
      { title: 'Linen tea towel', price: 1450, quantity: 1 },
    ],
    shipping_address: { first_name: 'Sam', last_name: 'Shopper', address1: '1 Quay Street', city: 'Bristol', zip: 'BS1 4DJ', country_code: 'GB' },
  },
  as,
);

mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  const { page, shot } = await adminShooter(browser, BASE, token, OUT);
  await shot('settings-notifications', `/admin/stores/${store.id}/settings/notifications`);
  // The preview's frame is painted only where the window shows it: the window as tall as the page.
  await page.setViewportSize({ width: 1280, height: 2800 });
  await shot('settings-notification', `/admin/stores/${store.id}/settings/notifications/order_confirmation`);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The email as a mail client shows it: the preview's whole HTML, alone.
  const preview = (await call('POST', '/v1/notifications/order_confirmation/preview', { order: 'latest' }, as)).data;
  await page.setContent(preview.html as string);
  await shootAtWidths(page, `${OUT}email-order-confirmation`);
} finally {
  await browser.close();
}
