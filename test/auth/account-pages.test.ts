import { expect } from 'chai';
import { readOutbox } from '../../src/messages/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchant, givenMerchantWithStore, unique } from '../helpers/factories.js';
import { Browser, csrfOf } from '../helpers/page-browser.js';
import { ShopBrowser } from '../helpers/shop.js';

const BASE = 'https://merchants.example';

describe('Sign-up and password reset in a browser', () => {
  const { app, api } = useTestApp('auth_pages', { PUBLIC_BASE_URL: BASE });

  const newEmail = () => `pages-${unique()}@example.com`;

  /** A browser that opened `path` (its login cookie set), and the token of its form posting to `action`. */
  async function opened(path: string, action = path) {
    const b = new Browser(app.url);
    const page = await b.get(path);
    expect(page.status, page.html).to.equal(200);
    return { b, page, token: csrfOf(page.html, action) };
  }

  /** The link of the newest reset message to `email`, as a path of this site (the message names the configured base). */
  async function resetLink(email: string): Promise<string> {
    const [message] = (await readOutbox(app.platform, email)).filter((m) => m.kind === 'password_reset');
    expect(message, `no reset message for ${email}`).to.exist;
    const link = /(https?:\/\/\S+\/password\/reset\/new\?token=emp_reset_[A-Za-z0-9_-]+)/.exec(message!.text!)![1]!;
    expect(link.startsWith(`${BASE}/password/reset/new?token=`)).to.equal(true);
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  }

  /** The flash a 303 left, as the page it leads to shows it. */
  async function flashAfter(b: Browser, location: string) {
    const page = await b.get(location);
    return /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.html)?.[1] ?? null;
  }

  it('signs up through the form, then signs in and lands in the admin', async () => {
    const email = newEmail();
    const { b, page, token } = await opened('/signup');
    expect(page.html).to.include('href="/login"');
    const done = await b.post('/signup', { csrf_token: token, name: 'Ada', email: `  ${email.toUpperCase()} `, password: 'a long enough password' });
    expect([done.status, done.location]).to.deep.equal([303, '/login']);
    expect(await flashAfter(b, '/login')).to.include('Sign-up received: sign in with your email and password');
    const login = await b.get('/login');
    expect(login.html).to.include('href="/signup"').and.include('href="/password/reset"');
    const signedIn = await b.post('/login', { csrf_token: csrfOf(login.html, '/login'), email, password: 'a long enough password' });
    expect([signedIn.status, signedIn.location]).to.deep.equal([303, '/admin']);
    const session = await api.get('/v1/auth/custom/session', { token: b.jar.get('emporium_session')! });
    expect(session.body.data.merchant).to.include({ email, name: 'Ada' });
    // Signed in: sign-up and / go to the admin.
    expect((await b.get('/signup')).location).to.equal('/admin');
    expect((await b.get('/')).location).to.equal('/admin');
  });

  it('leaves GET / of a store’s host to the shop, signed in or not', async () => {
    const shop = await givenMerchantWithStore(api);
    const b = new Browser(app.url);
    await b.post('/login', { csrf_token: csrfOf((await b.get('/login')).html), email: shop.merchant.email, password: shop.merchant.password });
    const statuses = [];
    for (const cookie of [{}, { cookie: `emporium_session=${b.jar.get('emporium_session')!}` }] as Record<string, string>[]) {
      const home = await new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`).get('/', { accept: 'text/html', ...cookie });
      // No theme is live yet: the shop's own "getting ready" page, not the platform's redirect.
      expect([home.status, home.location]).to.deep.equal([503, null]);
      statuses.push(home.html.includes('/admin'));
    }
    expect(statuses).to.deep.equal([false, false]);
  });

  it('shows each problem at its field and keeps what was typed, never the password', async () => {
    const { b, token } = await opened('/signup');
    const res = await b.post('/signup', { csrf_token: token, name: '  ', email: 'not-an-email <b>', password: 'short' });
    expect(res.status).to.equal(400);
    expect(res.html).to.include('id="f-name-error"').and.include('is required');
    expect(res.html).to.include('id="f-email-error"').and.include('must be an email address');
    expect(res.html).to.include('id="f-password-error"').and.include('must be at least 10 characters');
    expect(res.html).to.include('value="not-an-email &lt;b&gt;"').and.not.include('value="short"');
    const reset = await opened('/password/reset');
    const bad = await reset.b.post('/password/reset', { csrf_token: reset.token, email: 'nope' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.include('id="f-email-error"').and.include('value="nope"');
  });

  it('answers a sign-up for an email that has an account exactly as for a new one, and changes nothing', async () => {
    const owner = await givenMerchant(api);
    const answers = [];
    for (const email of [owner.email, newEmail()]) {
      const { b, token } = await opened('/signup');
      const res = await b.post('/signup', { csrf_token: token, name: 'Someone', email, password: 'another long password' });
      answers.push({ status: res.status, location: res.location, flash: await flashAfter(b, res.location!), session: b.jar.has('emporium_session') });
    }
    expect(answers[0]).to.deep.equal(answers[1]);
    expect(answers[0]).to.include({ status: 303, location: '/login', session: false });
    expect((await readOutbox(app.platform, owner.email)).map((m) => m.kind)).to.include('account_exists');
    expect((await api.post('/v1/auth/signin', { email: owner.email, password: owner.password })).status).to.equal(200);
  });

  it('resets a password from the emailed link: every session ends, the new password signs in, the link works once', async () => {
    const m = await givenMerchant(api);
    const { b, page, token } = await opened('/password/reset');
    expect(page.html).to.include('href="/login"').and.include('href="/signup"');
    const asked = await b.post('/password/reset', { csrf_token: token, email: m.email });
    expect([asked.status, asked.location]).to.deep.equal([303, '/password/reset']);
    expect(await flashAfter(b, '/password/reset')).to.include(`If ${m.email} has an account, a link`);

    // The link opened in another browser (the mail client's).
    const link = await resetLink(m.email);
    const mail = await opened(link, '/password/reset/new');
    expect(mail.page.html).to.include('Choose a new password');
    const short = await mail.b.post('/password/reset/new', {
      csrf_token: mail.token,
      token: new URL(link, app.url).searchParams.get('token')!,
      new_password: 'short',
    });
    expect(short.status).to.equal(400);
    expect(short.html).to.include('id="f-new_password-error"');
    const fields = { csrf_token: csrfOf(short.html), token: new URL(link, app.url).searchParams.get('token')!, new_password: 'a brand new password' };
    const set = await mail.b.post('/password/reset/new', fields);
    expect([set.status, set.location]).to.deep.equal([303, '/login']);
    expect(await flashAfter(mail.b, '/login')).to.include('Your password is changed');

    expect((await api.get('/v1/auth/custom/session', { token: m.token })).status).to.equal(401);
    expect((await api.post('/v1/auth/signin', { email: m.email, password: m.password })).status).to.equal(401);
    expect((await api.post('/v1/auth/signin', { email: m.email, password: 'a brand new password' })).status).to.equal(200);

    const again = await mail.b.post('/password/reset/new', {
      ...fields,
      csrf_token: csrfOf((await mail.b.get(link)).html),
      new_password: 'yet another password',
    });
    expect(again.status).to.equal(401);
    expect(again.html).to.include('This reset link is wrong, used or expired').and.include('href="/password/reset"');
    // Without a token, the link's page is the request form.
    expect((await mail.b.get('/password/reset/new')).location).to.equal('/password/reset');
  });

  it('answers a reset request for an unknown email exactly as for a known one', async () => {
    const known = await givenMerchant(api);
    const unknown = newEmail();
    const answers = [];
    for (const email of [known.email, unknown]) {
      const { b, token } = await opened('/password/reset');
      const res = await b.post('/password/reset', { csrf_token: token, email });
      answers.push({ status: res.status, location: res.location, flash: (await flashAfter(b, res.location!))?.replace(email, '<email>') });
    }
    expect(answers[0]).to.deep.equal(answers[1]);
    expect(await readOutbox(app.platform, unknown)).to.deep.equal([]);
  });

  it('refuses over the rate limits with a page (429, Retry-After), as the API does', async () => {
    const email = newEmail();
    const { b, token } = await opened('/signup');
    for (let i = 0; i < 5; i++)
      expect((await b.post('/signup', { csrf_token: token, name: 'Many', email, password: 'a long enough password' })).status).to.equal(303);
    const signUps = await b.post('/signup', { csrf_token: token, name: 'Many', email, password: 'a long enough password' });
    expect([signUps.status, signUps.headers.get('content-type')]).to.deep.equal([429, 'text/html; charset=utf-8']);
    expect(Number(signUps.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(signUps.html).to.include('Too many attempts').and.include(`value="${email}"`);

    for (let i = 0; i < 5; i++) expect((await b.post('/password/reset', { csrf_token: token, email })).status).to.equal(303);
    const resets = await b.post('/password/reset', { csrf_token: token, email });
    expect([resets.status, resets.headers.get('content-type')]).to.deep.equal([429, 'text/html; charset=utf-8']);
    expect(resets.html).to.include('Too many attempts');
    expect((await api.post('/v1/auth/password/reset', { email })).status).to.equal(429);
  });

  it('refuses a form without this browser’s token or from another site, and changes nothing', async () => {
    const m = await givenMerchant(api);
    await api.post('/v1/auth/password/reset', { email: m.email });
    const resetToken = new URL(await resetLink(m.email), app.url).searchParams.get('token')!;
    const email = newEmail();
    const forms: [string, Record<string, string>][] = [
      ['/signup', { name: 'Forged', email, password: 'a long enough password' }],
      ['/password/reset', { email }],
      ['/password/reset/new', { token: resetToken, new_password: 'a forged new password' }],
    ];
    for (const [path, form] of forms) {
      const { b, token } = await opened(path === '/password/reset/new' ? '/password/reset' : path);
      const other = await opened('/signup');
      for (const [fields, headers, from] of [
        [form, {}, new Browser(app.url)], // no login cookie at all
        [form, {}, b], // no token
        [{ ...form, csrf_token: 'A'.repeat(43) }, {}, b],
        [{ ...form, csrf_token: other.token }, {}, b], // another browser's
        [{ ...form, csrf_token: token }, { 'sec-fetch-site': 'cross-site' }, b],
        [{ ...form, csrf_token: token }, { 'sec-fetch-site': '', origin: 'https://evil.example' }, b],
      ] as [Record<string, string>, Record<string, string>, Browser][]) {
        const res = await from.post(path, fields, headers);
        expect([res.status, res.location, res.headers.get('content-type')], path).to.deep.equal([403, null, 'text/html; charset=utf-8']);
      }
    }
    // A body that is no form is a page too (415), never the API's JSON envelope.
    for (const [path] of forms) {
      const res = await fetch(new URL(path, app.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ email }),
      });
      expect([res.status, res.headers.get('content-type')], path).to.deep.equal([415, 'text/html; charset=utf-8']);
    }
    expect(await app.platform.db.collection('merchants').countDocuments({ email })).to.equal(0);
    expect(await readOutbox(app.platform, email)).to.deep.equal([]);
    // The reset token is still good: the forged posts did not spend it.
    expect((await api.post('/v1/auth/password/update', { reset_token: resetToken, new_password: 'the real new password' })).status).to.equal(200);
  });
});
