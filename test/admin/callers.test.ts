import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';

const OPERATOR = 'op-admin-callers@example.com';

/**
 * Who the admin refuses (docs/admin.md, The shell): an installed app's token and a signed-in
 * customer's token are API credentials, refused as every `Authorization` header is (a 403 page,
 * nothing read or changed), and neither makes a browser a merchant; every page forbids framing.
 */
describe('Admin: the callers it refuses', () => {
  const { app, api } = useTestApp('admin_callers', { OPERATOR_EMAILS: OPERATOR });

  it('refuses an app’s token and a customer’s token, on a page and on a form, and is never framed', async () => {
    const operator = (await givenMerchant(api, { email: OPERATOR })).token;
    const shop = await givenMerchantWithStore(api);
    const { appToken, customerToken } = await givenAppAndCustomer(api, operator, shop);
    const orders = `/admin/stores/${shop.store.id}/orders`;
    const owner = await signedInAdmin(app, shop.merchant);
    const csrf = AdminBrowser.csrfOf(await owner.get(`/admin/stores/${shop.store.id}/customers/new`));

    for (const [who, token] of [
      ['app', appToken],
      ['customer', customerToken],
    ] as const) {
      const stranger = new AdminBrowser(app.url, '127.0.0.1');
      const page = await stranger.get(orders, { authorization: `Bearer ${token}` });
      expect(page.status, who).to.equal(403);
      expect(page.html, who).to.contain('they take no API tokens').and.not.contain('Orders</h1>');
      const post = await stranger.post(
        `/admin/stores/${shop.store.id}/customers/new`,
        { csrf_token: csrf, email: `${who}@example.com` },
        { authorization: `Bearer ${token}` },
      );
      expect(post.status, who).to.equal(403);
      // The token put in the session cookie is no session either.
      const cookie = await stranger.get(orders, { cookie: `emporium_session=${token}` });
      expect(cookie.status, who).to.equal(403);
      expect(cookie.html, who).not.to.contain('Orders</h1>');
    }
    const customers = (await api.get('/v1/customers', shop.as)).body.data as { email: string }[];
    expect(customers.map((c) => c.email))
      .to.have.length(1)
      .and.not.include.members(['app@example.com', 'customer@example.com']);

    const own = await owner.get(orders);
    expect(own.status).to.equal(200);
    expect(own.headers['content-security-policy']).to.contain("frame-ancestors 'none'");
    expect(own.headers['x-frame-options']).to.equal('DENY');
    expect(own.headers['cache-control']).to.contain('no-store');
  });
});
