import { expect } from 'chai';
import { givenAppRating, givenDeveloper, givenPublishedApp, installApp, validManifest, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-dashboard@example.com';
const SECRET = 'internal-secret-for-the-dashboard-tests-0123456789';

/**
 * GET /v1/app-store/partners/dashboard (docs/apps.md, Partner dashboard): the figures come from
 * real installs, uninstalls, app API calls, webhook deliveries by a webhooks worker to a real
 * receiver (one endpoint answering 500 until its delivery fails), and a app rating.
 */
describe('The partner dashboard', () => {
  const { api, receiver } = useWebhooksApp(
    'app_dashboard',
    {
      OPERATOR_EMAILS: OPERATOR,
      INTERNAL_SECRET: SECRET,
      WEBHOOK_RETRY_BASE_SECONDS: '0.02',
      WEBHOOK_RETRY_CAP_SECONDS: '0.1',
      JOBS_POLL_INTERVAL_MS: '100',
      WEBHOOK_SWEEP_INTERVAL_MS: '300',
    },
    { groups: ['webhooks'] },
  );
  let partner: GivenApp;
  let idle: Record<string, any>;
  let good: GivenMerchantWithStore;
  let bad: GivenMerchantWithStore;

  const install = (into: GivenMerchantWithStore, path: string, scopes: string[]) =>
    installApp(api, partner, into, { scopes, webhookUrl: `${receiver.url}${path}` });

  const dashboard = (query = '', token = partner.developer.merchant.token) => api.get(`/v1/app-store/partners/dashboard${query}`, { token });

  before(async () => {
    const operator = await givenMerchant(api, { email: OPERATOR });
    partner = await givenPublishedApp(api, operator.token, { scopes: ['read_orders', 'read_products', 'write_app_metadata'] });
    // A second app of the same partner, submitted and never installed.
    const second = await api.post(
      '/v1/app-store/developers/apps',
      { manifest: validManifest({ name: 'Idle app' }) },
      { token: partner.developer.merchant.token },
    );
    expect(second.status).to.equal(201);
    idle = second.body.data.app;
    receiver.expectSecret('/good', partner.webhookSecret).expectSecret('/bad', partner.webhookSecret);
    receiver.on('/bad', () => ({ status: 500 }));

    good = await givenMerchantWithStore(api);
    bad = await givenMerchantWithStore(api);
    const inGood = await install(good, '/good', ['read_products', 'write_app_metadata']);
    await install(bad, '/bad', ['read_orders']);
    for (let i = 0; i < 3; i++) expect((await api.get('/v1/app/products', { token: inGood.token })).status).to.equal(200);
    expect((await api.get('/v1/app/installation/metadata', { token: inGood.token })).status).to.equal(200);
    // Refused for its scope: not counted.
    expect((await api.get('/v1/app/orders', { token: inGood.token })).status).to.equal(403);
    await until('app.installed delivered to /good', async () => receiver.to('/good').some((r) => r.headers['x-platform-event-type'] === 'app.installed'));
    expect((await api.delete(`/v1/app-store/installations/${inGood.installationId}`, good.as)).status).to.equal(200);
    await givenAppRating(api, good, partner, { body: 'Prints fine.' });
  });

  it('shows each of the partner’s apps with installs, review, rating, webhook figures and API calls by scope', async () => {
    const data = await until('the deliveries ended and the calls were counted', async () => {
      const res = await dashboard();
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const mine = res.body.data.apps.find((a: { id: string }) => a.id === partner.app.id);
      // A failed delivery is counted in the day's figures and on its subscription by two writes: wait for both.
      const settled = mine.webhooks.successful >= 2 && mine.webhooks.failed >= 1 && mine.webhooks.failing_endpoints.length >= 1 && mine.api_calls.total >= 4;
      return settled ? res.body.data : null;
    });
    expect(data.window).to.include({ days: 30 });
    expect(data.developer.id).to.equal(partner.developer.profile.id);
    expect(data.apps.map((a: { id: string }) => a.id)).to.deep.equal([partner.app.id, idle.id]);
    const mine = data.apps[0];
    expect(mine).to.include({ handle: partner.app.handle, status: 'published' });
    expect(mine.review.latest_version).to.include({ number: 1, status: 'approved' });
    expect(mine.review.published_at).to.be.a('string');
    expect(mine.installs).to.deep.include({ active: 1, uninstalled: 1, in_window: { installed: 2, uninstalled: 1 } });
    expect(mine.installs.by_day).to.have.length(30);
    expect(mine.installs.by_day.at(-1)).to.deep.equal({ day: new Date().toISOString().slice(0, 10), installed: 2, uninstalled: 1 });
    expect(mine.rating).to.deep.include({ average: 4, count: 1 });
    // app.installed and app.uninstalled to /good; app.installed to /bad failed after its attempts.
    expect(mine.webhooks).to.include({ successful: 2, failed: 1, retried: 8 });
    expect(mine.webhooks.success_rate).to.be.closeTo(2 / 3, 0.001);
    expect(mine.webhooks.failing_endpoints).to.have.length(1);
    expect(mine.webhooks.failing_endpoints[0]).to.include({
      store_id: bad.store.id,
      target_url: `${receiver.url}/bad`,
      consecutive_failed_deliveries: 1,
      active: true,
    });
    expect(mine.api_calls).to.deep.equal({ total: 4, by_scope: { read_products: 3, none: 1 } });
    const quiet = data.apps[1];
    expect(quiet).to.deep.include({
      status: 'submitted',
      installs: { active: 0, uninstalled: 0, in_window: { installed: 0, uninstalled: 0 }, by_day: quiet.installs.by_day },
    });
    expect(quiet.review.latest_version.status).to.equal('submitted');
    expect(quiet.rating).to.include({ average: null, count: 0 });
    expect(quiet.webhooks).to.include({ successful: 0, failed: 0, success_rate: null });
    expect(quiet.api_calls).to.deep.equal({ total: 0, by_scope: {} });
  });

  it('takes a window of 1 to 90 days', async () => {
    const week = await dashboard('?days=7');
    expect(week.status).to.equal(200);
    expect(week.body.data.apps[0].installs.by_day).to.have.length(7);
    for (const bad of ['?days=0', '?days=91', '?days=two', '?days=7&extra=1']) {
      const res = await dashboard(bad);
      expect(res.status, bad).to.equal(400);
      expect(res.body.error.code).to.be.a('string');
    }
  });

  it('is the partner’s own: another partner sees only theirs, a merchant without a profile and an anonymous caller nothing', async () => {
    const other = await givenDeveloper(api);
    const theirs = await dashboard('', other.merchant.token);
    expect(theirs.status).to.equal(200);
    expect(theirs.body.data.apps).to.deep.equal([]);
    const merchant = await givenMerchant(api);
    const none = await dashboard('', merchant.token);
    expect(none.status).to.be.oneOf([403, 404]);
    expect(none.body.error.code).to.match(/developer_profile/);
    expect((await api.get('/v1/app-store/partners/dashboard')).status).to.equal(401);
    const appToken = (await install(await givenMerchantWithStore(api), '/good', ['read_products'])).token;
    expect((await dashboard('', appToken)).status).to.equal(401);
  });
});
