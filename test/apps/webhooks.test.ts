import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { authorizeApp, givenPublishedApp, type GivenApp } from '../helpers/apps.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { verifyBySpec } from '../helpers/spec-verifier.js';
import { until } from '../helpers/waiting.js';
import { givenSubscriptionTo, useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-app-webhooks@example.com';
const SECRET = 'internal-secret-for-the-app-webhooks-tests-0123456789';
const CONTRACT = '2026-06-05.ws13.lifecycle';
const COMPLIANCE = ['customers.data_request', 'customers.redact', 'shop.redact'];

/**
 * App webhooks and the compliance producer (docs/apps.md, App webhooks and Compliance webhooks):
 * the web process, a webhooks worker and a maintenance worker, and a partner endpoint that
 * verifies every signature with the app's secret (test/helpers/webhook-receiver.ts answers 401
 * to anything that does not verify, so every successful delivery below is a verified one).
 */
describe('App webhooks: lifecycle and compliance topics, signed with the app’s secret', () => {
  const { app, api, receiver, internal } = useWebhooksApp(
    'app_webhooks',
    {
      OPERATOR_EMAILS: OPERATOR,
      INTERNAL_SECRET: SECRET,
      WEBHOOK_RETRY_BASE_SECONDS: '0.05',
      WEBHOOK_RETRY_CAP_SECONDS: '0.4',
      WEBHOOK_TIMEOUT_MS: '1500',
      JOBS_POLL_INTERVAL_MS: '100',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
      MAINTENANCE_SWEEP_INTERVAL_MS: '500',
      APP_SHOP_REDACT_DELAY_SECONDS: '2',
    },
    { groups: ['webhooks', 'maintenance'] },
  );
  let operatorToken: string;
  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  /** A published app whose partner endpoint is `path` on the receiver, verifying with the app's secret. */
  async function givenAppAt(path: string, manifest: Record<string, unknown> = {}): Promise<GivenApp & { path: string }> {
    const partner = await givenPublishedApp(api, operatorToken, manifest);
    expect(partner.webhookSecret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    receiver.expectSecret(path, partner.webhookSecret);
    return { ...partner, path };
  }

  /** The merchant's consent (spec 2.1) with the receiver path as webhook_url; answers the installation. */
  async function install(partner: GivenApp & { path: string }, shop: GivenMerchantWithStore, scopes: string[]) {
    return { id: (await authorizeApp(api, partner, shop, { scopes, webhookUrl: `${receiver.url}${partner.path}` })).installationId };
  }

  /** The verified requests the partner at `path` processed, by event type. */
  const received = (path: string, type?: string) => receiver.to(path).filter((r) => r.verified && (!type || r.headers['x-platform-event-type'] === type));
  const waitFor = (path: string, type: string, count = 1) =>
    until(`${count} × ${type} at ${path}`, async () => (received(path, type).length >= count ? received(path, type) : null));

  it('delivers app.installed to the installation’s webhook_url, signed with the app’s own secret, and no other app hears of it', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/installed-a');
    const b = await givenAppAt('/installed-b');
    const installationA = await install(a, shop, ['read_orders']);
    const [req] = await waitFor('/installed-a', 'app.installed');
    const body = JSON.parse(req!.body);
    expect(body).to.have.all.keys('id', 'event_type', 'created_at', 'payload');
    expect(body.payload).to.include({ contract_version: CONTRACT });
    expect(body.payload.installation).to.include({ id: installationA.id, store_id: shop.store.id, status: 'active' });
    expect(body.payload.app).to.include({ id: a.app.id });
    expect(verifyBySpec(a.webhookSecret, req!.headers, req!.raw)).to.equal(true);
    expect(verifyBySpec(b.webhookSecret, req!.headers, req!.raw)).to.equal(false);
    expect(req!.headers['x-platform-event-id']).to.equal(body.id);
    expect(req!.headers['x-platform-timestamp']).to.match(/^\d{10}$/);

    // B installs after: it gets its own app.installed, never A's (and A never B's).
    await install(b, shop, ['read_orders']);
    await waitFor('/installed-b', 'app.installed');
    await new Promise((r) => setTimeout(r, 500));
    expect(received('/installed-b', 'app.installed')).to.have.length(1);
    expect(received('/installed-a', 'app.installed')).to.have.length(1);

    // The deliveries are in the log, with the app; the app's subscription is not the merchant's to list or change.
    const delivery = await app.platform.db.collection('webhook_deliveries').findOne({ event_id: new ObjectId(body.id) });
    expect(delivery).to.include({ status: 'successful', event_type: 'app.installed' });
    expect(delivery!.app_id.toHexString()).to.equal(a.app.id);
    const subs = await api.get('/v1/operations/webhook-subscriptions', shop.as);
    expect(subs.body.data).to.deep.equal([]);
    expect((await api.patch(`/v1/operations/webhook-subscriptions/${installationA.id}`, { active: false }, shop.as)).status).to.equal(404);
    const sub = await app.platform.db.collection('webhook_subscriptions').findOne({ _id: new ObjectId(installationA.id) });
    expect(sub).to.deep.include({ active: true, target_url: `${receiver.url}/installed-a` });
    expect(sub!.event_types).to.include.members(['app.installed', 'app.uninstalled', ...COMPLIANCE]);
    expect(sub).to.not.have.property('secret');
  });

  it('keeps the signing secret sealed: never stored or shown in plaintext after submission', async () => {
    const a = await givenAppAt('/sealed');
    const stored = await app.platform.db.collection('app_webhook_secrets').findOne({ _id: new ObjectId(a.app.id) });
    expect(stored).to.exist;
    const raw = JSON.stringify(stored);
    expect(raw).to.not.include(a.webhookSecret);
    expect(raw).to.not.include(a.webhookSecret.slice('whsec_'.length, 20));
    const view = await api.get(`/v1/app-store/developers/apps/${a.app.id}`, { token: a.developer.merchant.token });
    expect(JSON.stringify(view.body)).to.not.include(a.webhookSecret);
  });

  it('sends store topics the manifest lists only while the granted scopes allow them', async () => {
    const shop = await givenMerchantWithStore(api);
    const reads = await givenAppAt('/topics-reads', { scopes: ['read_products'], webhooks: { topics: ['product.created'] } });
    const narrow = await givenAppAt('/topics-narrow', { scopes: ['read_orders', 'read_products'], webhooks: { topics: ['product.created'] } });
    await install(reads, shop, ['read_products']);
    await install(narrow, shop, ['read_orders']); // granted without read_products: no product topics
    const created = await api.post('/v1/products', { title: 'Teapot', status: 'active', variants: [{ price: 1500 }] }, shop.as);
    expect(created.status).to.equal(201);
    const [req] = await waitFor('/topics-reads', 'product.created');
    expect(JSON.parse(req!.body).payload.product.id).to.equal(created.body.data.id);
    await new Promise((r) => setTimeout(r, 800));
    expect(received('/topics-narrow', 'product.created')).to.have.length(0);
  });

  it('on uninstall: app.uninstalled at once, shop.redact after the delay, then nothing', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/uninstall', { scopes: ['read_products'], webhooks: { topics: ['product.created'] } });
    const installation = await install(a, shop, ['read_products']);
    await waitFor('/uninstall', 'app.installed');
    const gone = await api.delete(`/v1/app-store/installations/${installation.id}`, shop.as);
    expect(gone.status, JSON.stringify(gone.body)).to.equal(200);
    const [uninstalled] = await waitFor('/uninstall', 'app.uninstalled');
    expect(JSON.parse(uninstalled!.body).payload).to.include({ contract_version: CONTRACT });
    // The store's events stop at once.
    await api.post('/v1/products', { title: 'After', status: 'active', variants: [{ price: 100 }] }, shop.as);

    const [redact] = await waitFor('/uninstall', 'shop.redact');
    // Sent by the sweep that found it due: the delay after the uninstall, as the platform's clock recorded both.
    // The sweep records the request (which may be delivered at once) and then marks the installation: wait for the mark.
    const done = await until('the installation marked redacted', () =>
      app.platform.db.collection('app_installations').findOne({ _id: new ObjectId(installation.id), shop_redacted_at: { $ne: null } }),
    );
    expect(done!.shop_redacted_at.getTime() - done!.uninstalled_at.getTime()).to.be.at.least(2000);
    const payload = JSON.parse(redact!.body).payload;
    expect(payload).to.deep.include({
      contract_version: CONTRACT,
      shop: { id: shop.store.id, subdomain: shop.store.subdomain },
      installation_id: installation.id,
    });
    expect(payload.request.source).to.equal('uninstall');
    expect(verifyBySpec(a.webhookSecret, redact!.headers, redact!.raw)).to.equal(true);

    // After that, nothing: no second shop.redact at later sweeps, no store topic.
    await new Promise((r) => setTimeout(r, 2000));
    expect(received('/uninstall', 'shop.redact')).to.have.length(1);
    expect(received('/uninstall', 'product.created')).to.have.length(0);
    const listed = await until('the shop.redact delivery recorded successful', async () => {
      const r = await api.get(`/v1/operations/compliance-requests?store_id=${shop.store.id}&source=uninstall`, { token: operatorToken });
      return r.body.data[0]?.apps[0].delivery.status === 'successful' ? r.body.data : null;
    });
    expect(listed).to.have.length(1);
    expect(listed[0]).to.deep.include({ topic: 'shop.redact', source: 'uninstall', requested_by: null });
  });

  it('after an uninstall, a store topic that failed before is neither retried nor redelivered; the lifecycle topics still are', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/topic-gone', { scopes: ['read_products'], webhooks: { topics: ['product.created'] } });
    let failing = false;
    receiver.on('/topic-gone', () => (failing ? { status: 500 } : {}));
    const installation = await install(a, shop, ['read_products']);
    await waitFor('/topic-gone', 'app.installed');
    failing = true;
    await api.post('/v1/products', { title: 'Failing', status: 'active', variants: [{ price: 100 }] }, shop.as);
    const partner = { token: a.developer.merchant.token };
    const failed = await until('the product.created delivery failed', async () => {
      const list = await api.get(`/v1/app-store/developers/apps/${a.app.id}/webhook-deliveries?event_type=product.created`, partner);
      return list.body.data[0]?.status === 'failed' ? list.body.data[0] : null;
    });
    failing = false;
    expect((await api.delete(`/v1/app-store/installations/${installation.id}`, shop.as)).status).to.equal(200);
    await waitFor('/topic-gone', 'app.uninstalled');
    const refused = await api.post(`/v1/app-store/developers/apps/${a.app.id}/webhook-deliveries/${failed.id}/redeliver`, undefined, partner);
    expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'topic_not_subscribed']);
    await new Promise((r) => setTimeout(r, 500));
    expect(received('/topic-gone', 'product.created')).to.have.length(9); // its nine failed attempts, nothing since
  });

  it('a re-install before the delay cancels the shop.redact of the uninstall', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/reinstall');
    const installation = await install(a, shop, ['read_orders']);
    expect((await api.delete(`/v1/app-store/installations/${installation.id}`, shop.as)).status).to.equal(200);
    await install(a, shop, ['read_orders']);
    await waitFor('/reinstall', 'app.installed', 2);
    await new Promise((r) => setTimeout(r, 3500));
    expect(received('/reinstall', 'shop.redact')).to.have.length(0);
  });

  describe('the compliance producer routes', () => {
    let shop: GivenMerchantWithStore;
    let a: GivenApp & { path: string };
    let b: GivenApp & { path: string };
    let customerId: string;

    before(async () => {
      shop = await givenMerchantWithStore(api);
      a = await givenAppAt('/compliance-a');
      b = await givenAppAt('/compliance-b');
      await install(a, shop, ['read_orders']);
      await install(b, shop, ['read_orders']);
      customerId = (await givenCustomer(api, shop.as, { first_name: 'Ada', phone: '+33123456789' })).id;
    });

    const post = (path: string, body: unknown, key: string | null, token = shop.merchant.token) =>
      api.post(`/v1/app-store/compliance${path}`, body, { token, headers: key ? { 'Idempotency-Key': key } : {} });

    it('customers/data-request: one notice to every installed app, exactly once even when retried with the same key', async () => {
      const key = `dr-${randomBytes(6).toString('hex')}`;
      const first = await post('/customers/data-request', { store_id: shop.store.id, customer_id: customerId }, key);
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body.data).to.include({ topic: 'customers.data_request', store_id: shop.store.id, source: 'merchant' });
      expect(first.body.data.customer).to.include({ id: customerId, phone: '+33123456789' });
      expect(first.body.data.apps.map((x: { app_id: string }) => x.app_id).sort()).to.deep.equal([a.app.id, b.app.id].sort());
      const again = await post('/customers/data-request', { store_id: shop.store.id, customer_id: customerId }, key);
      expect(again.status).to.equal(201);
      expect(again.body.data.id).to.equal(first.body.data.id);

      const [toA] = await waitFor('/compliance-a', 'customers.data_request');
      await waitFor('/compliance-b', 'customers.data_request');
      const payload = JSON.parse(toA!.body).payload;
      expect(payload).to.deep.include({ contract_version: CONTRACT, shop: { id: shop.store.id, subdomain: shop.store.subdomain }, orders_requested: [] });
      expect(payload.customer).to.include({ id: customerId });
      expect(payload.request.id).to.equal(first.body.data.id);
      await new Promise((r) => setTimeout(r, 1000));
      expect(received('/compliance-a', 'customers.data_request')).to.have.length(1);
      expect(received('/compliance-b', 'customers.data_request')).to.have.length(1);

      // The operator sees who was told and how it went.
      const seen = await until('both deliveries successful', async () => {
        const r = await api.get(`/v1/operations/compliance-requests/${first.body.data.id}`, { token: operatorToken });
        return r.body.data.apps.every((x: { delivery: { status: string } }) => x.delivery.status === 'successful') ? r.body.data : null;
      });
      expect(seen.requested_by).to.equal(shop.merchant.id);
      expect((await api.get('/v1/operations/compliance-requests', shop.as)).status).to.equal(403);
    });

    it('customers/redact and shop/redact deliver their topics to every app, once per key', async () => {
      const redact = await post(
        '/customers/redact',
        { store_id: shop.store.id, email: 'Gone@Example.com', orders_to_redact: [new ObjectId().toHexString()] },
        `cr-${randomBytes(6).toString('hex')}`,
      );
      expect(redact.status, JSON.stringify(redact.body)).to.equal(201);
      expect(redact.body.data.customer).to.deep.equal({ id: null, email: 'gone@example.com', phone: null });
      const shopKey = `sr-${randomBytes(6).toString('hex')}`;
      const shopRedact = await post('/shop/redact', { store_id: shop.store.id }, shopKey);
      expect(shopRedact.status, JSON.stringify(shopRedact.body)).to.equal(201);
      expect((await post('/shop/redact', { store_id: shop.store.id }, shopKey)).body.data.id).to.equal(shopRedact.body.data.id);
      for (const path of ['/compliance-a', '/compliance-b']) {
        const [r] = await waitFor(path, 'customers.redact');
        expect(JSON.parse(r!.body).payload.orders_to_redact).to.have.length(1);
        await waitFor(path, 'shop.redact');
      }
      await new Promise((r) => setTimeout(r, 1000));
      expect(received('/compliance-a', 'shop.redact')).to.have.length(1);
      expect(received('/compliance-b', 'customers.redact')).to.have.length(1);
    });

    it('compliance notices go to apps only: a merchant subscription to every event never receives them', async () => {
      receiver.expectSecret('/merchant-all', 'unknown-yet');
      const sub = await givenSubscriptionTo(api, shop.as, receiver, '/merchant-all', ['*']);
      await new Promise((r) => setTimeout(r, 1200)); // past the subscription cache of other processes
      await post('/shop/redact', { store_id: shop.store.id }, `sr-${randomBytes(6).toString('hex')}`);
      await api.patch(`/v1/stores/${shop.store.id}`, { name: 'Renamed for the merchant' }, shop.as);
      await waitFor('/merchant-all', 'store.updated');
      expect(received('/merchant-all', 'shop.redact')).to.have.length(0);
      await api.delete(`/v1/operations/webhook-subscriptions/${sub.id}`, shop.as);
    });

    it('refuses without an Idempotency-Key, for another merchant’s store, with bad input, and for another store’s customer; nothing is sent', async () => {
      const before = await app.platform.db.collection('compliance_requests').countDocuments({ store_id: new ObjectId(shop.store.id) });
      const noKey = await post('/shop/redact', { store_id: shop.store.id }, null);
      expect([noKey.status, noKey.body.error.code]).to.deep.equal([400, 'idempotency_key_required']);
      const stranger = await givenMerchantWithStore(api);
      const forbidden = await post('/shop/redact', { store_id: shop.store.id }, 'k-stranger', stranger.merchant.token);
      expect([forbidden.status, forbidden.body.error.code]).to.deep.equal([403, 'store_forbidden']);
      expect(
        (await api.post('/v1/app-store/compliance/shop/redact', { store_id: shop.store.id }, { headers: { 'Idempotency-Key': 'k-anon' } })).status,
      ).to.equal(401);
      for (const bad of [
        {},
        { store_id: shop.store.id, customer_id: 'nope' },
        { store_id: shop.store.id },
        { store_id: shop.store.id, email: 'not-an-email' },
        { store_id: shop.store.id, email: 'a@b.co', extra: 1 },
      ]) {
        const res = await post('/customers/redact', bad, `k-bad-${randomBytes(4).toString('hex')}`);
        expect(res.status, JSON.stringify(bad)).to.equal(400);
        expect(res.body.error).to.have.property('code');
      }
      const theirCustomer = await givenCustomer(api, stranger.as);
      const crossStore = await post('/customers/data-request', { store_id: shop.store.id, customer_id: theirCustomer.id }, 'k-cross');
      expect(crossStore.status).to.equal(404);
      expect(await app.platform.db.collection('compliance_requests').countDocuments({ store_id: new ObjectId(shop.store.id) })).to.equal(before);
    });

    it('refuses, naming the app, when an installed app has no webhook delivery configuration', async () => {
      const legacyShop = await givenMerchantWithStore(api);
      const legacy = await givenAppAt('/legacy', { handle: `legacy-${randomBytes(3).toString('hex')}` });
      const installation = await install(legacy, legacyShop, ['read_orders']);
      // An installation from before app webhooks: no subscription.
      await app.platform.db.collection('webhook_subscriptions').deleteOne({ _id: new ObjectId(installation.id) });
      const refused = await post('/customers/data-request', { store_id: legacyShop.store.id, email: 'x@example.com' }, 'k-legacy', legacyShop.merchant.token);
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'app_webhooks_not_configured']);
      expect(refused.body.error.message).to.include(legacy.app.handle);
      expect(refused.body.error.details[0]).to.match(new RegExp(`^apps\\.${legacy.app.handle}: has no webhook subscription`));
      expect(await app.platform.db.collection('compliance_requests').countDocuments({ store_id: new ObjectId(legacyShop.store.id) })).to.equal(0);
      // The partner's fix: the merchant re-authorizes, which makes the subscription again.
      await install(legacy, legacyShop, ['read_orders']);
      const accepted = await post(
        '/customers/data-request',
        { store_id: legacyShop.store.id, email: 'x@example.com' },
        'k-legacy-2',
        legacyShop.merchant.token,
      );
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(201);
      await waitFor('/legacy', 'customers.data_request');
    });
  });

  it('rotates the app’s secret: the new one signs, the previous one beside it for the grace period', async () => {
    const shop = await givenMerchantWithStore(api);
    const a = await givenAppAt('/rotate');
    const other = await givenAppAt('/rotate-other');
    const stranger = await api.post(`/v1/app-store/developers/apps/${a.app.id}/webhook-secret`, {}, { token: other.developer.merchant.token });
    expect(stranger.status).to.equal(404);
    const rotated = await api.post(
      `/v1/app-store/developers/apps/${a.app.id}/webhook-secret`,
      { grace_period_seconds: 3600 },
      { token: a.developer.merchant.token },
    );
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    expect(rotated.body.data.secret)
      .to.match(/^whsec_/)
      .and.not.equal(a.webhookSecret);
    expect(rotated.body.data.previous_secret_expires_at).to.be.a('string');
    receiver.expectSecret('/rotate', rotated.body.data.secret);
    await install(a, shop, ['read_orders']);
    const [req] = await waitFor('/rotate', 'app.installed');
    expect(verifyBySpec(rotated.body.data.secret, req!.headers, req!.raw)).to.equal(true);
    expect(verifyBySpec(a.webhookSecret, req!.headers, req!.raw, 'x-platform-hmac-sha256-previous')).to.equal(true);
    const bad = await api.post(`/v1/app-store/developers/apps/${a.app.id}/webhook-secret`, { grace_period_seconds: -1 }, { token: a.developer.merchant.token });
    expect(bad.status).to.equal(400);
  });

  it('serves POST /app-lifecycle/dispatch only with the internal secret, compared in constant time', async () => {
    const url = `http://127.0.0.1:${internal.port}/app-lifecycle/dispatch`;
    const send = (headers: Record<string, string>, body = JSON.stringify({ event_ids: [new ObjectId().toHexString()] })) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const none = await send({});
    expect(none.status).to.equal(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).to.equal('invalid_internal_secret');
    expect((await send({ 'x-platform-internal-secret': `${SECRET}x` })).status).to.equal(401);
    expect((await send({ 'x-platform-internal-secret': SECRET.slice(0, -1) })).status).to.equal(401);
    const ok = await send({ 'x-platform-internal-secret': SECRET });
    expect(ok.status).to.equal(200);
    expect(((await ok.json()) as { data: Record<string, number> }).data).to.include({ events: 0, skipped: 1 });
    expect((await api.post('/v1/app-lifecycle/dispatch', {}, { headers: { 'x-platform-internal-secret': SECRET } })).status).to.equal(404);
  });
});
