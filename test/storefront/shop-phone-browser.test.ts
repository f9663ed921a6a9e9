import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import {
  addToCart,
  checkOut,
  fillInformation,
  follow,
  open,
  payNow,
  placeOrder,
  register,
  SAMPLE_SHOPPER,
  shopUrl,
  chooseShipping,
} from '../../src/dev/shop-flow.js';
import { useTestApp } from '../helpers/app.js';
import { axeViolations, blockingViolations, describeViolations, useBrowser } from '../helpers/browser.js';
import { useWebProcess } from '../helpers/processes.js';
import { givenShopWithTheme, type ThemedShop } from '../helpers/themed-shop.js';

/**
 * The shop on a phone (docs/shop.md, "On a phone"): for both fixture themes, every shop page (the
 * theme's, and the shop's own: checkout, account, login, 404) at 320, 390 and 1280 px has no
 * horizontal scroll and no element wider than the viewport or clipped sideways; the `<details>`
 * menu opens (mouse and keyboard) and its links work; a signed-in customer sees no "Log in"; axe-core
 * finds no serious, critical or contrast failures at 390 and 1280 px.
 */
describe('The shop on a phone and a desktop (Chromium, 320–1280 px)', () => {
  const { app, api } = useTestApp('shop_phone');
  const web = useWebProcess(app);
  const chromium = useBrowser();
  const WIDTHS = [320, 390, 1280];
  const unique = () => randomBytes(4).toString('hex');

  /**
   * What does not fit the viewport, as text naming each element: the document's scroll width, any
   * element wider than the viewport or reaching past its right edge (not inside a box that scrolls
   * or clips on its own), any box whose content is cut off sideways (`overflow: hidden` narrower
   * than its content).
   */
  const overflowing = async (page: Page) => (await page.evaluate(OVERFLOWING)) as string[];

  /** The page at each width: what does not fit, and (at 390 and 1280) axe-core's blocking violations. */
  async function check(page: Page, label: string, problems: string[], axe = true): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      const wide = await overflowing(page);
      if (wide.length) problems.push(`${label} at ${width}px (${new URL(page.url()).pathname}):\n  ${wide.join('\n  ')}`);
      if (axe && width !== 320) {
        const blocking = blockingViolations(await axeViolations(page));
        if (blocking.length) problems.push(`${label} at ${width}px, axe:\n${describeViolations(blocking)}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  const signedInSaysLogIn = async (page: Page) => (await page.getByText(/^\s*Log in\s*$/).count()) > 0;

  for (const fixture of ['aurora', 'ember-liquid'] as const) {
    describe(fixture, () => {
      let shop: ThemedShop;
      const url = (path = '/') => shopUrl(shop.store.subdomain, web.port, path);
      before(async function () {
        this.timeout(60_000);
        shop = await givenShopWithTheme(api, fixture);
        const page = await api.post(
          '/v1/pages',
          { title: 'About us', body_html: '<p>We make small-batch goods by hand, in a workshop by the river.</p>' },
          shop.as,
        );
        expect(page.status, JSON.stringify(page.body)).to.equal(201);
        const article = await api.post('/v1/articles', { title: 'Spring in the workshop', body_html: '<p>New glazes, new linens.</p>' }, shop.as);
        expect(article.status, JSON.stringify(article.body)).to.equal(201);
        const items = ['Bestsellers', 'New arrivals', 'Shop all', 'Journal', 'About us', 'Gift cards'].map((title, i) => ({
          title,
          url: ['/collections/bestsellers', '/collections/new-arrivals', '/collections/all', '/blogs/news', '/pages/about-us', '/collections/all'][i]!,
        }));
        const menu = await api.put('/v1/menus/main-menu', { title: 'Main menu', items }, shop.as);
        expect(menu.status, JSON.stringify(menu.body)).to.equal(200);
      });

      it('fits every shop page at 320, 390 and 1280 px with no horizontal scroll, and axe finds nothing blocking', async function () {
        this.timeout(240_000);
        const problems: string[] = [];
        const page = await chromium.page();
        const product = shop.products[0]!;
        for (const [label, path] of [
          ['home', '/'],
          ['collection', '/collections/bestsellers'],
          ['search', '/search?q=linen'],
          ['product', `/products/${product.handle}`],
          ['page', '/pages/about-us'],
          ['blog', '/blogs/news'],
          ['login', '/account/login'],
          ['register', '/account/register'],
        ] as const) {
          await open(page, url(path), `${fixture} ${label}`);
          await check(page, `${fixture} ${label}`, problems);
        }
        const missing = await page.goto(url('/no-such-page'));
        expect(missing?.status()).to.equal(404);
        await check(page, `${fixture} 404`, problems);

        const email = `phone-${unique()}@example.com`;
        await register(page, url('/account/register'), { first_name: 'Grace', last_name: 'Hopper', email, password: 'correct horse battery staple' });
        await open(page, url(`/products/${product.handle}`), `${fixture} product`);
        await addToCart(page);
        await check(page, `${fixture} cart`, problems);
        await checkOut(page);
        await check(page, `${fixture} checkout information`, problems);
        await fillInformation(page, SAMPLE_SHOPPER(email));
        await check(page, `${fixture} checkout shipping`, problems);
        await chooseShipping(page, { shipping_option: 'standard', payment_provider: 'sandbox' });
        await placeOrder(page);
        await check(page, `${fixture} payment`, problems);
        await payNow(page);
        await check(page, `${fixture} confirmation`, problems);
        await open(page, url('/account'), `${fixture} account`);
        expect(await page.locator('main').innerText()).to.match(/#\s*\d+/);
        await check(page, `${fixture} account with an order`, problems);
        expect(problems, problems.join('\n\n')).to.deep.equal([]);
      });

      it('folds the menu into a <details> on a phone: it opens by mouse and keyboard, its links work, the cart and its count stay in view', async () => {
        const page = await chromium.page({ javaScript: false });
        await page.setViewportSize({ width: 390, height: 844 });
        await open(page, url('/'), `${fixture} home`);
        const cart = page.locator('header a[href="/cart"]').first();
        expect(await cart.isVisible(), 'the cart link').to.equal(true);
        expect(await cart.innerText()).to.match(/0/);
        const box = (await cart.boundingBox())!;
        expect(box.x + box.width, 'the cart link within 390 px').to.be.at.most(390);
        const menu = page.locator('header details').first();
        const summary = menu.locator('summary');
        expect(await summary.isVisible(), 'the menu button').to.equal(true);
        const link = menu.getByRole('link', { name: 'About us' });
        expect(await link.isVisible(), 'closed, the menu hides its links').to.equal(false);
        await summary.focus();
        await page.keyboard.press('Enter');
        expect(await menu.getAttribute('open'), 'Enter opens it').to.not.equal(null);
        expect(await link.isVisible()).to.equal(true);
        await page.keyboard.press('Enter');
        expect(await menu.getAttribute('open'), 'Enter closes it again').to.equal(null);
        await summary.click();
        await follow(page, link, /^\/pages\/about-us$/, 'menu → About us');
        await summary.click();
        await follow(page, menu.getByRole('link', { name: 'Log in' }), /^\/account\/login$/, 'menu → Log in');

        await page.setViewportSize({ width: 1280, height: 900 });
        await open(page, url('/'), `${fixture} home at 1280`);
        expect(await page.locator('header details').first().isVisible(), 'no menu button on a desktop').to.equal(false);
        expect(await page.locator('header nav').getByRole('link', { name: 'About us' }).first().isVisible(), 'the menu in the header').to.equal(true);

        // The shop's own pages fold their menu the same way.
        await page.setViewportSize({ width: 390, height: 844 });
        await open(page, url('/account/login'), `${fixture} login`);
        const own = page.locator('header details').first();
        await own.locator('summary').click();
        await follow(page, own.getByRole('link', { name: 'Shop' }), /^\/collections\/all$/, 'shop menu → Shop');
      });

      it('never shows "Log in" to a signed-in customer: the theme says Account, the shop’s pages Account and Log out', async () => {
        const page = await chromium.page();
        await open(page, url('/'), `${fixture} home`);
        expect(await signedInSaysLogIn(page), 'signed out, the header offers Log in').to.equal(true);
        await register(page, url('/account/register'), {
          first_name: 'Ada',
          last_name: 'L',
          email: `in-${unique()}@example.com`,
          password: 'correct horse battery staple',
        });
        const seen: string[] = [];
        for (const path of [
          '/',
          '/collections/all',
          `/products/${shop.products[0]!.handle}`,
          '/cart',
          '/pages/about-us',
          '/blogs/news',
          '/account',
          '/no-such-page',
        ]) {
          await page.goto(url(path));
          for (const width of [390, 1280]) {
            await page.setViewportSize({ width, height: 844 });
            await page
              .locator('header details')
              .first()
              .evaluate((d) => d.setAttribute('open', ''));
            if (await signedInSaysLogIn(page)) seen.push(`${path} at ${width}px`);
          }
          expect(await page.locator('header').getByRole('link', { name: 'Account' }).count(), `${path}: Account`).to.be.greaterThan(0);
        }
        expect(seen, `"Log in" shown to a signed-in customer on ${seen.join(', ')}`).to.deep.equal([]);
      });
    });
  }
});

/** The in-page side of `overflowing` (a string: the tests compile without the DOM's types). */
const OVERFLOWING = `(() => {
  const vw = window.innerWidth;
  const found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.classList.length ? '.' + [...el.classList].join('.') : '') +
    ' «' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '»';
  if (document.documentElement.scrollWidth > vw) found.push('document ' + document.documentElement.scrollWidth + 'px wide');
  const clips = (el) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || r.right <= 0) continue; // visually hidden, or parked off-screen (a skip link)
    let inside = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (clips(a)) inside = true;
    if (!inside && (r.width > vw + 0.5 || r.right > vw + 0.5)) found.push(name(el) + ': ' + Math.round(r.left) + '–' + Math.round(r.right) + 'px');
    if (style.overflowX === 'hidden' && el.scrollWidth > el.clientWidth + 1) found.push(name(el) + ' clips its content (' + el.scrollWidth + 'px in ' + el.clientWidth + 'px)');
  }
  return found.slice(0, 8);
})()`;
