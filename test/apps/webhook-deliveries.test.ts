import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { authorizeApp, givenDeveloper, givenPublishedApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-app-webhook-deliveries@example.com';
const SECRET = 'internal-secret-for-the-app-deliveries-tests-0123456789';

type Partner = GivenApp & { path: string; as: { token: string } };

/**
 * The partner's side of app webhooks (docs/apps.md, App webhooks): the subscriptions of its
 * app's installations, the deliveries log and redelivery, through the same engine as a
 * merchant's (a real web process, a webhooks worker, and a receiver verifying with the app's
 * secret, so every successful delivery below is a verified one).
 */
describe('App webhooks: the partner’s subscriptions, deliveries log and redelivery', () => {
  const { app, api, receiver } = useWebhooksApp(
    'app_webhook_deliveries',
    {
      OPERATOR_EMAILS: OPERATOR,
      INTERNAL_SECRET: SECRET,
      // Nine attempts in about two seconds (0.05, 0.1, 0.2, then 0.4 each).
      WEBHOOK_RETRY_BASE_SECONDS: '0.05',
      WEBHOOK_RETRY_CAP_SECONDS: '0.4',
      WEBHOOK_TIMEOUT_MS: '1500',
      JOBS_POLL_INTERVAL_MS: '100',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
    },
    { groups: ['webhooks'] },
  );
  let operatorToken: string;
  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  /** A published app whose partner endpoint is `path` on the receiver. */
  async function givenAppAt(path: string, manifest: Record<string, unknown> = {}): Promise<Partner> {
    const partner = await givenPublishedApp(api, operatorToken, manifest);
    receiver.expectSecret(path, partner.webhookSecret);
    return { ...partner, path, as: { token: partner.developer.merchant.token } };
  }

  /** The merchant's consent with the receiver path as webhook_url; answers the installation. */
  async function install(partner: Partner, shop: GivenMerchantWithStore, scopes: string[]): Promise<{ id: string }> {
    return { id: (await authorizeApp(api, partner, shop, { scopes, webhookUrl: `${receiver.url}${partner.path}` })).installationId };
  }

  const deliveriesPath = (partner: Partner, rest = '') => `/v1/app-store/developers/apps/${partner.app.id}/webhook-deliveries${rest}`;

  /** The partner's view of its app's delivery of `eventType` to `storeId`, once it is no longer queued; with attempts. */
  async function settledDelivery(partner: Partner, storeId: string, eventType: string) {
    return until(`the ${eventType} delivery to ${storeId}`, async () => {
      const list = await api.get(deliveriesPath(partner, `?store_id=${storeId}&event_type=${eventType}`), partner.as);
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      const d = list.body.data[0];
      if (!d || d.status === 'queued') return null;
      return (await api.get(deliveriesPath(partner, `/${d.id}`), partner.as)).body.data;
    });
  }

  it('lists the app.installed delivery of an install, successful, with the store and every attempt', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/log');
    const installation = await install(a, shop, ['read_orders']);
    const delivery = await settledDelivery(a, shop.store.id, 'app.installed');
    expect(delivery).to.include({
      status: 'successful',
      event_type: 'app.installed',
      store_id: shop.store.id,
      subscription_id: installation.id,
      attempt_count: 1,
      series: 1,
      last_status: 200,
    });
    expect(delivery.attempts).to.have.length(1);
    expect(delivery.attempts[0]).to.include({ series: 1, number: 0, status: 200, error: null, retry_seconds: null });
    const [req] = receiver.to('/log').filter((r) => r.verified);
    expect(req!.headers['x-platform-event-id']).to.equal(delivery.event_id);
    expect(req!.headers['x-platform-request-id']).to.equal(delivery.attempts[0].request_id);

    const listed = await api.get(deliveriesPath(a), a.as);
    expect(listed.body.data.map((d: { id: string }) => d.id)).to.deep.equal([delivery.id]);
    expect(listed.body.data[0]).to.not.have.property('attempts');
    expect(listed.body.data[0].store_id).to.equal(shop.store.id);
    expect(listed.body.page).to.deep.equal({ next_cursor: null });
  });

  it('lists the subscriptions of the app’s installations, never a secret', async () => {
    const [shop1, shop2] = [await givenMerchantWithStore(api), await givenMerchantWithStore(api)];
    const a = await givenAppAt('/subs');
    const first = await install(a, shop1, ['read_orders']);
    const second = await install(a, shop2, ['read_orders']);
    const res = await api.get(`/v1/app-store/developers/apps/${a.app.id}/webhook-subscriptions`, a.as);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.map((s: { id: string; store_id: string }) => [s.id, s.store_id])).to.deep.equal([
      [first.id, shop1.store.id],
      [second.id, shop2.store.id],
    ]);
    const [sub] = res.body.data;
    expect(sub).to.have.all.keys(
      'id',
      'store_id',
      'target_url',
      'event_types',
      'active',
      'disabled_reason',
      'disabled_at',
      'consecutive_failed_deliveries',
      'health',
      'failure_streak',
      'last_error',
      'failing_since',
      'last_success_at',
      'created_at',
      'updated_at',
    );
    expect(sub).to.include({ target_url: `${receiver.url}/subs`, active: true, disabled_reason: null, disabled_at: null, consecutive_failed_deliveries: 0 });
    expect(sub).to.include({ health: 'healthy', failure_streak: 0, failing_since: null });
    expect(sub.event_types).to.include.members(['app.installed', 'app.uninstalled', 'shop.redact']);
    expect(JSON.stringify(res.body)).to.not.include(a.webhookSecret);

    const page1 = await api.get(`/v1/app-store/developers/apps/${a.app.id}/webhook-subscriptions?limit=1`, a.as);
    expect(page1.body.data.map((s: { id: string }) => s.id)).to.deep.equal([first.id]);
    const page2 = await api.get(`/v1/app-store/developers/apps/${a.app.id}/webhook-subscriptions?limit=1&cursor=${page1.body.page.next_cursor}`, a.as);
    expect(page2.body.data.map((s: { id: string }) => s.id)).to.deep.equal([second.id]);
    expect(page2.body.page.next_cursor).to.equal(null);
    expect((await api.get(`/v1/app-store/developers/apps/${a.app.id}/webhook-subscriptions?active=true`, a.as)).status).to.equal(400);
  });

  it('filters by store, status, event type, event id and creation time, page by page', async () => {
    const [shop1, shop2] = [await givenMerchantWithStore(api), await givenMerchantWithStore(api)];
    const a = await givenAppAt('/filters', { scopes: ['read_products'], webhooks: { topics: ['product.created'] } });
    await install(a, shop1, ['read_products']);
    await install(a, shop2, ['read_products']);
    const installed1 = await settledDelivery(a, shop1.store.id, 'app.installed');
    const installed2 = await settledDelivery(a, shop2.store.id, 'app.installed');
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 100)); // the product's delivery is created strictly after `between`
    expect((await api.post('/v1/products', { title: 'Teapot', status: 'active', variants: [{ price: 1500 }] }, shop1.as)).status).to.equal(201);
    const product = await settledDelivery(a, shop1.store.id, 'product.created');

    const ids = async (query: string) => {
      const res = await api.get(deliveriesPath(a, query), a.as);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(200);
      return res.body.data.map((d: { id: string }) => d.id);
    };
    expect(await ids('')).to.deep.equal([installed1.id, installed2.id, product.id]);
    expect(await ids(`?store_id=${shop2.store.id}`)).to.deep.equal([installed2.id]);
    expect(await ids('?event_type=product.created')).to.deep.equal([product.id]);
    expect(await ids('?status=successful')).to.deep.equal([installed1.id, installed2.id, product.id]);
    expect(await ids('?status=failed')).to.deep.equal([]);
    expect(await ids(`?event_id=${installed2.event_id}`)).to.deep.equal([installed2.id]);
    expect(await ids(`?created_after=${encodeURIComponent(between)}`)).to.deep.equal([product.id]);
    expect(await ids(`?created_before=${encodeURIComponent(between)}&store_id=${shop1.store.id}`)).to.deep.equal([installed1.id]);
    expect(await ids(`?store_id=${new ObjectId().toHexString()}`)).to.deep.equal([]);

    const page1 = await api.get(deliveriesPath(a, '?limit=2'), a.as);
    expect(page1.body.data.map((d: { id: string }) => d.id)).to.deep.equal([installed1.id, installed2.id]);
    expect(await ids(`?limit=2&cursor=${page1.body.page.next_cursor}`)).to.deep.equal([product.id]);

    for (const bad of [
      '?status=lost',
      '?store_id=nope',
      '?event_type=Nope',
      '?created_after=yesterday',
      `?subscription_id=${new ObjectId().toHexString()}`,
      '?limit=0',
    ]) {
      const res = await api.get(deliveriesPath(a, bad), a.as);
      expect([res.status, res.body.error.code], bad).to.deep.equal([400, 'invalid_input']);
    }
  });

  it('records a failing endpoint’s nine attempts, refuses redelivery while the subscription is disabled, and redelivers in a new series once fixed', async () => {
    let down = true;
    receiver.on('/down', () => ({ status: down ? 500 : 204 }));
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/down');
    const installation = await install(a, shop, ['read_orders']);
    const failed = await settledDelivery(a, shop.store.id, 'app.installed');
    expect(failed).to.include({ status: 'failed', attempt_count: 9, last_status: 500, next_attempt: null, series: 1 });
    expect(failed.attempts.map((x: { number: number }) => x.number)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(failed.attempts.every((x: { status: number; series: number }) => x.status === 500 && x.series === 1)).to.equal(true);
    const subs = await until('the failure counted on the subscription', async () => {
      const list = (await api.get(`/v1/app-store/developers/apps/${a.app.id}/webhook-subscriptions`, a.as)).body.data;
      return list[0]?.consecutive_failed_deliveries === 1 ? list : null;
    });
    expect(subs[0]).to.include({ id: installation.id, active: true });

    // Disabled as the platform does after five failed deliveries in a row: nothing to redeliver to.
    const subscriptions = app.platform.db.collection('webhook_subscriptions');
    await subscriptions.updateOne({ _id: new ObjectId(installation.id) }, { $set: { active: false, disabled_reason: 'failing', disabled_at: new Date() } });
    const refused = await api.post(deliveriesPath(a, `/${failed.id}/redeliver`), undefined, a.as);
    expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'subscription_inactive']);
    const disabled = (await api.get(`/v1/app-store/developers/apps/${a.app.id}/webhook-subscriptions`, a.as)).body.data[0];
    expect(disabled).to.include({ active: false, disabled_reason: 'failing' });

    // The partner fixes its endpoint; the merchant's new authorization enables the subscription again.
    down = false;
    await install(a, shop, ['read_orders']);
    const res = await api.post(deliveriesPath(a, `/${failed.id}/redeliver`), undefined, a.as);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body.data).to.include({ id: failed.id, status: 'queued', series: 2, store_id: shop.store.id });
    const done = await until('the redelivery', async () => {
      const d = (await api.get(deliveriesPath(a, `/${failed.id}`), a.as)).body.data;
      return d.status === 'successful' ? d : null;
    });
    expect(done.attempts).to.have.length(10);
    expect(done.attempts.at(-1)).to.include({ series: 2, number: 0, status: 204 });
    expect(receiver.to('/down').filter((r) => r.verified && r.eventId === failed.event_id)).to.have.length(10);
    const again = await api.post(deliveriesPath(a, `/${failed.id}/redeliver`), undefined, a.as);
    expect([again.status, again.body.error.code]).to.deep.equal([409, 'delivery_not_failed']);
  });

  it('answers 404 to another partner for the app and for its delivery ids, even under its own app', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/mine');
    const other = await givenAppAt('/theirs');
    await install(a, shop, ['read_orders']);
    await install(other, shop, ['read_orders']);
    const mine = await settledDelivery(a, shop.store.id, 'app.installed');
    const otherDelivery = await settledDelivery(other, shop.store.id, 'app.installed');
    const base = `/v1/app-store/developers/apps/${a.app.id}`;
    const refusals: [method: string, path: string, caller: Partner][] = [
      // The other partner, on this app.
      ['GET', `${base}/webhook-subscriptions`, other],
      ['GET', `${base}/webhook-deliveries`, other],
      ['GET', `${base}/webhook-deliveries/${mine.id}`, other],
      ['POST', `${base}/webhook-deliveries/${mine.id}/redeliver`, other],
      // The other partner, asking for this app's delivery under its own app, and the reverse.
      ['GET', deliveriesPath(other, `/${mine.id}`), other],
      ['POST', deliveriesPath(other, `/${mine.id}/redeliver`), other],
      ['GET', deliveriesPath(a, `/${otherDelivery.id}`), a],
      // Ids that are not ids.
      ['GET', deliveriesPath(a, '/nope'), a],
      ['GET', '/v1/app-store/developers/apps/nope/webhook-deliveries', a],
    ];
    for (const [method, path, caller] of refusals) {
      const res = await api.send(method, path, undefined, caller.as);
      expect([res.status, res.body.error?.code], `${method} ${path}`).to.deep.equal([404, 'not_found']);
    }
    expect((await api.get(deliveriesPath(other), other.as)).body.data.map((d: { id: string }) => d.id)).to.deep.equal([otherDelivery.id]);

    // Not a partner at all, or no session.
    const plain = await givenMerchant(api);
    const noProfile = await api.get(deliveriesPath(a), { token: plain.token });
    expect([noProfile.status, noProfile.body.error.code]).to.deep.equal([403, 'developer_profile_required']);
    expect((await api.get(deliveriesPath(a))).status).to.equal(401);
    // A developer without the app (a profile, no apps) is 404 as well.
    const stranger = await givenDeveloper(api);
    expect((await api.get(deliveriesPath(a), { token: stranger.merchant.token })).status).to.equal(404);
  });

  it('leaves the merchant’s store-scoped log as it was: the store’s deliveries, the app’s among them, in the store’s view', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/merchant-view');
    await install(a, shop, ['read_orders']);
    const partnerView = await settledDelivery(a, shop.store.id, 'app.installed');
    const list = await api.get('/v1/operations/webhook-deliveries', shop.as);
    expect(list.status).to.equal(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).to.deep.equal([partnerView.id]);
    expect(list.body.data[0]).to.not.have.property('store_id');
    const one = await api.get(`/v1/operations/webhook-deliveries/${partnerView.id}`, shop.as);
    const { store_id: _storeId, ...storeView } = partnerView;
    expect(one.body.data).to.deep.equal(storeView);
    // Another store's merchant sees none of it; the partner's filter cannot reach it either.
    const stranger = await givenMerchantWithStore(api);
    expect((await api.get(`/v1/operations/webhook-deliveries/${partnerView.id}`, stranger.as)).status).to.equal(404);
    expect((await api.get(`/v1/operations/webhook-deliveries?store_id=${shop.store.id}`, stranger.as)).status).to.equal(400);
  });
});
