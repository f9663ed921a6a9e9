import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import type { BrowserContext } from 'playwright-core';
import { axeViolations, blockingViolations, describeViolations, useBrowser } from '../helpers/browser.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { startWorker, stopAll, useWebProcess, type RunningProcess } from '../helpers/processes.js';
import { useThemeMarketplace } from '../helpers/theme-marketplace.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'console-browser-operator@example.com';

/**
 * The operator console in a real browser (docs/console.md): headless Chromium against the
 * Procfile's web process, a `bulk` worker and a `themes` worker. The operator's browser holds
 * the `emporium_session` cookie of an API sign-in (what /login sets). An operator re-runs a
 * failed job (which the bulk worker runs again) and approves a theme review the themes worker
 * checked; the overview refreshes itself; a merchant, an app and a customer are refused; a page
 * of another site can neither frame the console nor post its forms.
 */
describe('Operations: the operator console in a browser (Chromium)', () => {
  const { app, api, author, operator } = useThemeMarketplace('console_browser', OPERATOR);
  const web = useWebProcess(app, { OPERATOR_EMAILS: OPERATOR, JOBS_POLL_INTERVAL_MS: '100' });
  const chromium = useBrowser();
  const running: RunningProcess[] = [];
  let evil: Server;
  let evilUrl = '';
  let evilPage = '';
  after(async () => {
    await stopAll(running, 'SIGTERM');
    await new Promise((r) => evil?.close(r));
  });

  before(async () => {
    await startWorker(app, 'bulk', running, { JOBS_POLL_INTERVAL_MS: '100' });
    // Another site: it frames the console, or posts one of its forms.
    evil = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(evilPage);
    }).listen(0, '127.0.0.2');
    await new Promise((r) => evil.once('listening', r));
    evilUrl = `http://127.0.0.2:${(evil.address() as AddressInfo).port}/`;
  });

  /** A browser (its own cookies) signed in as the holder of `token`. */
  async function signedIn(token: string): Promise<BrowserContext> {
    const context = await chromium.context();
    await context.addCookies([{ name: 'emporium_session', value: token, url: web.url, httpOnly: true, sameSite: 'Lax' }]);
    return context;
  }
  const jobs = () => app.platform.db.collection('agendaJobs');

  it('an operator re-runs a failed job from the console, and the bulk worker runs it again', async () => {
    // A job whose payload no longer matches its contract: the bulk worker fails it.
    const { insertedId } = await jobs().insertOne({
      name: 'bulk.export',
      data: { operation_id: 'not-an-id' },
      type: 'normal',
      priority: 0,
      nextRunAt: new Date(),
      lockedAt: null,
    });
    await until('the job to fail', async () => (await jobs().findOne({ _id: insertedId, failedAt: { $ne: null }, nextRunAt: null, lockedAt: null })) !== null);
    const page = await (await signedIn(operator.token)).newPage();
    const overview = await page.goto(`${web.url}/console`);
    expect(overview!.status()).to.equal(200);
    expect(overview!.headers()['content-security-policy']).to.contain("frame-ancestors 'none'");
    await page.getByRole('heading', { name: 'Runtime overview' }).waitFor();
    const blocking = blockingViolations(await axeViolations(page));
    expect(blocking, describeViolations(blocking)).to.deep.equal([]);
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByLabel('State').selectOption('failed');
    await page.getByLabel('Job name').fill('bulk.export');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator(`a[href="/console/jobs/${insertedId.toHexString()}"]`).click();
    await page.getByText('payload does not match bulk.export').first().waitFor();
    await page.getByRole('button', { name: 'Re-run' }).click();
    await page.getByRole('status').filter({ hasText: 'The job is due again' }).waitFor();
    expect(page.url()).to.equal(`${web.url}/console/jobs/${insertedId.toHexString()}?done=rerun`);
    await until('the job to have run again', async () => ((await jobs().findOne({ _id: insertedId }))?.failCount as number) === 2);
    await page.reload();
    await page.getByRole('button', { name: 'Re-run' }).waitFor(); // failed again: it can be re-run again
  });

  it('an operator signs in through /login and approves a theme review the themes worker checked', async () => {
    const up = await api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora') }, { token: author.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const id = up.body.data.review_record.id as string;
    await until(
      'the review checked',
      async () => (await api.get(`/v1/operations/theme-reviews/${id}`, { token: operator.token })).body.data.status === 'awaiting_review',
    );
    // Signed in through the sign-in page itself: the console sends the browser there and it comes back.
    const page = await (await chromium.context()).newPage();
    await page.goto(`${web.url}/console/reviews`);
    expect(new URL(page.url()).pathname).to.equal('/login');
    const form = page.locator('form[action="/login"]');
    await form.getByLabel('Email').fill(operator.email);
    await form.getByLabel('Password').fill(operator.password);
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${web.url}/console/reviews`);
    await page.locator(`a[href="/console/reviews/themes/${id}"]`).click();
    await page.getByRole('heading', { name: 'Automated checks' }).waitFor();
    const blocking = blockingViolations(await axeViolations(page));
    expect(blocking, describeViolations(blocking)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').filter({ hasText: 'Approved.' }).waitFor();
    expect((await api.get(`/v1/operations/theme-reviews/${id}`, { token: operator.token })).body.data.status).to.equal('approved');
  });

  it('the overview refreshes itself', async () => {
    const page = await (await signedIn(operator.token)).newPage();
    await page.goto(`${web.url}/console`);
    const generated = async () => (await page.locator('main p.muted').first().textContent()) ?? '';
    const before = await generated();
    await until('the overview to refresh', async () => (await generated()) !== before);
  });

  it('refuses a merchant, an app and a customer', async () => {
    const shop = await givenMerchantWithStore(api);
    const merchant = await givenMerchant(api);
    const { appToken, customerToken } = await givenAppAndCustomer(api, operator.token, shop);
    for (const [who, token] of [
      ['merchant', merchant.token],
      ['app', appToken],
      ['customer', customerToken],
    ] as const) {
      const page = await (await signedIn(token)).newPage();
      const res = await page.goto(`${web.url}/console/jobs`);
      expect(res!.status(), who).to.equal(403);
      await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    }
    const anonymous = await chromium.page();
    const res = await anonymous.goto(`${web.url}/console`);
    expect(res!.request().redirectedFrom()?.url(), 'sent to sign in').to.equal(`${web.url}/console`);
    expect(anonymous.url()).to.equal(`${web.url}/login?return_to=%2Fconsole`);
  });

  it('cannot be framed, nor its forms posted, by another site', async () => {
    const { insertedId } = await jobs().insertOne({
      name: 'bulk.export',
      data: { operation_id: new ObjectId().toHexString() },
      type: 'normal',
      priority: 0,
      nextRunAt: null,
      lockedAt: null,
      failedAt: new Date(),
      failCount: 1,
      failReason: 'stale',
    });
    const context = await signedIn(operator.token);
    const page = await context.newPage();
    evilPage = `<!doctype html><title>Prizes</title><iframe name="f" src="${web.url}/console" width="800" height="600"></iframe>`;
    await page.goto(evilUrl);
    await page.waitForTimeout(1000);
    const framed = page.frames().find((f) => f !== page.mainFrame());
    const inside = framed ? await framed.content().catch(() => '') : '';
    expect(inside).to.not.contain('Runtime overview');
    // A cross-site form post (with a token read from the operator's own page, as if it had leaked): refused, the job unchanged.
    const own = await context.newPage();
    await own.goto(`${web.url}/console/jobs/${insertedId.toHexString()}`);
    const csrf = await own.locator('main input[name="csrf_token"]').first().getAttribute('value');
    evilPage = `<!doctype html><title>Prizes</title><form method="post" action="${web.url}/console/jobs/${insertedId.toHexString()}/rerun"><input name="csrf_token" value="${csrf}"></form><script>document.forms[0].submit()</script>`;
    const posted = page.waitForResponse((r) => r.url().includes('/rerun'));
    await page.goto(evilUrl);
    expect((await posted).status()).to.be.oneOf([303, 403]); // SameSite=Lax keeps the cookie home (to sign-in), and the origin check refuses it anyway
    expect((await jobs().findOne({ _id: insertedId }))?.nextRunAt).to.equal(null);
  });
});
