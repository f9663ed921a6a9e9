import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenAppRating, givenDeveloper, givenPublishedApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';

/**
 * No input a client can send to the app platform's routes is a 500: each route gets bodies,
 * queries and ids of every wrong shape, and answers 2xx or 4xx in the standard envelope (the
 * token endpoint: the RFC's error body).
 */
describe('App platform routes under malformed input (never a 500)', () => {
  const { api } = useTestApp('app_inputs', { OPERATOR_EMAILS: 'op-inputs@example.com' });

  const JUNK: unknown[] = [
    null,
    [],
    'text',
    42,
    {},
    { a: { $gt: 1 } },
    { store_id: { $ne: null } },
    { store_id: 'zz', redirect_uri: 5, scopes: 'read_products', state: [], code_challenge: {} },
    { manifest: [] },
    { manifest: { schema_version: '2026-06-05.ws13', extensions: 'x', scopes: [1, 2], redirect_urls: [{}] } },
    { metadata: { 'x.y': 1 } },
    { reasons: [''] },
    { reasons: 'no' },
    JSON.parse('{"a":'.repeat(60) + '1' + '}'.repeat(60)),
    { grant_type: ['authorization_code'], code: { a: 1 } },
    { rating: 3, title: {}, body: 'x' },
    { rating: 5, body: '\ud800' },
    { store_id: '0123456789abcdef01234567', rating: 4, body: 'fine' },
  ];
  const IDS = ['x', '0123456789abcdef01234567', '%24where', 'ffffffffffffffffffffffffffffffffffffff'];

  it('answers every route with 2xx or 4xx, whatever the body, query or id', async () => {
    const operator = await givenMerchant(api, { email: 'op-inputs@example.com' });
    const dev = await givenDeveloper(api);
    const partner = await givenPublishedApp(api, operator.token, {});
    const shop = await givenMerchantWithStore(api);
    const merchant = { token: shop.merchant.token };
    const store = shop.as;
    // A app rating of the partner's app by the shop, for the review routes to find.
    const consent = {
      store_id: shop.store.id,
      redirect_uri: partner.app.published.redirect_urls[0],
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      scopes: ['read_products'],
      state: 's',
      webhook_url: 'https://partner.example.com/webhooks',
    };
    expect((await api.post(`/v1/app-store/apps/${partner.app.id}/oauth/authorize`, consent, merchant)).status).to.equal(200);
    const reviewId = (await givenAppRating(api, shop, partner, { body: 'Good' })).id as string;
    const partnerToken = { token: partner.developer.merchant.token };
    const routes: [string, string, { token?: string; storeId?: string }][] = [
      ['POST', '/v1/app-store/developers/register', { token: dev.merchant.token }],
      ['POST', '/v1/app-store/developers/apps/manifest/validate', { token: dev.merchant.token }],
      ['POST', '/v1/app-store/developers/apps', { token: dev.merchant.token }],
      ['POST', `/v1/app-store/developers/apps/${partner.app.id}/versions`, { token: partner.developer.merchant.token }],
      ['POST', `/v1/app-store/developers/apps/:id/api-key`, { token: dev.merchant.token }],
      ['POST', `/v1/operations/app-reviews/:id/approve`, { token: operator.token }],
      ['POST', `/v1/operations/app-reviews/:id/reject`, { token: operator.token }],
      ['POST', `/v1/app-store/apps/${partner.app.id}/install`, merchant],
      ['POST', `/v1/app-store/apps/:id/install`, merchant],
      ['POST', `/v1/app-store/apps/${partner.app.id}/oauth/authorize`, merchant],
      ['POST', `/v1/app-store/apps/:id/oauth/authorize`, merchant],
      ['POST', '/v1/app-store/oauth/token', {}],
      ['POST', '/v1/app-store/oauth/token-exchange', {}],
      ['DELETE', '/v1/app-store/installations/:id', store],
      ['POST', '/v1/app-store/installations/:id/session-token', store],
      ['PUT', '/v1/app/installation/metadata', {}],
      ['POST', `/v1/app-store/apps/${partner.app.id}/reviews`, merchant],
      ['POST', `/v1/app-store/apps/:id/reviews`, merchant],
      ['PATCH', `/v1/app-store/apps/${partner.app.id}/reviews/${reviewId}`, merchant],
      ['PATCH', `/v1/app-store/apps/${partner.app.id}/reviews/:id`, merchant],
      ['POST', `/v1/app-store/developers/apps/${partner.app.id}/reviews/${reviewId}/reply`, partnerToken],
      ['PATCH', `/v1/app-store/developers/apps/${partner.app.id}/reviews/${reviewId}/reply`, partnerToken],
      ['POST', `/v1/app-store/developers/apps/${partner.app.id}/reviews/:id/reply`, partnerToken],
      ['DELETE', `/v1/app-store/apps/${partner.app.id}/reviews/:id`, merchant],
    ];
    let sent = 0;
    for (const [method, path, auth] of routes) {
      for (const id of path.includes(':id') ? IDS : ['-']) {
        const url = path.replace(':id', id);
        for (const body of JUNK) {
          const res = await api.send(method, url, JSON.stringify(body), { ...auth });
          sent++;
          expect(res.status, `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)}: ${JSON.stringify(res.body)}`).to.be.below(500);
        }
      }
    }
    const gets = [
      '/v1/app-store/apps?limit=0',
      '/v1/app-store/apps?cursor=%7B%7D',
      '/v1/app-store/apps?q=%5B(%2B',
      '/v1/app-store/apps?q[$gt]=1',
      '/v1/app-store/apps/x',
      '/v1/operations/app-reviews?status=nope',
      '/v1/app-store/oauth/authorize?client_id[$ne]=x',
      '/v1/app-store/oauth/authorize?client_id=x&redirect_uri=y&store_id=0123456789abcdef01234567',
      '/v1/app-store/installations?status=x',
      '/v1/app/products?limit=9999',
      '/.well-known/jwks.json?x=1',
      '/v1/app-store/apps/x/reviews',
      `/v1/app-store/apps/${partner.app.id}/reviews?rating=9`,
      `/v1/app-store/apps/${partner.app.id}/reviews?rating[$gt]=1`,
      `/v1/app-store/apps/${partner.app.id}/reviews?cursor=%7B%7D`,
      `/v1/app-store/developers/apps/${partner.app.id}/reviews?limit=x`,
    ];
    for (const path of gets) {
      const res = await api.get(
        path,
        path.includes('app-reviews')
          ? { token: operator.token }
          : path.includes('developers')
            ? partnerToken
            : path.includes('installations')
              ? store
              : merchant,
      );
      sent++;
      expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).to.be.below(500);
    }
    // The token endpoint under forms of every shape.
    for (const form of [
      '',
      '=',
      'grant_type',
      'a[b][c]=1',
      'grant_type=authorization_code&code[]=1',
      '%ZZ',
      'grant_type=refresh_token&refresh_token=' + 'x'.repeat(5000),
    ]) {
      const res = await api.send('POST', '/v1/app-store/oauth/token', form, {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${partner.credentials.oauth_client_id}:${partner.credentials.client_secret}`).toString('base64')}`,
        },
      });
      sent++;
      expect(res.status, `token form ${form.slice(0, 40)}: ${JSON.stringify(res.body)}`).to.be.below(500);
    }
    for (const header of [
      'Basic',
      'Basic !!!',
      'Basic ' + Buffer.from('no-colon').toString('base64'),
      'Basic ' + Buffer.from('%E0%A4%A:x').toString('base64'),
      'Bearer x',
    ]) {
      const res = await api.send('POST', '/v1/app-store/oauth/token', 'grant_type=refresh_token&refresh_token=x', {
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: header },
      });
      sent++;
      expect(res.status, header).to.equal(401);
    }
    expect(sent).to.be.greaterThan(400);
  });
});
