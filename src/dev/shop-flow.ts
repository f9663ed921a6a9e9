import type { Locator, Page, Response } from 'playwright-core';

/**
 * A shopper's way through a shop (docs/shop.md) in a real browser, one step a function: the
 * browser tests (test/storefront/shop-browser.test.ts) and `npm run screenshot` both drive these.
 * Each step clicks what a shopper clicks (the contract's button texts and links), waits for the
 * page the contract says comes next, and throws an error naming the step, the status and the page
 * it got instead. Every step works with JavaScript disabled: the forms are plain HTML forms.
 */

/** `http://<subdomain>.<baseDomain>:<port><path>`: a store's own URL (docs/shop.md, Host routing). */
export function shopUrl(subdomain: string, port: number | string, path = '/', baseDomain = 'localhost'): string {
  return `http://${subdomain}.${baseDomain}:${port}${path}`;
}

export type Shopper = {
  email: string;
  first_name: string;
  last_name: string;
  address1: string;
  address2?: string;
  city: string;
  province_code?: string;
  zip: string;
  country_code: string;
  phone?: string;
};

/** The shopper the browser tests and the screenshots check out as (an address in New York). */
export const SAMPLE_SHOPPER = (email: string): Shopper => ({
  email,
  first_name: 'Ada',
  last_name: 'Lovelace',
  address1: '12 Hudson Street',
  city: 'New York',
  province_code: 'NY',
  zip: '10013',
  country_code: 'US',
  phone: '+12125550100',
});

const STEP_TIMEOUT_MS = 15_000;

async function pageText(page: Page): Promise<string> {
  const text = await page
    .locator('body')
    .innerText({ timeout: 2_000 })
    .catch(() => '');
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}

/** The step's failure: what it did, what it wanted, and where it landed. */
async function stepFailed(page: Page, step: string, wanted: string, status: number | null): Promise<Error> {
  return new Error(`${step}: wanted ${wanted}, got ${status ?? 'no response'} at ${page.url()}: ${await pageText(page)}`);
}

/** Opens `url` and expects a 200 HTML page. */
export async function open(page: Page, url: string, step = `GET ${new URL(url).pathname}`): Promise<Response> {
  const res = await page.goto(url, { timeout: STEP_TIMEOUT_MS });
  if (!res || res.status() !== 200) throw await stepFailed(page, step, '200', res?.status() ?? null);
  return res;
}

/**
 * Clicks `target` (a link or a form's button) and waits for the document it leads to (after any
 * 303); expects a 200 at a path matching `to`. Answers the final response.
 */
export async function follow(page: Page, target: Locator, to: RegExp, step: string): Promise<Response> {
  const final = page.waitForResponse((r) => r.request().isNavigationRequest() && r.frame() === page.mainFrame() && (r.status() < 300 || r.status() >= 400), {
    timeout: STEP_TIMEOUT_MS,
  });
  await target.click({ timeout: STEP_TIMEOUT_MS });
  const res = await final.catch(() => null);
  await page.waitForLoadState('load').catch(() => undefined);
  if (!res || res.status() !== 200 || !to.test(new URL(page.url()).pathname)) {
    throw await stepFailed(page, step, `200 at a path matching ${to}`, res?.status() ?? null);
  }
  return res;
}

/** A button by its text (a `<button>` or an `<input type=submit>`), the first one on the page. */
export function button(page: Page | Locator, name: string): Locator {
  return page.getByRole('button', { name, exact: true }).first();
}

/** A link or button by its text ("Check out" may be either). */
export function linkOrButton(page: Page, name: string): Locator {
  return page
    .getByRole('button', { name, exact: true })
    .or(page.getByRole('link', { name, exact: true }))
    .first();
}

/** Sets a form field by its name: a `<select>` by value, a radio or checkbox by value, anything else typed. Answers false when the page prints no such field. */
export async function setField(scope: Page | Locator, name: string, value: string): Promise<boolean> {
  const select = scope.locator(`select[name="${name}"]`).first();
  if ((await select.count()) > 0) {
    await select.selectOption(value);
    return true;
  }
  const choice = scope.locator(`input[name="${name}"][type="radio"], input[name="${name}"][type="checkbox"]`);
  if ((await choice.count()) > 0) {
    await scope.locator(`input[name="${name}"][value="${value}"]`).first().check();
    return true;
  }
  const field = scope.locator(`input[name="${name}"]:not([type="hidden"]), textarea[name="${name}"]`).first();
  if ((await field.count()) === 0) return false;
  await field.fill(value);
  return true;
}

/** Home, then the first link to one of `handles`' collections (the theme's own link). */
export async function homeToCollection(page: Page, home: string, handles: string[]): Promise<Response> {
  await open(page, home, 'home');
  const selector = handles.map((h) => `a[href$="/collections/${h}"]`).join(', ');
  // The first one a shopper sees: a phone's closed menu holds links too.
  const link = page.locator(selector).filter({ visible: true }).first();
  if ((await link.count()) === 0) throw await stepFailed(page, 'home → collection', `a link to /collections/(${handles.join('|')})`, 200);
  return follow(page, link, /^\/collections\/[^/]+$/, 'home → collection');
}

