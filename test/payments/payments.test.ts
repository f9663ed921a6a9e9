import { ObjectId } from 'mongodb';
import { expect } from 'chai';
import { recordPaymentTransaction } from '../../src/payments/index.js';
import { useTestApp } from '../helpers/app.js';
import { counts, findPlaintext } from '../helpers/database.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

const STRIPE_TEST_KEY = 'sk_test_51AbCdEfGhIjKlMnOpQrStUv';
const STRIPE_LIVE_KEY = 'sk_live_51ZyXwVuTsRqPoNmLkJiHgF';
const STRIPE_WEBHOOK_SECRET = 'whsec_Q2hvb3NlQVNlY3JldEtleQ';
const PAYPAL_CLIENT_ID = 'AYSq3RDGsmBLJE-otTkBtM-jBRd1TCQwFf9RGfwddNXWz0uFU9ztymylOhRS';
const PAYPAL_CLIENT_SECRET = 'EGnHDxD_qRPdaLdZz8iCr8N7_MzF-YHPTkjs6NKYQvQSBngp4PTTVWkPZRbL';

describe('Payments (/v1/payments)', () => {
  const { app, api } = useTestApp('payments');

  const as = (s: { merchant: { token: string }; store: { id: string } }) => ({ token: s.merchant.token, storeId: s.store.id });

  describe('GET /v1/payments/providers', () => {
    it('lists every provider, disabled and in test mode until configured', async () => {
      const shop = await givenMerchantWithStore(api);
      const res = await api.get('/v1/payments/providers', as(shop));
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([
        { provider: 'stripe', enabled: false, test_mode: true, credentials_set: false, credential_hints: {}, updated_at: null },
        { provider: 'paypal', enabled: false, test_mode: true, credentials_set: false, credential_hints: {}, updated_at: null },
        { provider: 'manual', enabled: false, test_mode: true, credentials_set: false, credential_hints: {}, instructions: null, updated_at: null },
        { provider: 'sandbox', enabled: false, test_mode: true, credentials_set: false, credential_hints: {}, updated_at: null },
      ]);
    });

    it('needs a session (401) and a store the caller owns (403)', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      expect((await api.get('/v1/payments/providers', { storeId: a.store.id })).status).to.equal(401);
      const foreign = await api.get('/v1/payments/providers', { token: a.merchant.token, storeId: b.store.id });
      expect(foreign.status).to.equal(403);
      expect(foreign.body.error.code).to.equal('store_forbidden');
      const put = await api.put('/v1/payments/providers/manual', { enabled: true }, { token: a.merchant.token, storeId: b.store.id });
      expect(put.status).to.equal(403);
      expect(
        (await api.get(`/v1/payments/transactions?order_id=${new ObjectId().toHexString()}`, { token: a.merchant.token, storeId: b.store.id })).status,
      ).to.equal(403);
    });
  });

  describe('PUT /v1/payments/providers/:provider', () => {
    it('stores Stripe credentials encrypted, shows only their last four characters, and enables it', async () => {
      const shop = await givenMerchantWithStore(api);
      const res = await api.put(
        '/v1/payments/providers/stripe',
        { enabled: true, credentials: { secret_key: STRIPE_TEST_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } },
        as(shop),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.include({
        provider: 'stripe',
        enabled: true,
        test_mode: true,
        credentials_set: true,
        credential_hints: { secret_key: 'StUv', webhook_secret: 'tleQ' },
      });
      expect(res.body.data.updated_at).to.be.a('string');
      expect(JSON.stringify(res.body)).not.to.include(STRIPE_TEST_KEY);

      const listed = await api.get('/v1/payments/providers', as(shop));
      expect(listed.body.data[0]).to.deep.equal(res.body.data);

      const event = await app.platform.db.collection('events').findOne({ type: 'payment_provider.updated', store_id: new ObjectId(shop.store.id) });
      expect(event?.payload).to.deep.equal({ payment_provider: res.body.data, changed: ['enabled', 'credentials'] });
      expect(event?.idempotency_key).to.match(/^payment_provider\.updated:[0-9a-f]{24}:v1$/);
    });

    it('keeps stored credentials on partial updates, replaces one when given, and removes one set to null', async () => {
      const shop = await givenMerchantWithStore(api);
      await api.put('/v1/payments/providers/stripe', { credentials: { secret_key: STRIPE_TEST_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } }, as(shop));
      let res = await api.put('/v1/payments/providers/stripe', { enabled: true }, as(shop));
      expect(res.body.data).to.deep.include({ enabled: true, credentials_set: true, credential_hints: { secret_key: 'StUv', webhook_secret: 'tleQ' } });
      res = await api.put('/v1/payments/providers/stripe', { test_mode: false, credentials: { secret_key: STRIPE_LIVE_KEY } }, as(shop));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.include({ test_mode: false, credential_hints: { secret_key: 'iHgF', webhook_secret: 'tleQ' } });
      res = await api.put('/v1/payments/providers/stripe', { credentials: { webhook_secret: null } }, as(shop));
      expect(res.body.data.credential_hints).to.deep.equal({ secret_key: 'iHgF' });
      expect(res.body.data.credentials_set).to.equal(true);
      const versions = await app.platform.db
        .collection('events')
        .find({ type: 'payment_provider.updated', store_id: new ObjectId(shop.store.id) })
        .toArray();
      expect(versions.map((e) => e.idempotency_key.split(':v')[1])).to.deep.equal(['1', '2', '3', '4']);
    });

    it('refuses to enable a provider without its credentials (400) and changes nothing', async () => {
      const shop = await givenMerchantWithStore(api);
      await api.put('/v1/payments/providers/paypal', { credentials: { client_id: PAYPAL_CLIENT_ID } }, as(shop));
      const before = await counts(app.platform.db);
      for (const [provider, body, detail] of [
        ['stripe', { enabled: true }, 'body.credentials.secret_key: is required to enable stripe'],
        ['paypal', { enabled: true }, 'body.credentials.client_secret: is required to enable paypal'],
      ] as const) {
        const res = await api.put(`/v1/payments/providers/${provider}`, body, as(shop));
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('credentials_required');
        expect(res.body.error.details).to.deep.equal([detail]);
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
      const res = await api.put(
        '/v1/payments/providers/paypal',
        { enabled: true, test_mode: false, credentials: { client_secret: PAYPAL_CLIENT_SECRET } },
        as(shop),
      );
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({
        enabled: true,
        test_mode: false,
        credentials_set: true,
        credential_hints: { client_id: 'OhRS', client_secret: 'ZRbL' },
      });
    });

    it('takes instructions, and no credentials, for manual payments', async () => {
      const shop = await givenMerchantWithStore(api);
      const res = await api.put(
        '/v1/payments/providers/manual',
        { enabled: true, instructions: '  Pay by bank transfer to IBAN DE89 3704 0044 0532 0130 00.  ' },
        as(shop),
      );
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({
        provider: 'manual',
        enabled: true,
        credentials_set: false,
        instructions: 'Pay by bank transfer to IBAN DE89 3704 0044 0532 0130 00.',
      });
      const refused = await api.put('/v1/payments/providers/manual', { credentials: { secret_key: STRIPE_TEST_KEY } }, as(shop));
      expect(refused.status).to.equal(400);
      expect(refused.body.error.details).to.include('body: Unrecognized key: "credentials"');
    });

    it('refuses bad input with path-prefixed errors and changes nothing', async () => {
      const shop = await givenMerchantWithStore(api);
      const before = await counts(app.platform.db);
      const bad: [string, unknown, RegExp][] = [
        ['stripe', { credentials: { secret_key: 'pk_test_1234567890abc' } }, /body\.credentials\.secret_key: must be a Stripe secret key/],
        ['stripe', { credentials: { secret_key: 'sk_test_short' } }, /body\.credentials\.secret_key/],
        ['stripe', { credentials: { webhook_secret: 'secret_abc12345' } }, /body\.credentials\.webhook_secret: must be a Stripe webhook signing secret/],
        ['stripe', { credentials: { secret_key: STRIPE_TEST_KEY, api_version: '1' } }, /body\.credentials: Unrecognized key: "api_version"/],
        ['stripe', { test_mode: false, credentials: { secret_key: STRIPE_TEST_KEY } }, /body\.test_mode: must be true for a sk_test_ secret key/],
        ['stripe', { enabled: 'yes' }, /body\.enabled/],
        ['stripe', {}, /body: give at least one setting to change/],
        ['paypal', { credentials: { client_id: 'has spaces in it' } }, /body\.credentials\.client_id: must be a PayPal client id/],
        ['paypal', { instructions: 'x' }, /body: Unrecognized key: "instructions"/],
        ['manual', { instructions: 'x'.repeat(2001) }, /body\.instructions/],
      ];
      for (const [provider, body, detail] of bad) {
        const res = await api.put(`/v1/payments/providers/${provider}`, body, as(shop));
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.details.join('\n')).to.match(detail);
        expect(JSON.stringify(res.body)).not.to.include(STRIPE_TEST_KEY);
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('answers 404 for a provider it does not know', async () => {
      const shop = await givenMerchantWithStore(api);
      for (const name of ['square', 'STRIPE', 'constructor', '__proto__']) {
        const res = await api.put(`/v1/payments/providers/${name}`, { enabled: true }, as(shop));
        expect(res.status, name).to.equal(404);
      }
    });

    it("keeps each store's settings to itself", async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      await api.put('/v1/payments/providers/stripe', { enabled: true, credentials: { secret_key: STRIPE_TEST_KEY } }, as(a));
      const other = await api.get('/v1/payments/providers', as(b));
      expect(other.body.data[0]).to.deep.include({ enabled: false, credentials_set: false, credential_hints: {} });
    });

    it('never stores or logs a credential in plaintext', async () => {
      const shop = await givenMerchantWithStore(api);
      await api.put(
        '/v1/payments/providers/stripe',
        { enabled: true, credentials: { secret_key: STRIPE_TEST_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET } },
        as(shop),
      );
      await api.put(
        '/v1/payments/providers/paypal',
        { enabled: true, credentials: { client_id: PAYPAL_CLIENT_ID, client_secret: PAYPAL_CLIENT_SECRET } },
        as(shop),
      );
      await api.put('/v1/payments/providers/stripe', { credentials: { secret_key: 'sk_test_BadLengthButValid0' }, test_mode: true }, as(shop));
      for (const secret of [STRIPE_TEST_KEY, STRIPE_WEBHOOK_SECRET, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, 'sk_test_BadLengthButValid0']) {
        expect(await findPlaintext(app.platform.db, secret), secret).to.deep.equal([]);
        expect(
          app.logLines.filter((l) => l.includes(secret)),
          secret,
        ).to.deep.equal([]);
      }
      const stored = await app.platform.db.collection('payment_providers').findOne({ store_id: new ObjectId(shop.store.id), provider: 'paypal' });
      expect(stored?.credentials_encrypted).to.match(/^v1\./);
    });
  });

  describe('GET /v1/payments/transactions', () => {
    it("lists an order's transactions of this store, oldest first, in pages", async () => {
      const shop = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      const orderId = new ObjectId().toHexString();
      const auth = await recordPaymentTransaction(app.platform, shop.store.id, {
        order_id: orderId,
        kind: 'authorization',
        status: 'success',
        amount: 1999,
        currency: 'USD',
        provider: 'stripe',
        provider_reference: 'pi_123',
      });
      const capture = await recordPaymentTransaction(app.platform, shop.store.id, {
        order_id: orderId,
        kind: 'capture',
        status: 'pending',
        amount: 1999,
        currency: 'USD',
        provider: 'stripe',
      });
      await recordPaymentTransaction(app.platform, shop.store.id, {
        order_id: new ObjectId().toHexString(),
        kind: 'sale',
        status: 'success',
        amount: 5,
        currency: 'USD',
        provider: 'manual',
      });
      await recordPaymentTransaction(app.platform, other.store.id, {
        order_id: orderId,
        kind: 'refund',
        status: 'success',
        amount: 1,
        currency: 'EUR',
        provider: 'paypal',
      });

      const res = await api.get(`/v1/payments/transactions?order_id=${orderId}`, as(shop));
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([auth, capture]);
      expect(auth).to.include({
        order_id: orderId,
        kind: 'authorization',
        status: 'success',
        amount: 1999,
        currency: 'USD',
        provider: 'stripe',
        provider_reference: 'pi_123',
      });
      expect(capture.provider_reference).to.equal(null);

      const page = await api.get(`/v1/payments/transactions?order_id=${orderId}&limit=1`, as(shop));
      expect(page.body.data).to.deep.equal([auth]);
      const next = await api.get(`/v1/payments/transactions?order_id=${orderId}&limit=1&cursor=${page.body.page.next_cursor}`, as(shop));
      expect(next.body.data).to.deep.equal([capture]);
      expect(next.body.page.next_cursor).to.equal(null);

      // Another store sees only its own transaction for that order id.
      const theirs = await api.get(`/v1/payments/transactions?order_id=${orderId}`, as(other));
      expect(theirs.body.data.map((t: any) => t.kind)).to.deep.equal(['refund']);

      const event = await app.platform.db.collection('events').findOne({ idempotency_key: `payment_transaction.created:${auth.id}` });
      expect(event?.payload).to.deep.equal({ payment_transaction: auth });
    });

    it('needs an order_id and refuses other query parameters', async () => {
      const shop = await givenMerchantWithStore(api);
      for (const q of ['', '?order_id=123', `?order_id=${new ObjectId().toHexString()}&kind=refund`, `?order_id=${new ObjectId().toHexString()}&limit=0`]) {
        const res = await api.get(`/v1/payments/transactions${q}`, as(shop));
        expect(res.status, q).to.equal(400);
      }
    });

    it('recordPaymentTransaction refuses non-integer, negative or mis-currencied amounts', async () => {
      const shop = await givenMerchantWithStore(api);
      const before = await counts(app.platform.db);
      const base = { order_id: new ObjectId().toHexString(), kind: 'sale', status: 'success', amount: 100, currency: 'USD', provider: 'stripe' } as const;
      for (const bad of [{ amount: 10.5 }, { amount: -1 }, { currency: 'usd' }, { kind: 'chargeback' }, { provider: 'square' }, { order_id: 'x' }]) {
        let error: any;
        await recordPaymentTransaction(app.platform, shop.store.id, { ...base, ...bad } as any).catch((e) => (error = e));
        expect(error?.code, JSON.stringify(bad)).to.equal('invalid_input');
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('recordPaymentTransaction with an id records one transaction however often it is called', async () => {
      const shop = await givenMerchantWithStore(api);
      const as = { token: shop.merchant.token, storeId: shop.store.id };
      const orderId = new ObjectId().toHexString();
      const input = {
        id: new ObjectId().toHexString(),
        order_id: orderId,
        kind: 'refund',
        status: 'success',
        amount: 250,
        currency: 'USD',
        provider: 'manual',
      } as const;
      const results = await Promise.all(Array.from({ length: 4 }, () => recordPaymentTransaction(app.platform, shop.store.id, input)));
      expect(new Set(results.map((t) => t.id))).to.deep.equal(new Set([input.id]));
      const listed = (await api.get(`/v1/payments/transactions?order_id=${orderId}`, as)).body.data;
      expect(listed.map((t: { id: string; amount: number }) => [t.id, t.amount])).to.deep.equal([[input.id, 250]]);
      expect(
        await app.platform.db.collection('events').countDocuments({ type: 'payment_transaction.created', 'payload.payment_transaction.id': input.id }),
      ).to.equal(1);
    });
  });
});
