import { apiClient } from './api-client.js';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { CODE_CHALLENGE, installApp, publishApp } from './screenshot-apps.js';
import { shootAtWidths } from './screenshot-widths.js';

/**
 * Part of `npm run screenshot` (docs/console.md, Screenshots): the merchant's sign-in and the
 * OAuth consent page, in a real browser, against a running platform (BASE_URL, default
 * http://localhost:3000). Saves docs/screenshots/console-sign-in.png (and -390.png, a phone's width, as every shot here),
 * auth-signup, auth-signup-errors, auth-password-reset, auth-password-reset-sent and
 * auth-password-new always; with
 * SCREENSHOT_OPERATOR set to an address in the platform's OPERATOR_EMAILS, it also publishes an
 * app, signs a merchant in through the page and saves the consent for a first install
 * (oauth-consent.png) and for a re-authorization of the installed app that adds and removes
 * scopes (oauth-consent-update.png).
 */
const BASE = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const OUT = new URL('../../../docs/screenshots/', import.meta.url).pathname;
const OPERATOR = process.env.SCREENSHOT_OPERATOR;
const unique = randomBytes(3).toString('hex');

const call = apiClient(BASE);
const PARCEL_LABS = { name: 'Parcel Labs', site: 'https://parcel-labs.example.com', email: 'apps@parcel-labs.example.com' };

async function account(email: string, name: string): Promise<{ email: string; password: string; auth: Record<string, string> }> {
  const password = 'screenshot password';
  await call('POST', '/v1/auth/signup', { email, password, name });
  const token: string = (await call('POST', '/v1/auth/signin', { email, password })).data.session.token;
  return { email, password, auth: { authorization: `Bearer ${token}` } };
}

const shot = (page: Page, name: string) => shootAtWidths(page, `${OUT}${name}`);

mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await shot(page, 'console-sign-in');
  // Sign-up and password reset (docs/auth.md, The pages): the forms, a refused form, a request sent, the emailed link's page.
  await page.goto(`${BASE}/signup`);
  await shot(page, 'auth-signup');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill('ada.lovelace@example');
  await page.getByLabel('Password').fill('short');
  await page.locator('form[action="/signup"]').evaluate((form) => form.setAttribute('novalidate', ''));
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create account' }).click()]);
  await shot(page, 'auth-signup-errors');
  await page.goto(`${BASE}/password/reset`);
  await shot(page, 'auth-password-reset');
  await page.getByLabel('Email').fill(`nobody-${unique}@example.com`);
  await Promise.all([page.waitForURL((u) => u.pathname === '/password/reset'), page.getByRole('button', { name: 'Email me a link' }).click()]);
  await shot(page, 'auth-password-reset-sent');
  await page.goto(`${BASE}/password/reset/new?token=emp_reset_${'x'.repeat(43)}`);
  await shot(page, 'auth-password-new');

  if (OPERATOR) {
    const operator = await account(OPERATOR, 'Operator');
    const handle = `label-maker-${unique}`;
    const redirectUri = `https://${handle}.example.com/oauth/callback`;
    const submitted = await publishApp(call, operator.auth, PARCEL_LABS, {
      name: 'Label Maker',
      handle,
      description: 'Shipping labels and packing slips for every order.',
      scopes: ['read_products', 'read_orders', 'write_orders', 'read_customers', 'write_app_metadata'],
    });
    const clientId: string = submitted.credentials.oauth_client_id;

    const merchant = await account(`ada-${unique}@example.com`, 'Ada');
    const store = (await call('POST', '/v1/stores', { name: 'Lumen & Loom', subdomain: `lumen-${unique}` }, merchant.auth)).data;
    const authorizeUrl = (scope: string) =>
      `${BASE}/v1/app-store/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope,
        state: 'screenshot',
        code_challenge: CODE_CHALLENGE,
        code_challenge_method: 'S256',
        store_id: store.id,
        webhook_url: `https://${handle}.example.com/webhooks`,
      }).toString()}`;

    // Signed out, the install sends the merchant to sign in first.
    const merchantPage = await (await browser.newContext({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 })).newPage();
    await merchantPage.goto(authorizeUrl('read_products read_orders write_app_metadata'));
    await merchantPage.getByLabel('Email', { exact: true }).first().fill(merchant.email);
    await merchantPage.getByLabel('Password').fill(merchant.password);
    await Promise.all([
      merchantPage.waitForURL((u) => u.pathname === '/v1/app-store/oauth/authorize'),
      merchantPage.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await shot(merchantPage, 'oauth-consent');

    // Installed with those scopes; the app then asks for write_orders and read_customers, and no longer for its metadata.
    await installApp(call, merchant.auth, {
      appId: submitted.app.id,
      handle,
      storeId: store.id,
      scopes: ['read_products', 'read_orders', 'write_app_metadata'],
    });
    await merchantPage.goto(authorizeUrl('read_products write_orders read_customers'));
    await shot(merchantPage, 'oauth-consent-update');
  }
} finally {
  await browser.close();
}
