import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchant, givenMerchantWithStore, givenStore } from '../helpers/factories.js';

const OPERATOR = 'admin-account-operator@example.com';

/**
 * The admin's Your account (docs/admin.md, Your account) through the real server: the merchant's
 * name and email, the name changed, the password changed with the current one (this browser
 * stays signed in, every other session ends), signing out of every other session, and Log out;
 * the refusals (a wrong current password at its field, nothing changed; a missing, foreign or
 * cross-site token; a bearer token); and the top bar's Console link, an operator's only.
 */
describe('Admin: Your account', () => {
  const { app, api } = useTestApp('admin_account', { OPERATOR_EMAILS: OPERATOR });
  const ACCOUNT = '/admin/account';
  const session = (token: string) => api.get('/v1/auth/custom/session', { token });
  const signsIn = async (email: string, password: string) => (await api.post('/v1/auth/signin', { email, password })).status === 200;

  it('shows the merchant’s name, escaped, and email, and changes the name with errors at its field', async () => {
    const m = await givenMerchant(api, { name: '<b>Ada</b>' });
    const browser = await signedInAdmin(app, m);
    const page = await browser.get(ACCOUNT);
    expect(page.status).to.equal(200);
    expect(page.html).to.contain('value="&lt;b&gt;Ada&lt;/b&gt;"').and.contain(m.email).and.not.contain('<b>Ada</b>');

    const blank = await browser.submit(ACCOUNT, ACCOUNT, { name: '   ' });
    expect(blank.status).to.equal(400);
    expect(blank.html).to.match(/id="f-name"[^>]*aria-invalid="true"/);
    const saved = await browser.submit(ACCOUNT, ACCOUNT, { name: ' Ada Lovelace ' });
    expect([saved.status, saved.location]).to.deep.equal([303, ACCOUNT]);
    expect((await browser.get(ACCOUNT)).html)
      .to.contain('Your name is saved.')
      .and.contain('value="Ada Lovelace"');
    expect((await session(m.token)).body.data.merchant).to.include({ name: 'Ada Lovelace', email: m.email });
  });

  it('changes the password with the current one: a wrong one is said at its field and changes nothing; this browser stays signed in, every other session ends', async () => {
    const m = await givenMerchant(api);
    const browser = await signedInAdmin(app, m);
    const elsewhere = await signedInAdmin(app, m);
    const password = `${ACCOUNT}/password`;

    const wrong = await browser.submit(ACCOUNT, password, {
      current_password: 'not my password',
      new_password: 'a new password 1',
      new_password_again: 'a new password 1',
    });
    expect(wrong.status).to.equal(401);
    expect(wrong.html).to.match(/id="f-current_password-error"[^>]*>is wrong/);
    expect(wrong.html).to.not.contain('not my password');
    expect(await signsIn(m.email, m.password)).to.equal(true);
    expect(await signsIn(m.email, 'a new password 1')).to.equal(false);

    const mistyped = await browser.submit(ACCOUNT, password, { current_password: m.password, new_password: 'short', new_password_again: 'shirt' });
    expect(mistyped.status).to.equal(400);
    expect(mistyped.html)
      .to.match(/id="f-new_password-error"[^>]*>must be at least 10 characters/)
      .and.match(/id="f-new_password_again-error"[^>]*>is not the new password typed again/);
    expect(
      (await browser.submit(ACCOUNT, password, { current_password: '', new_password: 'a new password 1', new_password_again: 'a new password 1' })).html,
    ).to.match(/id="f-current_password-error"[^>]*>is required/);

    const changed = await browser.submit(ACCOUNT, password, {
      current_password: m.password,
      new_password: 'a new password 1',
      new_password_again: 'a new password 1',
    });
    expect([changed.status, changed.location]).to.deep.equal([303, ACCOUNT]);
    const after = await browser.get(ACCOUNT);
    expect(after.status).to.equal(200);
    expect(after.html).to.contain('Your password is changed.');
    expect(await signsIn(m.email, 'a new password 1')).to.equal(true);
    expect(await signsIn(m.email, m.password)).to.equal(false);
    // The other browser and the API session are signed out; this browser's forms still work.
    const out = await elsewhere.get(ACCOUNT);
    expect([out.status, out.location]).to.deep.equal([303, '/login?return_to=%2Fadmin%2Faccount']);
    expect((await session(m.token)).status).to.equal(401);
    expect((await browser.submit(ACCOUNT, ACCOUNT, { name: 'Still here' })).status).to.equal(303);
  });

  it('rate-limits current-password guesses as the API does', async () => {
    const m = await givenMerchant(api);
    const browser = await signedInAdmin(app, m);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const guess = `guess number ${i}`;
      statuses.push(
        (
          await browser.submit(ACCOUNT, `${ACCOUNT}/password`, {
            current_password: guess,
            new_password: 'a new password 1',
            new_password_again: 'a new password 1',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
    expect(statuses[10]).to.equal(429);
    expect(await signsIn(m.email, m.password)).to.equal(true);
  });

  it('signs out of every other session, keeping this one, and Log out ends this one', async () => {
    const m = await givenMerchant(api);
    const browser = await signedInAdmin(app, m);
    const elsewhere = await signedInAdmin(app, m);
    const staleCsrf = AdminBrowser.csrfOf(await elsewhere.get(ACCOUNT));
    const done = await browser.submit(ACCOUNT, `${ACCOUNT}/sessions`, {});
    expect([done.status, done.location]).to.deep.equal([303, ACCOUNT]);
    const shown = await browser.get(ACCOUNT);
    expect(shown.status).to.equal(200);
    expect(shown.html).to.contain('Signed out of 2 other sessions; this browser stays signed in.');
    // The other browser's cookie is refused (to sign in again), its forms change nothing; the API token is dead.
    expect((await elsewhere.get('/admin')).location).to.match(/^\/login\?return_to=/);
    expect((await elsewhere.post(ACCOUNT, { csrf_token: staleCsrf, name: 'Intruder' })).status).to.equal(303);
    expect((await session(m.token)).status).to.equal(401);
    expect((await browser.submit(ACCOUNT, `${ACCOUNT}/sessions`, {})).status).to.equal(303);
    expect((await browser.get(ACCOUNT)).html)
      .to.contain('There was no other session to sign out of.')
      .and.not.contain('Intruder');

    const logOut = await browser.post('/logout', { csrf_token: AdminBrowser.csrfOf(await browser.get(ACCOUNT)) });
    expect([logOut.status, logOut.location]).to.deep.equal([303, '/login']);
    expect((await browser.get(ACCOUNT)).status).to.equal(303);
  });

  it('refuses a missing, foreign or cross-site token, a bearer token and a browser not signed in, changing nothing', async () => {
    const m = await givenMerchant(api, { name: 'Kept' });
    const browser = await signedInAdmin(app, m);
    const stranger = await signedInAdmin(app, await givenMerchant(api));
    const foreign = AdminBrowser.csrfOf(await stranger.get(ACCOUNT));
    const csrf = AdminBrowser.csrfOf(await browser.get(ACCOUNT));
    for (const [path, fields, headers] of [
      [ACCOUNT, { name: 'Changed' }, {}],
      [ACCOUNT, { name: 'Changed', csrf_token: foreign }, {}],
      [ACCOUNT, { name: 'Changed', csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
      [`${ACCOUNT}/password`, { current_password: m.password, new_password: 'a new password 1', new_password_again: 'a new password 1' }, {}],
      [`${ACCOUNT}/sessions`, { csrf_token: foreign }, {}],
    ] as const) {
      expect((await browser.post(path, fields, headers)).status, `${path} ${JSON.stringify(fields)}`).to.equal(403);
    }
    expect((await browser.get(ACCOUNT, { authorization: `Bearer ${m.token}` })).status).to.equal(403);
    expect((await browser.post(ACCOUNT, { name: 'Changed', csrf_token: csrf }, { authorization: `Bearer ${m.token}` })).status).to.equal(403);
    const anonymous = new AdminBrowser(app.url, '127.0.0.1');
    expect((await anonymous.get(ACCOUNT)).location).to.equal('/login?return_to=%2Fadmin%2Faccount');
    expect((await session(m.token)).body.data.merchant.name).to.equal('Kept');
    expect(await signsIn(m.email, m.password)).to.equal(true);
  });

  it('shows a Console link in the top bar to a merchant who is an operator, and to no one else', async () => {
    const operator = await givenMerchant(api, { email: OPERATOR });
    const shop = await givenMerchantWithStore(api);
    const ownStore = await givenStore(api, operator);
    const asOperator = await signedInAdmin(app, operator);
    for (const path of [ACCOUNT, `/admin/stores/${ownStore.id}`]) {
      expect((await asOperator.get(path)).html, path).to.contain('<a class="top__link" href="/console">Console</a>');
    }
    expect((await asOperator.get('/console')).status).to.equal(200);
    const merchant = await signedInAdmin(app, shop.merchant);
    for (const path of [ACCOUNT, `/admin/stores/${shop.store.id}`, `/admin/stores/${shop.store.id}/settings/webhooks`]) {
      const page = await merchant.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.html, path).to.not.contain('href="/console"');
    }
  });
});