/** On a collection (or any page listing products): the link to the product `handle`. */
export async function collectionToProduct(page: Page, handle: string): Promise<Response> {
  const link = page.locator(`a[href$="/products/${handle}"]`).filter({ visible: true }).first();
  if ((await link.count()) === 0) throw await stepFailed(page, 'collection → product', `a link to /products/${handle}`, 200);
  return follow(page, link, new RegExp(`^/products/${handle}$`), 'collection → product');
}

/** On a product page: "Add to cart" (its form posts /cart/add), then the cart. */
export async function addToCart(page: Page): Promise<Response> {
  return follow(page, button(page, 'Add to cart'), /^\/cart$/, 'Add to cart');
}

/** The cart's line forms (each posts /cart/change with an Update button); the one whose text or row names `title` first. */
export async function cartLineForm(page: Page, title?: string): Promise<Locator> {
  const forms = page.locator('form').filter({ has: page.getByRole('button', { name: 'Update', exact: true }) });
  if (title) {
    const named = forms.filter({ hasText: title });
    if ((await named.count()) > 0) return named.first();
  }
  return forms.first();
}

/** On the cart: a line's quantity changed and "Update", then the cart again. */
export async function updateQuantity(page: Page, quantity: number, title?: string): Promise<Response> {
  const form = await cartLineForm(page, title);
  if ((await form.count()) === 0) throw await stepFailed(page, 'cart Update', 'a line form with an Update button', 200);
  await form.locator('[name="quantity"]').first().fill(String(quantity));
  return follow(page, button(form, 'Update'), /^\/cart$/, `cart Update to ${quantity}`);
}

/** On the cart: "Check out", then the checkout's contact and address page. */
export async function checkOut(page: Page): Promise<Response> {
  return follow(page, linkOrButton(page, 'Check out'), /^\/checkout$/, 'Check out');
}

/** On /checkout: the shopper's contact and address, "Continue to shipping", then the shipping step. */
export async function fillInformation(page: Page, shopper: Shopper): Promise<Response> {
  // The country first: the province field is the country's (its subdivisions to choose from).
  const { country_code, ...rest } = shopper;
  for (const [name, value] of Object.entries({ country_code, ...rest })) {
    if (typeof value !== 'string') continue;
    const set = await setField(page, name, value);
    if (!set && ['email', 'address1', 'city', 'country_code'].includes(name)) {
      throw await stepFailed(page, 'checkout information', `a field named ${name}`, 200);
    }
  }
  // Without JavaScript the province list is the preselected country's: sent with another country,
  // the form comes back (400) with that country's provinces and what was typed, to choose again.
  const province = shopper.province_code;
  if (province && (await page.locator(`select[name="province_code"] option[value="${province}"]`).count()) === 0) {
    await Promise.all([page.waitForLoadState('load'), page.waitForURL(/\/checkout\/information$/), button(page, 'Continue to shipping').click()]);
    if (!(await setField(page, 'province_code', province))) throw await stepFailed(page, 'checkout information', `a province field with ${province}`, 400);
  }
  return follow(page, button(page, 'Continue to shipping'), /^\/checkout\/shipping$/, 'Continue to shipping');
}

/** On /checkout/shipping: picks the shipping option and payment provider (by value) when the page offers a choice. */
export async function chooseShipping(page: Page, choice: { shipping_option?: string; payment_provider?: string }): Promise<void> {
  if (choice.shipping_option) await setField(page, 'shipping_option', choice.shipping_option);
  if (choice.payment_provider) await setField(page, 'payment_provider', choice.payment_provider);
}

/** "Place order", then the payment step: answers the order's id (from the URL). */
export async function placeOrder(page: Page): Promise<string> {
  await follow(page, button(page, 'Place order'), /^\/checkout\/orders\/[^/]+\/payment$/, 'Place order');
  return new URL(page.url()).pathname.split('/')[3]!;
}

/** On the payment step: "Pay now", then the confirmation; answers the order number it names (`Order #1001`). */
export async function payNow(page: Page): Promise<string> {
  await follow(page, button(page, 'Pay now'), /^\/checkout\/orders\/[^/]+$/, 'Pay now');
  const text = await pageText(page);
  const number = /Order #\s*([0-9A-Za-z-]+)/.exec(text);
  if (!/Thank you/.test(text) || !number) throw await stepFailed(page, 'confirmation', '"Thank you" and "Order #<number>"', 200);
  return number[1]!;
}

/** /account/register: a new customer account ("Create account"), then /account. */
export async function register(
  page: Page,
  url: string,
  customer: { first_name: string; last_name: string; email: string; password: string },
): Promise<Response> {
  await open(page, url, 'GET /account/register');
  for (const [name, value] of Object.entries(customer)) {
    if (!(await setField(page, name, value))) throw await stepFailed(page, 'register', `a field named ${name}`, 200);
  }
  return follow(page, button(page, 'Create account'), /^\/account$/, 'Create account');
}
