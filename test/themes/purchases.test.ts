import { expect } from 'chai';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { startTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, givenStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { approvedTheme, useThemeMarketplace } from '../helpers/theme-marketplace.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'purchase-operator@example.com';

/**
 * Purchases of paid marketplace themes (docs/themes.md, Purchases): a pending purchase with the
 * platform's sandbox provider order, the provider's signed payment verified and recorded once,
 * then install. Refused and replayed verifications change nothing.
 */
describe('Theme purchases: purchase, verify the payment, install', () => {
  const { app, api, author, operator } = useThemeMarketplace('theme_purchases', OPERATOR);

  /** Upload as the author, let the worker check it, approve it: a published marketplace theme (paid at `price` unless null). */
  const published = (price: number | null = 49.99): Promise<string> => {
    const bundle = bundleOf('aurora');
    if (price !== null) Object.assign(bundle.package, { pricing_type: 'paid', price, currency: 'USD' });
    return approvedTheme(api, author, operator, bundle);
  };
  const purchase = (slug: string, shop: GivenMerchantWithStore, storeId = shop.store.id, headers?: Record<string, string>) =>
    api.post(`/v1/themes/${slug}/purchase`, { store_id: storeId }, { token: shop.merchant.token, ...(headers ? { headers } : {}) });
  const simulate = (slug: string, shop: GivenMerchantWithStore, purchaseId: string) =>
    api.post(`/v1/themes/${slug}/purchase/simulate`, { store_id: shop.store.id, purchase_id: purchaseId }, { token: shop.merchant.token });
  const verify = (slug: string, shop: GivenMerchantWithStore, body: Record<string, unknown>) =>
    api.post(`/v1/themes/${slug}/purchase/verify`, { store_id: shop.store.id, ...body }, { token: shop.merchant.token });
  const install = (slug: string, shop: GivenMerchantWithStore, storeId = shop.store.id) =>
    api.post(`/v1/themes/${slug}/install`, { store_id: storeId }, { token: shop.merchant.token });
  const purchasesOf = (slug: string) =>
    app.platform.db
      .collection('theme_purchases')
      .find({ slug }, { projection: { pending_events: 0, events_pending_since: 0 } })
      .toArray();
  const purchasedEvents = (purchaseId: string) => app.platform.db.collection('events').countDocuments({ idempotency_key: `theme.purchased:${purchaseId}` });

  it('refuses to sell a free theme (409 theme_is_free), and an unknown one (404)', async () => {
    const free = await published(null);
    const shop = await givenMerchantWithStore(api);
    const res = await purchase(free, shop);
    expect([res.status, res.body.error.code]).to.deep.equal([409, 'theme_is_free']);
    expect((await purchase('no-such-theme', shop)).status).to.equal(404);
    expect((await purchase('Not A Slug', shop)).status).to.equal(404);
    expect(await purchasesOf(free)).to.deep.equal([]);
  });

  it('a paid theme: install 402 → purchase pending → wrong signature refused → verified paid → replay changes nothing → install 201', async () => {
    const slug = await published(49.99);
    const shop = await givenMerchantWithStore(api);

    const refused = await install(slug, shop);
    expect([refused.status, refused.body.error.code]).to.deep.equal([402, 'purchase_required']);
    expect(refused.body.error.message).to.include(`/v1/themes/${slug}/purchase`);

    const key = { 'idempotency-key': `buy-${randomBytes(4).toString('hex')}` };
    const created = await purchase(slug, shop, shop.store.id, key);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const retried = await purchase(slug, shop, shop.store.id, key);
    expect([retried.status, retried.body]).to.deep.equal([201, created.body]);
    const p = created.body.data.purchase;
    expect(p).to.include({
      slug,
      store_id: shop.store.id,
      amount: 49.99,
      currency: 'USD',
      status: 'pending',
      provider: 'sandbox',
      provider_payment_id: null,
      paid_at: null,
    });
    expect(p.provider_order_id).to.match(/^sbx_order_/);
    // A pending purchase is reused; the amount never comes from the client.
    const again = await purchase(slug, shop);
    expect([again.status, again.body.data.purchase.id, again.body.data.purchase.provider_order_id]).to.deep.equal([200, p.id, p.provider_order_id]);
    expect((await api.post(`/v1/themes/${slug}/purchase`, { store_id: shop.store.id, amount: 1 }, { token: shop.merchant.token })).status).to.equal(400);

    const paid = await simulate(slug, shop, p.id);
    expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
    const { provider_payment_id, signature } = paid.body.data;
    // The sandbox signs as a real provider would, with the platform's key secret (derived from SECRETS_KEYS).
    const platformSecret = Buffer.from(
      hkdfSync('sha256', app.platform.config.secretsKeys[0]!.key, Buffer.alloc(0), 'emporium:themes.purchases.sandbox', 32),
    ).toString('hex');
    expect(signature).to.equal(createHmac('sha256', platformSecret).update(`${p.provider_order_id}|${provider_payment_id}`).digest('hex'));

    const before = await purchasesOf(slug);
    const forged = await verify(slug, shop, {
      purchase_id: p.id,
      provider_payment_id,
      signature: createHmac('sha256', 'not-the-secret').update(`${p.provider_order_id}|${provider_payment_id}`).digest('hex'),
    });
    expect([forged.status, forged.body.error.code]).to.deep.equal([400, 'invalid_signature']);
    const otherPayment = await verify(slug, shop, { purchase_id: p.id, provider_payment_id: 'sbx_pay_other', signature });
    expect([otherPayment.status, otherPayment.body.error.code]).to.deep.equal([400, 'invalid_signature']);
    const garbage = await verify(slug, shop, { purchase_id: p.id, provider_payment_id, signature: 'zz' });
    expect([garbage.status, garbage.body.error.code]).to.deep.equal([400, 'invalid_signature']);
    expect(await purchasesOf(slug)).to.deep.equal(before);
    // Recorded for operators once a minute per purchase, however many fail (docs/operations.md, Security enforcement).
    const failures = await until('the signature failure to be recorded', async () => {
      const found = await app.platform.db.collection('enforcement_events').find({ kind: 'payment_signature_failed', 'subject.purchase_id': p.id }).toArray();
      return found.length > 0 ? found : null;
    });
    expect(failures[0]!.subject).to.deep.equal({ store_id: shop.store.id, purchase_id: p.id });
    expect(failures.length).to.be.at.most(2); // 2 only when the three failures straddle a minute
    expect((await install(slug, shop)).status).to.equal(402);

    const verified = await verify(slug, shop, { purchase_id: p.id, provider_payment_id, signature });
    expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
    expect(verified.body.data.purchase).to.include({ id: p.id, status: 'paid', provider_payment_id });
    expect(verified.body.data.purchase.paid_at).to.be.a('string');
    expect(await purchasedEvents(p.id)).to.equal(1);

    const afterPaid = await purchasesOf(slug);
    const replay = await verify(slug, shop, { purchase_id: p.id, provider_payment_id, signature });
    expect(replay.status).to.equal(200);
    expect(replay.body.data.purchase).to.deep.equal(verified.body.data.purchase);
    // Another signed payment for a paid purchase is refused: the store does not pay twice.
    const second = (await simulate(slug, shop, p.id)).body.data;
    const twice = await verify(slug, shop, { purchase_id: p.id, provider_payment_id: second.provider_payment_id, signature: second.signature });
    expect([twice.status, twice.body.error.code]).to.deep.equal([409, 'already_purchased']);
    expect(await purchasesOf(slug)).to.deep.equal(afterPaid);
    expect(await purchasedEvents(p.id)).to.equal(1);
    const rebuy = await purchase(slug, shop);
    expect([rebuy.status, rebuy.body.error.code]).to.deep.equal([409, 'already_purchased']);

    const installed = await install(slug, shop);
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    expect(installed.body.data).to.include({ slug, role: 'live' });
  });

  it('another merchant can neither purchase for, simulate for nor verify for a store it does not own', async () => {
    const slug = await published(19);
    const shop = await givenMerchantWithStore(api);
    const p = (await purchase(slug, shop)).body.data.purchase;
    const pay = (await simulate(slug, shop, p.id)).body.data;
    const intruder = await givenMerchantWithStore(api);

    const forPurchase = await purchase(slug, intruder, shop.store.id);
    expect([forPurchase.status, forPurchase.body.error.code]).to.deep.equal([403, 'store_forbidden']);
    const forSimulate = await api.post(
      `/v1/themes/${slug}/purchase/simulate`,
      { store_id: shop.store.id, purchase_id: p.id },
      { token: intruder.merchant.token },
    );
    expect(forSimulate.status).to.equal(403);
    const forVerify = await api.post(
      `/v1/themes/${slug}/purchase/verify`,
      { store_id: shop.store.id, purchase_id: p.id, provider_payment_id: pay.provider_payment_id, signature: pay.signature },
      { token: intruder.merchant.token },
    );
    expect([forVerify.status, forVerify.body.error.code]).to.deep.equal([403, 'store_forbidden']);
    // With its own store, the other store's purchase is not found.
    const withOwnStore = await verify(slug, intruder, { purchase_id: p.id, provider_payment_id: pay.provider_payment_id, signature: pay.signature });
    expect(withOwnStore.status).to.equal(404);
    expect((await api.post(`/v1/themes/${slug}/purchase`, {}, { token: intruder.merchant.token })).status).to.equal(400);
    expect((await api.post(`/v1/themes/${slug}/purchase`, { store_id: shop.store.id })).status).to.equal(401);
    expect((await verify(slug, shop, { purchase_id: 'nope', provider_payment_id: 'x', signature: 'y' })).status).to.equal(400);
    expect((await verify(slug, shop, { purchase_id: p.id })).status).to.equal(400);

    expect((await purchasesOf(slug)).map((d) => d.status)).to.deep.equal(['pending']);
  });

  it('a purchase unlocks only the store that paid: another store of the same merchant still gets 402', async () => {
    const slug = await published(25);
    const shop = await givenMerchantWithStore(api);
    const other = await givenStore(api, shop.merchant);
    const p = (await purchase(slug, shop)).body.data.purchase;
    const pay = (await simulate(slug, shop, p.id)).body.data;
    expect((await verify(slug, shop, { purchase_id: p.id, provider_payment_id: pay.provider_payment_id, signature: pay.signature })).status).to.equal(200);

    // The paid purchase cannot be presented for the other store.
    const crossed = await api.post(
      `/v1/themes/${slug}/purchase/verify`,
      { store_id: other.id, purchase_id: p.id, provider_payment_id: pay.provider_payment_id, signature: pay.signature },
      { token: shop.merchant.token },
    );
    expect(crossed.status).to.equal(404);
    const refused = await install(slug, shop, other.id);
    expect([refused.status, refused.body.error.code]).to.deep.equal([402, 'purchase_required']);
    expect((await install(slug, shop)).status).to.equal(201);
  });

  it('has no sandbox in production: it would unlock paid themes without money changing hands', async () => {
    const slug = await published(10);
    const shop = await givenMerchantWithStore(api);
    const { createPurchase } = await import('../../src/themes/purchases/service.js');
    const production = { ...app.platform, config: { ...app.platform.config, env: 'production' as const } };
    const store = (await api.get('/v1/stores/current', shop.as)).body.data;
    let code: string | null = null;
    try {
      await createPurchase(production, { kind: 'merchant', merchantId: shop.merchant.id } as never, store, slug);
    } catch (err) {
      code = (err as { code?: string }).code ?? null;
    }
    expect(code).to.equal('provider_not_supported');
    expect(await purchasesOf(slug)).to.deep.equal([]);
  });
});

/**
 * The sandbox's hosted checkout (`POST /v1/themes/:slug/purchase/simulate`) signs a payment
 * nobody made: it exists where nothing is sold for real (development and test) and nowhere else,
 * where it answers as a route that does not exist.
 */
describe('Theme purchases: the simulated checkout exists only in development and test', () => {
  const deployedEnv = {
    SECRETS_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64url')}`,
    INTERNAL_SECRET: 'internal-secret-for-the-theme-purchase-tests-0123',
    MESSAGE_RELAY_URL: 'https://relay.example.com/send',
    MESSAGE_RELAY_TOKEN: 'relay-token-of-the-theme-tests-0123',
  };

  for (const env of ['staging', 'production'] as const) {
    it(`answers it in ${env} as a route that does not exist (404 route_not_found), whoever calls`, async () => {
      const deployed = await startTestApp(`theme_simulate_${env}`, { APP_ENV: env, ...deployedEnv });
      try {
        const api = client(deployed.url);
        const shop = await givenMerchantWithStore(api);
        const body = { store_id: shop.store.id, purchase_id: '6650c0ffee00000000000001' };
        const absent = await api.post('/v1/themes/aurora/purchase/no-such-route', body, { token: shop.merchant.token });
        expect([absent.status, absent.body.error.code]).to.deep.equal([404, 'route_not_found']);
        for (const options of [{ token: shop.merchant.token }, {}]) {
          const res = await api.post('/v1/themes/aurora/purchase/simulate', body, options);
          expect([res.status, res.body.error.code, res.body.error.message]).to.deep.equal([
            404,
            'route_not_found',
            'No route for POST /v1/themes/aurora/purchase/simulate',
          ]);
        }
      } finally {
        await deployed.close();
      }
    });
  }

  it('has it in test: an anonymous call is refused for want of a session (401), not as an unknown route', async () => {
    const local = await startTestApp('theme_simulate_test');
    try {
      const res = await client(local.url).post('/v1/themes/aurora/purchase/simulate', {
        store_id: '6650c0ffee00000000000002',
        purchase_id: '6650c0ffee00000000000001',
      });
      expect([res.status, res.body.error.code]).to.deep.equal([401, 'unauthenticated']);
    } finally {
      await local.close();
    }
  });
});
