import { apiClient, type Json } from './api-client.js';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { launchChromium } from './chromium.js';
import { shootAtWidths } from './screenshot-widths.js';
import { themeFixture } from './theme-fixtures.js';

/**
 * `npm run screenshot:console` (docs/console.md, Screenshots): each page of the operator console
 * in a real browser. Against a running platform (`npm start`; BASE_URL, default
 * http://localhost:3000) whose OPERATOR_EMAILS includes SCREENSHOT_OPERATOR (without it, nothing
 * is saved: `npm run screenshot` runs this as its third step), it signs the operator up (or in), gives the console something to show
 * through the API (a store with a webhook subscription to a closed port, so its deliveries fail
 * and retry; an incident; a health gate; a theme upload for the themes worker to check; an app
 * version submitted for review), puts the session in the browser's `emporium_session` cookie,
 * and saves docs/screenshots/console-<page>.png for every page (headless Chromium, as
 * `npm run screenshot`).
 */
const BASE = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const OPERATOR = process.env.SCREENSHOT_OPERATOR ?? '';
if (!OPERATOR) {
  console.log('SCREENSHOT_OPERATOR not set: no console screenshots (start the platform with OPERATOR_EMAILS=<it> and set it here)');
  process.exit(0);
}
// The screenshot scripts' one password, so the operator each signs up (or in) is the same account.
const PASSWORD = 'screenshot password';
const OUT = new URL('../../../docs/screenshots/', import.meta.url).pathname;

const call = apiClient(BASE);

async function session(email: string, password: string): Promise<string> {
  await call('POST', '/v1/auth/signup', { email, password, name: email.split('@')[0] }).catch(() => undefined);
  return (await call('POST', '/v1/auth/signin', { email, password })).data.session.token as string;
}

const tag = randomBytes(3).toString('hex');
const operator = await session(OPERATOR, PASSWORD);
const asOperator = { authorization: `Bearer ${operator}` };
// A merchant with a store whose webhook target is down: its deliveries fail and retry.
const merchant = await session(`console-merchant-${tag}@example.com`, 'merchant password 123');
const asMerchant = { authorization: `Bearer ${merchant}` };
const store = (await call('POST', '/v1/stores', { name: `Console demo ${tag}`, subdomain: `console-${tag}` }, asMerchant)).data;
const inStore = { ...asMerchant, 'x-store-id': store.id as string };
await call('POST', '/v1/operations/webhook-subscriptions', { target_url: 'http://127.0.0.1:9/orders', event_types: ['store.updated'] }, inStore);
for (let i = 0; i < 3; i++) await call('PATCH', `/v1/stores/${store.id}`, { name: `Console demo ${tag} ${i}` }, inStore).catch(() => undefined);
// An incident, a health gate, a blocked range, a theme for review, an app version for review.
await call(
  'POST',
  '/v1/operations/runtime/incidents',
  { title: 'Checkout latency above 2 s in eu-west', severity: 'warning', note: 'Watching the payment provider’s status page' },
  asOperator,
);
await call('POST', '/v1/operations/runtime/deployment-health-gates', { label: `release ${tag}` }, asOperator);
// An address range blocked for an hour: the security page's enforcement in force.
await call(
  'POST',
  '/v1/operations/runtime/security/enforcement-events',
  { action: 'block_address_range', cidr: '203.0.113.0/24', reason: 'credential stuffing from this range', expires_in_minutes: 60 },
  { ...asOperator, 'idempotency-key': `console-shot-${tag}` },
);
const aurora = themeFixture('aurora') as Json;
aurora.package.slug = `harbor-${tag}`;
const upload = (await call('POST', '/v1/themes/packages/upload', { bundle: aurora }, asMerchant)).data;
await call(
  'POST',
  '/v1/app-store/developers/register',
  {
    name: 'Northwind Apps',
    contact_email: 'partners@northwind.example',
    website_url: 'https://northwind.example',
    support_url: 'https://northwind.example/support',
    privacy_policy_url: 'https://northwind.example/privacy',
  },
  asMerchant,
).catch(() => undefined);
await call(
  'POST',
  '/v1/app-store/developers/apps',
  {
    manifest: {
      schema_version: '2026-06-05.ws13',
      name: 'Reorder Reminders',
      handle: `reorder-${tag}`,
      version: '1.0.0',
      description: 'Reminds shoppers to reorder what runs out.',
      app_url: 'https://reorder.northwind.example/app',
      redirect_urls: ['https://reorder.northwind.example/oauth/callback'],
      scopes: ['read_orders', 'read_customers'],
      webhooks: { topics: ['app.uninstalled'] },
      privacy_policy_url: 'https://northwind.example/privacy',
      support_url: 'https://northwind.example/support',
    },
  },
  asMerchant,
).catch((err: Error) => console.error(`no app submitted: ${err.message}`));
// The themes worker checks the upload.
for (let i = 0; i < 60; i++) {
  const review = (await call('GET', `/v1/operations/theme-reviews/${upload.review_record.id}`, undefined, asOperator)).data;
  if (review.status !== 'pending_checks') break;
  await new Promise((r) => setTimeout(r, 500));
}

mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await context.addCookies([{ name: 'emporium_session', value: operator, url: BASE, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  const shot = async (name: string, path: string) => {
    const res = await page.goto(BASE + path);
    if (!res || res.status() !== 200) throw new Error(`${path}: ${res?.status()}`);
    await shootAtWidths(page, `${OUT}console-${name}`);
  };
  /** The first link of the page's table to a path under `prefix`, if any. */
  const first = async (prefix: string) => {
    const links = page.locator(`main table a[href^="${prefix}"]`);
    return (await links.count()) ? links.first().getAttribute('href') : null;
  };
  await shot('overview', '/console');
  await shot('jobs', '/console/jobs');
  const firstJob = await first('/console/jobs/');
  if (firstJob) await shot('job', firstJob);
  await shot('deliveries', '/console/deliveries');
  const firstDelivery = await first('/console/deliveries/');
  if (firstDelivery) await shot('delivery', firstDelivery);
  await shot('incidents', '/console/incidents?status=active');
  const firstIncident = await first('/console/incidents/');
  if (firstIncident) await shot('incident', firstIncident);
  await shot('gates', '/console/gates');
  await shot('security', '/console/security');
  await shot('readiness', '/console/readiness');
  await shot('reviews', '/console/reviews');
  const firstApp = await first('/console/reviews/apps/');
  await shot('theme-review', `/console/reviews/themes/${upload.review_record.id}`);
  if (firstApp) await shot('app-review', firstApp);
} finally {
  await browser.close();
}
