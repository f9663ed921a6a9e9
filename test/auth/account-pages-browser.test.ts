import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { readOutbox } from '../../src/messages/index.js';
import { useTestApp } from '../helpers/app.js';
import { axeViolations, blockingViolations, describeViolations, useBrowser } from '../helpers/browser.js';
import { unique } from '../helpers/factories.js';
import { useWebProcess } from '../helpers/processes.js';

/**
 * Sign-up, sign-in and password reset in a real browser (Chromium, against the Procfile's web
 * process): the whole way with JavaScript off, and each page kind axe-clean and without sideways
 * scrolling at a phone's width.
 */
describe('Sign-up and password reset in a browser (Chromium)', () => {
  const { app } = useTestApp('auth_pages_browser');
  const web = useWebProcess(app);
  const chromium = useBrowser();

  async function submit(page: Page, button: string, path: string) {
    await Promise.all([page.waitForURL((u) => u.pathname === path), page.getByRole('button', { name: button }).click()]);
  }

  it('signs up, signs in, resets the password and signs in again, with JavaScript off', async () => {
    const email = `browser-${unique()}@example.com`;
    const page = await chromium.page({ javaScript: false });
    await page.goto(`${web.url}/`);
    expect(new URL(page.url()).pathname).to.equal('/login');
    await Promise.all([page.waitForURL((u) => u.pathname === '/signup'), page.getByRole('link', { name: 'Create an account' }).click()]);
    await page.getByLabel('Your name').fill('Grace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await submit(page, 'Create account', '/login');
    expect(await page.getByRole('status').innerText()).to.include('Sign-up received');

    await Promise.all([page.waitForURL((u) => u.pathname === '/password/reset'), page.getByRole('link', { name: 'Forgot your password?' }).click()]);
    await page.getByLabel('Email').fill(email);
    await submit(page, 'Email me a link', '/password/reset');
    expect(await page.getByRole('status').innerText()).to.include('a link to choose a new password is on its way');
    const [message] = (await readOutbox(app.platform, email)).filter((m) => m.kind === 'password_reset');
    const link = new URL(/(https?:\/\/\S+\/password\/reset\/new\?token=\S+)/.exec(message!.text!)![1]!);
    await page.goto(`${web.url}${link.pathname}${link.search}`);
    await page.getByLabel('New password').fill('a brand new password');
    await submit(page, 'Set the new password', '/login');
    expect(await page.getByRole('status').innerText()).to.include('Your password is changed');

    await page.getByLabel('Email', { exact: true }).first().fill(email);
    await page.getByLabel('Password').fill('a brand new password');
    // Signed in, the browser goes to the admin (served by its own pages; here only where it goes matters).
    const [landing] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/admin'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    expect(new URL(landing.url()).pathname).to.equal('/admin');
  });

  it('has no serious accessibility problem and no sideways scroll at 390 px on any of its pages', async () => {
    const page = await chromium.page();
    for (const path of ['/login', '/signup', '/password/reset', `/password/reset/new?token=emp_reset_${'x'.repeat(43)}`]) {
      await page.goto(`${web.url}${path}`);
      const blocking = blockingViolations(await axeViolations(page));
      expect(blocking, `${path}: ${describeViolations(blocking)}`).to.deep.equal([]);
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), path).to.equal(0);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    // A refused form: its problems at their fields, still clean.
    await page.goto(`${web.url}/signup`);
    await page.locator('form[action="/signup"]').evaluate((form) => form.setAttribute('novalidate', ''));
    await page.getByLabel('Email').fill('not an email');
    await submit(page, 'Create account', '/signup');
    expect(await page.locator('#f-email-error').innerText()).to.equal('must be an email address');
    const blocking = blockingViolations(await axeViolations(page));
    expect(blocking, describeViolations(blocking)).to.deep.equal([]);
  });
});
