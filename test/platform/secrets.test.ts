import { expect } from 'chai';
import { readOutbox } from '../../src/messages/index.js';
import { useTestApp } from '../helpers/app.js';
import { findPlaintext, snapshot } from '../helpers/database.js';
import { authorizeApp, givenPublishedApp } from '../helpers/apps.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchant } from '../helpers/factories.js';

describe('Secrets at rest and in logs', () => {
  const { app, api } = useTestApp('secrets', { OPERATOR_EMAILS: 'secrets-operator@example.com' });
  const secrets: { label: string; value: string }[] = [];
  before(async () => {
    // Walk every flow that handles a secret, collecting each plaintext the client saw.
    const m = await givenMerchant(api, { password: 'plaintext-password-canary-1' });
    secrets.push({ label: 'signup password', value: m.password }, { label: 'first session token', value: m.token });
    // A sign-up for the taken email: its password is hashed and dropped, the owner gets a notice.
    expect((await api.post('/v1/auth/signup', { email: m.email, password: 'plaintext-password-canary-0', name: 'Taken' })).status).to.equal(202);
    secrets.push({ label: 'password of a sign-up for a taken email', value: 'plaintext-password-canary-0' });
    const signin = await api.post('/v1/auth/signin', { email: m.email, password: m.password });
    secrets.push({ label: 'signin session token', value: signin.body.data.session.token });

    await api.post('/v1/auth/signin/otp', { email: m.email });
    const code = /\b(\d{6})\b/.exec((await readOutbox(app.platform, m.email))[0]!.text!)![1]!;
    const otp = await api.post('/v1/auth/signin/otp/verify', { email: m.email, code });
    expect(otp.status).to.equal(200);
    secrets.push({ label: 'otp session token', value: otp.body.data.session.token });
    await api.post('/v1/auth/signin/otp', { email: m.email });
    const liveCode = /\b(\d{6})\b/.exec((await readOutbox(app.platform, m.email))[0]!.text!)![1]!;
    secrets.push({ label: 'live sign-in code', value: `${liveCode}` });

    await api.post('/v1/auth/password/reset', { email: m.email });
    const resetToken = /(emp_reset_[A-Za-z0-9_-]+)/.exec((await readOutbox(app.platform, m.email)).find((x) => x.kind === 'password_reset')!.text!)![1]!;
    secrets.push({ label: 'used reset token', value: resetToken });
    const updated = await api.post('/v1/auth/password/update', { reset_token: resetToken, new_password: 'plaintext-password-canary-2' });
    expect(updated.status).to.equal(200);
    secrets.push({ label: 'new password', value: 'plaintext-password-canary-2' });
    await api.post('/v1/auth/password/reset', { email: m.email });
    const liveReset = /(emp_reset_[A-Za-z0-9_-]+)/.exec((await readOutbox(app.platform, m.email)).find((x) => x.kind === 'password_reset')!.text!)![1]!;
    secrets.push({ label: 'live reset token', value: liveReset });

    const again = await api.post('/v1/auth/signin', { email: m.email, password: 'plaintext-password-canary-2' });
    const store = await api.post(
      '/v1/stores',
      { name: 'Canary', subdomain: 'canary-store' },
      { token: again.body.data.session.token, headers: { 'idempotency-key': 'canary' } },
    );
    secrets.push({ label: 'latest session token', value: again.body.data.session.token });

    // A storefront customer's account, and the activation of records the merchant already had.
    const as = { token: again.body.data.session.token as string, storeId: store.body.data.id as string };
    const storefront = '/v1/storefront/customer';
    const shopper = { subdomain: 'canary-store', email: 'canary-shopper@example.com', password: 'plaintext-password-canary-3' };
    expect((await api.post(`${storefront}/signup`, shopper)).status).to.equal(202);
    const login = await api.post(`${storefront}/login`, shopper);
    secrets.push({ label: 'customer password', value: shopper.password }, { label: 'customer session token', value: login.body.data.token });
    const activationToken = async (email: string, kind: string) =>
      /(emp_csact_[A-Za-z0-9_-]+)/.exec((await readOutbox(app.platform, email)).find((x) => x.kind === kind)!.text!)![1]!;
    for (const email of ['canary-known@example.com', 'canary-invited@example.com', 'canary-pending@example.com']) {
      await givenCustomer(api, as, { email });
    }
    expect(
      (await api.post(`${storefront}/signup`, { subdomain: 'canary-store', email: 'canary-known@example.com', password: 'plaintext-password-canary-4' }))
        .status,
    ).to.equal(202);
    secrets.push({ label: 'password of a sign-up for a known customer', value: 'plaintext-password-canary-4' });
    const used = await activationToken('canary-known@example.com', 'account_activation');
    const activated = await api.post(`${storefront}/activate`, { token: used, password: 'plaintext-password-canary-5' });
    expect(activated.status).to.equal(200);
    secrets.push(
      { label: 'used activation token', value: used },
      { label: 'password set at activation', value: 'plaintext-password-canary-5' },
      { label: 'activated customer session token', value: activated.body.data.token },
    );
    const invited = (await api.post(`/v1/customers/${(await api.get('/v1/customers?query=canary-invited', as)).body.data[0].id}/invite`, undefined, as)).status;
    expect(invited).to.equal(202);
    secrets.push({ label: 'live invite token', value: await activationToken('canary-invited@example.com', 'account_invite') });
    expect(
      (await api.post(`${storefront}/signup`, { subdomain: 'canary-store', email: 'canary-pending@example.com', password: 'plaintext-password-canary-6' }))
        .status,
    ).to.equal(202);
    secrets.push({ label: 'live activation token', value: await activationToken('canary-pending@example.com', 'account_activation') });

    // An app's tokens, refreshed: the rotation's answer is kept (encrypted) for one retry of a lost response.
    const operator = await givenMerchant(api, { email: 'secrets-operator@example.com' });
    const partner = await givenPublishedApp(api, operator.token, { scopes: ['read_products'] });
    const shop = { merchant: { ...m, token: as.token }, store: { id: as.storeId, subdomain: 'canary-store' }, as };
    const granted = await authorizeApp(api, partner, shop, { scopes: ['read_products'] });
    const client_ = { client_id: partner.credentials.oauth_client_id, client_secret: partner.credentials.client_secret };
    const issued = await api.post('/v1/app-store/oauth/token', {
      grant_type: 'authorization_code',
      code: granted.code,
      redirect_uri: granted.redirectUri,
      code_verifier: granted.verifier,
      ...client_,
    });
    expect(issued.status, JSON.stringify(issued.body)).to.equal(200);
    const rotated = await api.post('/v1/app-store/oauth/token', { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token, ...client_ });
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    expect(await app.platform.db.collection('oauth_tokens').countDocuments({ rotation_answer: { $type: 'string' } })).to.equal(1);
    secrets.push(
      { label: 'client secret', value: partner.credentials.client_secret },
      { label: 'authorization grant', value: granted.code },
      { label: 'used refresh token', value: issued.body.refresh_token },
      { label: 'rotated access token (kept for a retry)', value: rotated.body.access_token },
      { label: 'rotated refresh token (kept for a retry)', value: rotated.body.refresh_token },
    );
  });
  before(async () => {
    // A shopper (issue 21, part 3): a cart (its token), a checkout (the order's payment secret,
    // answered again from the idempotency record), a payment with it.
    const merchant = await givenMerchant(api);
    const store = (await api.post('/v1/stores', { name: 'Shop', subdomain: 'canary-shop' }, { token: merchant.token })).body.data;
    const shopAs = { token: merchant.token, storeId: store.id as string };
    const product = (await api.post('/v1/products', { title: 'Canary mug', status: 'active', variants: [{ price: 1200, inventory_tracked: false }] }, shopAs))
      .body.data;
    await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: 'sandbox_secret_canary_0123456789' } }, shopAs);
    const cart = await api.post('/v1/storefront/canary-shop/cart', { lines: [{ variant_id: product.variants[0].id, quantity: 1 }] });
    secrets.push({ label: 'cart token', value: cart.body.data.token });
    const checkoutHeaders = { 'x-cart-token': cart.body.data.token, 'idempotency-key': 'canary-checkout' };
    const order = await api.post('/v1/storefront/canary-shop/orders', { email: 'shopper@example.com' }, { headers: checkoutHeaders });
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    const replayed = await api.post('/v1/storefront/canary-shop/orders', { email: 'shopper@example.com' }, { headers: checkoutHeaders });
    expect(replayed.body.data.payment_secret).to.equal(order.body.data.payment_secret);
    secrets.push({ label: 'payment secret', value: order.body.data.payment_secret });
    const paying = await api.post('/v1/storefront/canary-shop/payments/sandbox/order', {
      order_id: order.body.data.id,
      payment_secret: order.body.data.payment_secret,
    });
    expect(paying.status, JSON.stringify(paying.body)).to.equal(201);
  });

  it('stores no password, session or app token, sign-in code, reset or activation token in plaintext', async () => {
    const everything = JSON.stringify(await snapshot(app.platform.db));
    expect(everything.length).to.be.greaterThan(1000);
    for (const { label, value } of secrets) {
      // A 6-digit code could appear by chance inside a hash or an id; look for it as a value of its own.
      const hits = label.includes('code')
        ? (everything.match(new RegExp(`"${value}"|\\b${value}\\b(?![0-9a-f])`, 'g')) ?? [])
        : await findPlaintext(app.platform.db, value);
      expect(hits, `${label} found in the database`).to.deep.equal([]);
    }
  });

  it('keeps only hashes of session and activation tokens and scrypt hashes of passwords', async () => {
    const session = await app.platform.db.collection('sessions').findOne({});
    expect(session?.token_hash).to.match(/^[0-9a-f]{64}$/);
    expect(Object.keys(session!)).to.not.include('token');
    for (const name of ['customer_sessions', 'customer_activations']) {
      const doc = await app.platform.db.collection(name).findOne({});
      expect(doc?.token_hash, name).to.match(/^[0-9a-f]{64}$/);
      expect(Object.keys(doc!), name).to.not.include('token');
    }
    const merchant = await app.platform.db.collection('merchants').findOne({});
    expect(merchant?.password_hash).to.match(/^scrypt\$32768\$8\$1\$/);
  });

  it('keeps outbound message bodies encrypted', async () => {
    const message = await app.platform.db.collection('outbound_messages').findOne({});
    expect(message?.body_encrypted).to.match(/^v1\.dev\./);
    expect(JSON.stringify(message)).to.not.match(/sign-in code is|reset token works/);
  });

  it('writes no secret to the logs', async () => {
    const logs = app.logLines.join('');
    expect(logs).to.include('http.request');
    for (const { label, value } of secrets) expect(logs.includes(value), `${label} found in the logs`).to.equal(false);
  });
});
