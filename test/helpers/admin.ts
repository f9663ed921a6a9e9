import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { axeViolations, blockingViolations, describeViolations } from './browser.js';
import type { TestApp } from './app.js';
import type { GivenMerchant } from './factories.js';
import { csrfIn, ShopBrowser, type ShopResponse } from './shop.js';

/**
 * A merchant's browser on the platform's host (docs/admin.md): its cookies kept, no redirects
 * followed, signed in through the real /login form, as a merchant does.
 */
export class AdminBrowser extends ShopBrowser {
  /** The CSRF token of the page's own forms (in `<main>`; the top bar's Log out carries one too). */
  static csrfOf(page: ShopResponse): string {
    const token = csrfIn(page.html.slice(page.html.indexOf('<main')));
    expect(token, 'a page with a form').to.be.a('string');
    return token!;
  }

  /** POST a page's form: the CSRF token of the page at `from` (GET first), then the fields. */
  async submit(from: string, action: string, fields: Record<string, string>): Promise<ShopResponse> {
    const page = await this.get(from);
    expect(page.status, `GET ${from}`).to.equal(200);
    return this.post(action, { csrf_token: AdminBrowser.csrfOf(page), ...fields });
  }

  /** POST a file form (multipart/form-data, as a browser sends one): its text fields, and `file` (none: an empty part, as no file chosen). */
  async upload(
    action: string,
    fields: Record<string, string>,
    file: { bytes: Buffer; filename: string; type?: string } | null,
    headers: Record<string, string> = {},
  ): Promise<ShopResponse> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob(file ? [file.bytes] : [], { type: file?.type ?? 'application/octet-stream' }), file?.filename ?? '');
    const request = new Request('http://admin.test/', { method: 'POST', body: form });
    const raw = { type: request.headers.get('content-type')!, bytes: Buffer.from(await request.arrayBuffer()) };
    return this.send('POST', action, { raw, headers });
  }
}

/** A browser signed in as the merchant through /login (the login cookie, its CSRF token, the password form). */
export async function signedInAdmin(app: TestApp, merchant: Pick<GivenMerchant, 'email' | 'password'>): Promise<AdminBrowser> {
  const browser = new AdminBrowser(app.url, '127.0.0.1');
  const form = await browser.get('/login?return_to=%2Fadmin');
  expect(form.status).to.equal(200);
  const signedIn = await browser.post('/login', { csrf_token: csrfIn(form.html)!, email: merchant.email, password: merchant.password, return_to: '/admin' });
  expect(signedIn.status, signedIn.html.slice(0, 400)).to.equal(303);
  return browser;
}

/** Sign in through /login in Chromium, as a merchant does, landing on the store's Home. */
export async function signInInBrowser(
  page: Page,
  app: TestApp,
  shop: { merchant: Pick<GivenMerchant, 'email' | 'password'>; store: { id: string } },
): Promise<void> {
  await page.goto(`${app.url}/login`);
  const signIn = page.locator('form[action="/login"]');
  await signIn.getByLabel('Email').fill(shop.merchant.email);
  await signIn.getByLabel('Password').fill(shop.merchant.password);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**/admin/stores/${shop.store.id}`);
}

/** A page in Chromium fits at 1280 and at 390 px (nothing wider than the window) and axe finds nothing serious at either. */
export async function fitsAndPasses(page: Page): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect(overflow, `${page.url()} at ${width} px`).to.equal(0);
    const blocking = blockingViolations(await axeViolations(page));
    expect(blocking, `${page.url()} at ${width} px: ${describeViolations(blocking)}`).to.deep.equal([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
