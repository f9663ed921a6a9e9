import { createHook } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { sweep } from '../helpers/sweeps.js';
import { readOutbox } from '../../src/messages/index.js';
import { givenPublishedApp, installApp } from '../helpers/apps.js';
import { useTestApp } from '../helpers/app.js';
import { findPlaintext } from '../helpers/database.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenAddress, givenCustomer } from '../helpers/customers.js';
import { givenOrder } from '../helpers/orders.js';

const BASE = '/v1/storefront/customer';
const SIGNUP_ANSWER = {
  data: {
    accepted: true,
    message:
      'Sign-up received: log in with your email and password. If the store already knew the email (an account, an earlier order), a message is on its way to it instead, to prove the email is yours',
  },
};
const OPERATOR = 'accounts-operator@example.com';

/** The scrypt derivations this process started (node:crypto's SCRYPTREQUEST) while `run` ran: the work a password costs, counted. */
async function countScrypts<T>(run: () => Promise<T>): Promise<{ result: T; count: number }> {
  let count = 0;
  const hook = createHook({ init: (_id, type) => void (type === 'SCRYPTREQUEST' && count++) }).enable();
  try {
    const result = await run();
    return { result, count };
  } finally {
    hook.disable();
  }
}
const ACTIVATION_TOKEN = /emp_csact_[A-Za-z0-9_-]{43}/;
const paris = { address1: '1 Rue de Rivoli', city: 'Paris', country_code: 'FR' };

describe('Customer accounts (/v1/storefront/customer)', () => {
  const { app, api } = useTestApp('customer_accounts', { OPERATOR_EMAILS: OPERATOR });
  let shopA: GivenMerchantWithStore;
  let shopB: GivenMerchantWithStore;
  before(async () => {
    shopA = await givenMerchantWithStore(api);
    shopB = await givenMerchantWithStore(api);
  });

  const unique = () => randomBytes(4).toString('hex');

  type Shopper = { email: string; password: string; token: string; id: string };

  /** A shopper signed up in `shop` and logged in. */
  async function givenShopper(shop: GivenMerchantWithStore, overrides: { email?: string; first_name?: string; last_name?: string } = {}): Promise<Shopper> {
    const email = overrides.email ?? `shopper-${unique()}@example.com`;
    const password = `pw-${unique()}-${unique()}`;
    const signup = await api.post(`${BASE}/signup`, { subdomain: shop.store.subdomain, ...overrides, email, password });
    expect(signup.status, JSON.stringify(signup.body)).to.equal(202);
    const login = await api.post(`${BASE}/login`, { subdomain: shop.store.subdomain, email, password });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    return { email, password, token: login.body.data.token, id: login.body.data.customer.id };
  }

  /** A product in two sizes (S at 15.00, M at 18.00): its id and its variants' ids. */
  async function givenTeapot(shop: GivenMerchantWithStore, status = 'active') {
    const product = await givenProduct(api, shop.as, {
      title: `Teapot ${unique()}`,
      status,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { option_values: ['S'], price: 1500, inventory_tracked: false },
        { option_values: ['M'], price: 1800, inventory_tracked: false },
      ],
    });
    return { id: product.id as string, variants: (product.variants as { id: string }[]).map((v) => v.id) };
  }

  /** An order of one of `variantId` for the customer, shipped to Paris: its id. */
  const givenOrderFor = async (shop: GivenMerchantWithStore, customerId: string, variantId: string, financial_status = 'paid') =>
    (
      await givenOrder(api, shop.as, {
        customer_id: customerId,
        line_items: [{ variant_id: variantId, quantity: 1 }],
        financial_status,
        shipping_address: paris,
      })
    ).id as string;

  /** A customer the merchant created (no account): a phone, an address, and a paid order shipped to it. */
  async function givenKnownCustomer(shop: GivenMerchantWithStore) {
    const email = `known-${unique()}@example.com`;
    const phone = `+33 1 ${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const { id } = await givenCustomer(api, shop.as, { email, first_name: 'Known', phone, tags: ['vip'], note: 'internal' });
    await givenAddress(api, shop.as, id, { ...paris, address1: '7 Rue Secrète' });
    const product = await givenTeapot(shop);
    const order = await givenOrderFor(shop, id, product.variants[0]!);
    return { id, email, phone, product, order };
  }

  async function latestMessage(email: string, kind: string) {
    // No webhooks worker runs in this file: read the outbox record as written.
    const [message] = (await readOutbox(app.platform, email)).filter((m) => m.kind === kind);
    expect(message, `no ${kind} message for ${email}`).to.exist;
    return message!;
  }

  describe('sign-up, login, me, logout', () => {
    it('signs up, logs in with a hashed session token, reads itself and logs out', async () => {
      const email = `ada-${unique()}@example.com`;
      const password = 'correct horse battery';
      const signup = await api.post(`${BASE}/signup`, {
        subdomain: shopA.store.subdomain,
        email: `  ${email.toUpperCase()} `,
        password,
        first_name: 'Ada',
        last_name: 'Lovelace',
      });
      expect(signup.status).to.equal(202);
      expect(signup.body).to.deep.equal(SIGNUP_ANSWER);
      const login = await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email, password });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      const { token, expires_at, customer } = login.body.data;
      expect(token).to.match(/^emp_cs_[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(expires_at) - Date.now()).to.be.greaterThan(29 * 24 * 3600 * 1000);
      expect(customer).to.have.all.keys('id', 'email', 'first_name', 'last_name', 'phone', 'accepts_marketing', 'default_address_id', 'created_at');
      expect(customer).to.include({ email, first_name: 'Ada', last_name: 'Lovelace' });

      const me = await api.get(`${BASE}/me`, { token });
      expect(me.status).to.equal(200);
      expect(me.body.data).to.deep.equal(customer);
      // The merchant sees the customer in the admin API.
      const admin = await api.get(`/v1/customers/${customer.id}`, shopA.as);
      expect(admin.body.data.email).to.equal(email);

      // Only the hash of the token is stored, and neither the token nor the password is logged or stored.
      expect(await findPlaintext(app.platform.db, token)).to.deep.equal([]);
      expect(await findPlaintext(app.platform.db, token.slice('emp_cs_'.length))).to.deep.equal([]);
      expect(await findPlaintext(app.platform.db, password)).to.deep.equal([]);
      const logs = app.logLines.join('\n');
      expect(logs).to.not.include(token.slice('emp_cs_'.length));
      expect(logs).to.not.include(password);

      const logout = await api.post(`${BASE}/logout`, undefined, { token });
      expect(logout.status).to.equal(204);
      const after = await api.get(`${BASE}/me`, { token });
      expect(after.status).to.equal(401);
      expect(after.body.error.code).to.equal('unauthenticated');
      expect(after.headers.get('www-authenticate')).to.include('invalid_token');
    });

    it('answers the same for an email that already has an account, changes nothing and tells its owner', async () => {
      const shopper = await givenShopper(shopA);
      const again = await api.post(`${BASE}/signup`, { subdomain: shopA.store.subdomain, email: shopper.email, password: 'another password entirely' });
      expect(again.status).to.equal(202);
      expect(again.body).to.deep.equal(SIGNUP_ANSWER);
      const message = await latestMessage(shopper.email, 'account_exists');
      expect(message.text).to.include('already has one');
      // The old password still works; the new one does not.
      expect((await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: shopper.password })).status).to.equal(200);
      expect(
        (await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: 'another password entirely' })).status,
      ).to.equal(401);
      // An unknown store answers as a known one.
      const unknown = await api.post(`${BASE}/signup`, { subdomain: `nope-${unique()}`, email: shopper.email, password: 'another password entirely' });
      expect(unknown.status).to.equal(202);
      expect(unknown.body).to.deep.equal(SIGNUP_ANSWER);
    });

    it('refuses a wrong password and an unknown email alike, and locks the email out after 10 attempts', async () => {
      const shopper = await givenShopper(shopA);
      const wrong = await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: 'wrong password!' });
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('invalid_credentials');
      const unknown = await api.post(`${BASE}/login`, {
        subdomain: shopA.store.subdomain,
        email: `ghost-${unique()}@example.com`,
        password: 'wrong password!',
      });
      expect(unknown.status).to.equal(401);
      expect(unknown.body.error).to.deep.include({ code: 'invalid_credentials', message: wrong.body.error.message });
      // Every attempt counts (the login of givenShopper too): 8 more fill the window of 10; the 11th is refused even with the right password.
      for (let i = 0; i < 8; i++) {
        const res = await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: 'wrong password!' });
        expect(res.status).to.equal(401);
      }
      const locked = await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: shopper.password });
      expect(locked.status).to.equal(429);
      expect(locked.body.error.code).to.equal('rate_limited');
      expect(Number(locked.headers.get('retry-after'))).to.be.within(1, 900);
      // The lockout is per (store, email): the same email in another store is not locked.
      const elsewhere = await api.post(`${BASE}/login`, { subdomain: shopB.store.subdomain, email: shopper.email, password: shopper.password });
      expect(elsewhere.status).to.equal(401);
    });
  });

  describe('an email the store already knows (no account takeover)', () => {
    it('gives a stranger who signs up with the email of a customer the merchant has no access to that record', async () => {
      // The merchant's customer: a phone, an address, a paid order shipped to that address.
      const known = await givenKnownCustomer(shopA);
      const before = await app.platform.db.collection('customers').findOne({ _id: new ObjectId(known.id) });
      const stranger = { subdomain: shopA.store.subdomain, email: known.email, password: 'the stranger password' };
      const signup = await api.post(`${BASE}/signup`, stranger);
      expect(signup.status).to.equal(202);
      expect(signup.body).to.deep.equal(SIGNUP_ANSWER);
      // The stranger's password opens nothing: no session, so no phone, address, order or review.
      const login = await api.post(`${BASE}/login`, { subdomain: stranger.subdomain, email: stranger.email, password: stranger.password });
      expect(login.status, JSON.stringify(login.body)).to.equal(401);
      expect(login.body.error.code).to.equal('invalid_credentials');
      expect(JSON.stringify(login.body)).to.not.include(known.phone);
      // The merchant's record is as it was: no account was added to it.
      expect(await app.platform.db.collection('customers').findOne({ _id: new ObjectId(known.id) })).to.deep.equal(before);
    });

    it('opens the account only with the token sent to the email, with the password chosen there; the token works once', async () => {
      const known = await givenKnownCustomer(shopA);
      const signup = await api.post(`${BASE}/signup`, {
        subdomain: shopA.store.subdomain,
        email: known.email,
        password: 'the stranger password',
        first_name: 'Mallory',
      });
      expect(signup.body).to.deep.equal(SIGNUP_ANSWER);
      const message = await latestMessage(known.email, 'account_activation');
      expect(message.subject).to.include('Activate your account');
      const token = ACTIVATION_TOKEN.exec(message.text ?? '')?.[0];
      expect(token, message.text ?? '').to.be.a('string');
      // Only its SHA-256 is stored (and the message body is encrypted).
      expect(await findPlaintext(app.platform.db, token!.slice('emp_csact_'.length))).to.deep.equal([]);
      expect(app.logLines.join('\n')).to.not.include(token!.slice('emp_csact_'.length));

      const wrong = await api.post(`${BASE}/activate`, { token: `emp_csact_${'A'.repeat(43)}`, password: 'the owner password' });
      expect([wrong.status, wrong.body.error.code]).to.deep.equal([401, 'invalid_activation_token']);
      const activated = await api.post(`${BASE}/activate`, { token, password: 'the owner password' });
      expect(activated.status, JSON.stringify(activated.body)).to.equal(200);
      expect(activated.body.data.token).to.match(/^emp_cs_/);
      // The merchant's record, as it was: its names (not the sign-up's), phone, address and order.
      expect(activated.body.data.customer).to.include({ id: known.id, first_name: 'Known', phone: known.phone });
      const as = { token: activated.body.data.token as string };
      expect((await api.get(`${BASE}/addresses`, as)).body.data.map((a: { address1: string }) => a.address1)).to.deep.equal(['7 Rue Secrète']);
      expect((await api.get(`${BASE}/orders`, as)).body.data.map((o: { id: string }) => o.id)).to.deep.equal([known.order]);

      const replay = await api.post(`${BASE}/activate`, { token, password: 'another password!' });
      expect([replay.status, replay.body.error.code]).to.deep.equal([401, 'invalid_activation_token']);
      // The password opens the account; the one given at sign-up never does.
      expect((await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: known.email, password: 'the owner password' })).status).to.equal(200);
      expect((await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: known.email, password: 'the stranger password' })).status).to.equal(
        401,
      );
      expect((await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: known.email, password: 'another password!' })).status).to.equal(401);
      expect(await app.platform.db.collection('customer_activations').countDocuments({ customer_id: new ObjectId(known.id) })).to.equal(0);
    });

    it('answers a sign-up alike, with the same hashing work, whatever the store knows of the email', async () => {
      // The answer's time must not tell the cases apart: every path derives the password once with
      // scrypt (tens of milliseconds), counted here as the process starts it. The times themselves
      // are bench:sign-up's (a stopwatch beside the new-email path), not a test's on a busy machine.
      const account = await givenShopper(shopA);
      const known = await givenKnownCustomer(shopA);
      const cases: [string, Record<string, string>][] = [
        ['new', { subdomain: shopA.store.subdomain, email: `new-${unique()}@example.com` }],
        ['known', { subdomain: shopA.store.subdomain, email: known.email }],
        ['account', { subdomain: shopA.store.subdomain, email: account.email }],
        ['unknownStore', { subdomain: `nope-${unique()}`, email: known.email }],
      ];
      const scrypts: Record<string, number> = {};
      for (const [kind, body] of cases) {
        const { result: res, count } = await countScrypts(() => api.post(`${BASE}/signup`, { ...body, password: 'a password of ten' }));
        expect([res.status, res.body], kind).to.deep.equal([202, SIGNUP_ANSWER]);
        scrypts[kind] = count;
      }
      expect(scrypts).to.deep.equal({ new: 1, known: 1, account: 1, unknownStore: 1 });
    });

    it('only the newest token works, only while the record keeps that email, and not past its expiry', async () => {
      const known = await givenKnownCustomer(shopA);
      const signUp = async () => {
        expect((await api.post(`${BASE}/signup`, { subdomain: shopA.store.subdomain, email: known.email, password: 'a password of ten' })).status).to.equal(
          202,
        );
        return ACTIVATION_TOKEN.exec((await latestMessage(known.email, 'account_activation')).text ?? '')![0];
      };
      const first = await signUp();
      const second = await signUp();
      expect(second).to.not.equal(first);
      expect((await api.post(`${BASE}/activate`, { token: first, password: 'the owner password' })).status).to.equal(401);
      // Expired (24 hours after it was sent): refused.
      const activations = app.platform.db.collection('customer_activations');
      const doc = await activations.findOne({ customer_id: new ObjectId(known.id) });
      expect(doc!.expires_at.getTime() - doc!.created_at.getTime()).to.equal(24 * 3600 * 1000);
      await activations.updateOne({ _id: doc!._id }, { $set: { expires_at: new Date(Date.now() - 1000) } });
      expect((await api.post(`${BASE}/activate`, { token: second, password: 'the owner password' })).status).to.equal(401);
      // The merchant changes the email after the token was sent: the token proved the old one, so it opens nothing.
      const third = await signUp();
      const renamed = `renamed-${unique()}@example.com`;
      expect((await api.patch(`/v1/customers/${known.id}`, { email: renamed }, shopA.as)).status).to.equal(200);
      const refused = await api.post(`${BASE}/activate`, { token: third, password: 'the owner password' });
      expect([refused.status, refused.body.error.code]).to.deep.equal([401, 'invalid_activation_token']);
      expect((await app.platform.db.collection('customers').findOne({ _id: new ObjectId(known.id) }))!.account ?? null).to.equal(null);
      // A password reset for a record without an account sends nothing: it proves nothing to reset.
      const reset = await api.post(`${BASE}/password/reset`, { subdomain: shopA.store.subdomain, email: renamed });
      expect(reset.status).to.equal(202);
      expect((await readOutbox(app.platform, renamed)).map((m) => m.kind)).to.deep.equal([]);
    });

    it('removes activation tokens past their expiry in the maintenance sweep (24 hours after a sign-up, 7 days after an invite)', async () => {
      const signedUp = await givenKnownCustomer(shopA);
      const invited = await givenKnownCustomer(shopA);
      expect((await api.post(`${BASE}/signup`, { subdomain: shopA.store.subdomain, email: signedUp.email, password: 'a password of ten' })).status).to.equal(
        202,
      );
      expect((await api.post(`/v1/customers/${invited.id}/invite`, undefined, shopA.as)).status).to.equal(202);
      const activations = app.platform.db.collection('customer_activations');
      const left = async () =>
        (await activations.find({ customer_id: { $in: [new ObjectId(signedUp.id), new ObjectId(invited.id)] } }).toArray()).map((a) => a.via);
      const sweepAfter = (ms: number) => sweep('maintenance.sweep-customer-credentials', { ...app.platform, clock: { now: () => new Date(Date.now() + ms) } });
      await sweepAfter(23 * 3600 * 1000);
      expect((await left()).sort()).to.deep.equal(['invite', 'signup']);
      await sweepAfter(24 * 3600 * 1000 + 60_000);
      expect(await left()).to.deep.equal(['invite']);
      await sweepAfter(7 * 24 * 3600 * 1000 + 60_000);
      expect(await left()).to.deep.equal([]);
    });

    it('keeps the same email of another store out of it', async () => {
      const known = await givenKnownCustomer(shopA);
      const inB = await api.post('/v1/customers', { email: known.email, first_name: 'Other' }, shopB.as);
      expect(inB.status).to.equal(201);
      expect((await api.post(`${BASE}/signup`, { subdomain: shopB.store.subdomain, email: known.email, password: 'a password of ten' })).status).to.equal(202);
      const token = ACTIVATION_TOKEN.exec((await latestMessage(known.email, 'account_activation')).text ?? '')![0];
      const activated = await api.post(`${BASE}/activate`, { token, password: 'the owner password' });
      expect(activated.body.data.customer.id).to.equal(inB.body.data.id);
      // Store A's record still has no account, and B's session reads B's record only.
      expect((await app.platform.db.collection('customers').findOne({ _id: new ObjectId(known.id) }))!.account ?? null).to.equal(null);
      expect((await api.get(`${BASE}/orders`, { token: activated.body.data.token })).body.data).to.deep.equal([]);
      expect((await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: known.email, password: 'the owner password' })).status).to.equal(401);
    });
  });

  describe('POST /v1/customers/:id/invite', () => {
    it('sends the customer an invite whose token opens their account', async () => {
      const known = await givenKnownCustomer(shopA);
      const key = { 'idempotency-key': `invite-${unique()}` };
      const asked = Date.now();
      const invited = await api.post(`/v1/customers/${known.id}/invite`, undefined, { ...shopA.as, headers: key });
      const answered = Date.now();
      expect(invited.status, JSON.stringify(invited.body)).to.equal(202);
      expect(invited.body.data).to.have.all.keys('customer_id', 'sent_to', 'expires_at');
      expect(invited.body.data).to.include({ customer_id: known.id, sent_to: known.email });
      // Seven days from the invite, made between the request and its answer.
      const week = 7 * 24 * 3600 * 1000;
      expect(Date.parse(invited.body.data.expires_at)).to.be.within(asked + week, answered + week);
      // A retry with the same key answers the same and sends nothing more.
      const retried = await api.post(`/v1/customers/${known.id}/invite`, undefined, { ...shopA.as, headers: key });
      expect([retried.status, retried.body]).to.deep.equal([202, invited.body]);
      const invites = (await readOutbox(app.platform, known.email)).filter((m) => m.kind === 'account_invite');
      expect(invites).to.have.length(1);
      const token = ACTIVATION_TOKEN.exec(invites[0]!.text ?? '')![0];
      expect(JSON.stringify(invited.body)).to.not.include(token);
      const activated = await api.post(`${BASE}/activate`, { token, password: 'the owner password' });
      expect(activated.status, JSON.stringify(activated.body)).to.equal(200);
      expect(activated.body.data.customer).to.include({ id: known.id, phone: known.phone });
      // Now that the customer has an account, there is nothing to invite them to.
      const again = await api.post(`/v1/customers/${known.id}/invite`, undefined, shopA.as);
      expect([again.status, again.body.error.code]).to.deep.equal([409, 'account_exists']);
    });

    it("is the store's own: other merchants, apps of other stores, apps without write_customers and customers get nothing", async () => {
      const known = await givenKnownCustomer(shopA);
      const invite = (options: { token: string; storeId?: string }) => api.post(`/v1/customers/${known.id}/invite`, undefined, options);
      const operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
      const partner = await givenPublishedApp(api, operatorToken, { scopes: ['read_customers', 'write_customers'] });
      const appOfA = await installApp(api, partner, shopA, { scopes: ['read_customers', 'write_customers'] });
      const appOfB = await installApp(api, partner, shopB, { scopes: ['read_customers', 'write_customers'] });
      const readerOfA = await installApp(api, await givenPublishedApp(api, operatorToken, { scopes: ['read_customers'] }), shopA, {
        scopes: ['read_customers'],
      });
      const shopper = await givenShopper(shopA);

      expect((await invite(shopB.as)).status).to.equal(404);
      expect((await invite({ token: shopB.merchant.token, storeId: shopA.store.id })).status).to.equal(403);
      expect((await invite({ token: appOfB.token })).status).to.equal(404);
      expect((await invite({ token: appOfB.token, storeId: shopA.store.id })).status).to.equal(403);
      const noScope = await invite({ token: readerOfA.token });
      expect([noScope.status, noScope.body.error.code]).to.deep.equal([403, 'insufficient_scope']);
      expect((await invite({ token: shopper.token, storeId: shopA.store.id })).status).to.equal(401);
      expect((await api.post(`/v1/customers/${known.id}/invite`)).status).to.equal(401);
      expect((await api.post('/v1/customers/not-an-id/invite', undefined, shopA.as)).status).to.equal(404);
      expect((await api.post(`/v1/customers/${new ObjectId().toHexString()}/invite`, undefined, shopA.as)).status).to.equal(404);
      expect((await api.post(`/v1/customers/${known.id}/invite`, { message: 'hi' }, shopA.as)).status).to.equal(400);
      // None of that sent anything or left a token.
      expect(await readOutbox(app.platform, known.email)).to.deep.equal([]);
      expect(await app.platform.db.collection('customer_activations').countDocuments({ customer_id: new ObjectId(known.id) })).to.equal(0);

      // The app installed in the store with write_customers may invite, up to 5 times an hour for one customer.
      for (let i = 0; i < 5; i++) expect((await invite({ token: appOfA.token })).status).to.equal(202);
      const flooded = await invite({ token: appOfA.token });
      expect([flooded.status, flooded.body.error.code]).to.deep.equal([429, 'rate_limited']);
      expect((await readOutbox(app.platform, known.email)).filter((m) => m.kind === 'account_invite')).to.have.length(5);
    });
  });

  describe('tokens and stores never cross', () => {
    it('a merchant token never works on customer routes, and a customer token never on merchant routes', async () => {
      const shopper = await givenShopper(shopA);
      const asMerchant = await api.get(`${BASE}/me`, { token: shopA.merchant.token });
      expect(asMerchant.status).to.equal(401);
      expect(asMerchant.body.error.code).to.equal('unauthenticated');
      for (const path of ['/v1/auth/custom/session', '/v1/stores', '/v1/customers', '/v1/orders']) {
        const res = await api.get(path, { token: shopper.token, storeId: shopA.store.id });
        expect(res.status, path).to.equal(401);
      }
      const signout = await api.post('/v1/auth/signout', undefined, { token: shopper.token });
      expect(signout.status).to.equal(401);
      // And the merchant's own password update route does not take a customer session.
      const update = await api.post(
        '/v1/auth/password/update',
        { current_password: shopper.password, new_password: 'a brand new password' },
        { token: shopper.token },
      );
      expect(update.status).to.equal(401);
    });

    it('a customer of store A is unknown to store B', async () => {
      const shopper = await givenShopper(shopA);
      const login = await api.post(`${BASE}/login`, { subdomain: shopB.store.subdomain, email: shopper.email, password: shopper.password });
      expect(login.status).to.equal(401);
      expect(login.body.error.code).to.equal('invalid_credentials');
      // A's token acts on A only: never on B's admin routes, and B's data is not reachable through it.
      const onB = await api.get('/v1/customers', { token: shopper.token, storeId: shopB.store.id });
      expect(onB.status).to.equal(401);
      const productB = await givenTeapot(shopB);
      const wish = await api.post(`${BASE}/wishlist`, { product_id: productB.id }, { token: shopper.token });
      expect(wish.status).to.equal(400);
      // B's merchant does not see A's customer.
      const list = await api.get(`/v1/customers?query=${encodeURIComponent(shopper.email)}`, shopB.as);
      expect(list.body.data).to.deep.equal([]);
      // The same email signs up in B as a separate customer with its own password.
      const inB = await givenShopper(shopB, { email: shopper.email });
      expect(inB.id).to.not.equal(shopper.id);
      const meB = await api.get(`${BASE}/me`, { token: inB.token });
      expect(meB.body.data.id).to.equal(inB.id);
    });
  });

  describe('password reset and update', () => {
    it('resets the password through the outbox and revokes every session', async () => {
      const shopper = await givenShopper(shopA);
      const second = await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: shopper.password });
      const reset = await api.post(`${BASE}/password/reset`, { subdomain: shopA.store.subdomain, email: shopper.email });
      expect(reset.status).to.equal(202);
      const ghost = await api.post(`${BASE}/password/reset`, { subdomain: shopA.store.subdomain, email: `ghost-${unique()}@example.com` });
      expect(ghost.status).to.equal(202);
      expect(ghost.body).to.deep.equal(reset.body);
      const message = await latestMessage(shopper.email, 'password_reset');
      const resetToken = /emp_csreset_[A-Za-z0-9_-]+/.exec(message.text ?? '')?.[0];
      expect(resetToken, message.text ?? '').to.be.a('string');
      // Stored hashed (and encrypted in the outbox message).
      expect(await findPlaintext(app.platform.db, resetToken!.slice('emp_csreset_'.length))).to.deep.equal([]);
      const update = await api.post(`${BASE}/password/update`, { reset_token: resetToken, new_password: 'a brand new password' });
      expect(update.status, JSON.stringify(update.body)).to.equal(200);
      expect(update.body.data.revoked_sessions).to.equal(2);
      for (const token of [shopper.token, second.body.data.token]) expect((await api.get(`${BASE}/me`, { token })).status).to.equal(401);
      // Used once only.
      const replay = await api.post(`${BASE}/password/update`, { reset_token: resetToken, new_password: 'yet another password' });
      expect(replay.status).to.equal(401);
      expect(replay.body.error.code).to.equal('invalid_reset_token');
      expect((await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: 'a brand new password' })).status).to.equal(
        200,
      );
    });

    it('changes the password with the current one, keeping this session and revoking the others', async () => {
      const shopper = await givenShopper(shopA);
      const other = (await api.post(`${BASE}/login`, { subdomain: shopA.store.subdomain, email: shopper.email, password: shopper.password })).body.data.token;
      const wrong = await api.post(
        `${BASE}/password/update`,
        { current_password: 'not the password', new_password: 'a brand new password' },
        { token: shopper.token },
      );
      expect(wrong.status).to.equal(401);
      const noSession = await api.post(
        `${BASE}/password/update`,
        { current_password: shopper.password, new_password: 'a brand new password' },
        { token: shopA.merchant.token },
      );
      expect(noSession.status).to.equal(401);
      const update = await api.post(
        `${BASE}/password/update`,
        { current_password: shopper.password, new_password: 'a brand new password' },
        { token: shopper.token },
      );
      expect(update.status, JSON.stringify(update.body)).to.equal(200);
      expect(update.body.data.revoked_sessions).to.equal(1);
      expect((await api.get(`${BASE}/me`, { token: shopper.token })).status).to.equal(200);
      expect((await api.get(`${BASE}/me`, { token: other })).status).to.equal(401);
    });
  });

  describe('addresses', () => {
    it('keeps exactly one default address', async () => {
      const shopper = await givenShopper(shopA);
      const as = { token: shopper.token };
      const first = await api.post(`${BASE}/addresses`, paris, as);
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body.data.default).to.equal(true);
      const second = await api.post(`${BASE}/addresses`, { ...paris, address1: '2 Rue de Rivoli' }, as);
      expect(second.body.data.default).to.equal(false);
      const made = await api.patch(`${BASE}/addresses/${second.body.data.id}`, { default: true, city: 'Lyon' }, as);
      expect(made.status, JSON.stringify(made.body)).to.equal(200);
      expect(made.body.data).to.include({ default: true, city: 'Lyon' });
      let list = await api.get(`${BASE}/addresses`, as);
      expect(list.body.data.filter((a: { default: boolean }) => a.default).map((a: { id: string }) => a.id)).to.deep.equal([second.body.data.id]);
      // PATCH and DELETE on /addresses name the address in the body (spec 4.4).
      const patched = await api.patch(`${BASE}/addresses`, { id: first.body.data.id, zip: '75001' }, as);
      expect(patched.body.data).to.include({ zip: '75001', default: false });
      const removed = await api.send('DELETE', `${BASE}/addresses`, { id: second.body.data.id }, as);
      expect(removed.status).to.equal(204);
      list = await api.get(`${BASE}/addresses`, as);
      expect(list.body.data.map((a: { id: string; default: boolean }) => [a.id, a.default])).to.deep.equal([[first.body.data.id, true]]);
      expect((await api.get(`${BASE}/me`, as)).body.data.default_address_id).to.equal(first.body.data.id);
      expect((await api.delete(`${BASE}/addresses/${first.body.data.id}`, as)).status).to.equal(204);
      expect((await api.get(`${BASE}/addresses`, as)).body.data).to.deep.equal([]);
    });

    it("never reaches another customer's address", async () => {
      const alice = await givenShopper(shopA);
      const bob = await givenShopper(shopA);
      const address = (await api.post(`${BASE}/addresses`, paris, { token: alice.token })).body.data;
      expect((await api.get(`${BASE}/addresses/${address.id}`, { token: bob.token })).status).to.equal(404);
      expect((await api.patch(`${BASE}/addresses/${address.id}`, { city: 'Nice' }, { token: bob.token })).status).to.equal(404);
      expect((await api.delete(`${BASE}/addresses/${address.id}`, { token: bob.token })).status).to.equal(404);
      expect((await api.get(`${BASE}/addresses/${address.id}`, { token: alice.token })).body.data.city).to.equal('Paris');
    });
  });

  describe('wishlist', () => {
    it("saves products and variants of the customer's own store, once each", async () => {
      const shopper = await givenShopper(shopA);
      const as = { token: shopper.token };
      const product = await givenTeapot(shopA);
      const draft = await givenTeapot(shopA, 'draft');
      const other = await givenTeapot(shopB);
      const saved = await api.post(`${BASE}/wishlist`, { product_id: product.id }, as);
      expect(saved.status, JSON.stringify(saved.body)).to.equal(201);
      expect(saved.body.data).to.have.all.keys('id', 'product_id', 'variant_id', 'created_at');
      const again = await api.post(`${BASE}/wishlist`, { product_id: product.id }, as);
      expect(again.body.data.id).to.equal(saved.body.data.id);
      const variant = await api.post(`${BASE}/wishlist`, { product_id: product.id, variant_id: product.variants[1] }, as);
      expect(variant.status).to.equal(201);
      expect(variant.body.data.variant_id).to.equal(product.variants[1]);
      for (const body of [{ product_id: other.id }, { product_id: draft.id }, { product_id: product.id, variant_id: other.variants[0] }]) {
        const res = await api.post(`${BASE}/wishlist`, body, as);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      const list = await api.get(`${BASE}/wishlist`, as);
      expect(list.body.data.map((w: { id: string }) => w.id)).to.deep.equal([saved.body.data.id, variant.body.data.id]);
      // Another customer neither sees nor removes it.
      const bob = await givenShopper(shopA);
      expect((await api.get(`${BASE}/wishlist`, { token: bob.token })).body.data).to.deep.equal([]);
      expect((await api.delete(`${BASE}/wishlist/${saved.body.data.id}`, { token: bob.token })).status).to.equal(404);
      expect((await api.delete(`${BASE}/wishlist/${saved.body.data.id}`, as)).status).to.equal(204);
      expect((await api.get(`${BASE}/wishlist`, as)).body.data).to.have.length(1);
    });
  });

  describe('orders and reviews', () => {
    it("lists and reads the customer's own orders only, without the merchant's note", async () => {
      const alice = await givenShopper(shopA);
      const bob = await givenShopper(shopA);
      const product = await givenTeapot(shopA);
      const mine = await givenOrderFor(shopA, alice.id, product.variants[0]!);
      const theirs = await givenOrderFor(shopA, bob.id, product.variants[0]!);
      const list = await api.get(`${BASE}/orders`, { token: alice.token });
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      expect(list.body.data.map((o: { id: string }) => o.id)).to.deep.equal([mine]);
      expect(list.body.data[0]).to.not.have.property('note');
      expect((await api.get(`${BASE}/orders/${mine}`, { token: alice.token })).status).to.equal(200);
      expect((await api.get(`${BASE}/orders/${theirs}`, { token: alice.token })).status).to.equal(404);
      expect((await api.get(`${BASE}/orders/${mine}`, { token: shopA.merchant.token })).status).to.equal(401);
    });

    it('takes a review only from a customer who bought the product, as pending for moderation', async () => {
      const buyer = await givenShopper(shopA, { first_name: 'Grace', last_name: 'Hopper' });
      const browser = await givenShopper(shopA);
      const product = await givenTeapot(shopA);
      const unpaid = await givenTeapot(shopA);
      await givenOrderFor(shopA, buyer.id, product.variants[0]!);
      await givenOrderFor(shopA, buyer.id, unpaid.variants[0]!, 'pending');
      const review = { product_id: product.id, rating: 5, title: 'Lovely', body: 'Pours well.' };
      const refused = await api.post(`${BASE}/reviews`, review, { token: browser.token });
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('purchase_required');
      expect((await api.post(`${BASE}/reviews`, { ...review, product_id: unpaid.id }, { token: buyer.token })).status).to.equal(403);
      const written = await api.post(`${BASE}/reviews`, review, { token: buyer.token });
      expect(written.status, JSON.stringify(written.body)).to.equal(201);
      expect(written.body.data).to.include({ status: 'pending', customer_id: buyer.id, author_name: 'Grace H.', author_email: buyer.email, rating: 5 });
      const twice = await api.post(`${BASE}/reviews`, review, { token: buyer.token });
      expect(twice.status).to.equal(409);
      expect(twice.body.error.code).to.equal('already_reviewed');
      // The merchant moderates it like any other.
      const pending = await api.get(`/v1/reviews?status=pending&product_id=${product.id}`, shopA.as);
      expect(pending.body.data.map((r: { id: string }) => r.id)).to.deep.equal([written.body.data.id]);
      const published = await api.patch(`/v1/reviews/${written.body.data.id}`, { status: 'published' }, shopA.as);
      expect(published.body.data.status).to.equal('published');
      // Status and author are not the customer's to set.
      const forged = await api.post(`${BASE}/reviews`, { ...review, status: 'published' }, { token: buyer.token });
      expect(forged.status).to.equal(400);
    });
  });

  describe('inputs', () => {
    it('answers no input a client can send with a 500', async () => {
      const shopper = await givenShopper(shopB);
      const values: unknown[] = [null, true, 0, -1, 1e308, '', ' ', 'x'.repeat(300), '0'.repeat(24), 'f'.repeat(24), [], {}, { $gt: '' }, '\u0000', '\ud800'];
      const keys = [
        'subdomain',
        'email',
        'password',
        'token',
        'first_name',
        'id',
        'product_id',
        'variant_id',
        'rating',
        'body',
        'reset_token',
        'current_password',
        'new_password',
        'default',
        'address1',
        'country_code',
      ];
      const routes: [string, string][] = [
        ['POST', '/signup'],
        ['POST', '/login'],
        ['POST', '/activate'],
        ['POST', '/logout'],
        ['POST', '/password/reset'],
        ['POST', '/password/update'],
        ['GET', '/me'],
        ['POST', '/addresses'],
        ['PATCH', '/addresses'],
        ['DELETE', '/addresses'],
        ['PATCH', '/addresses/zzz'],
        ['POST', '/wishlist'],
        ['DELETE', '/wishlist/%00'],
        ['GET', '/orders/not-an-id'],
        ['POST', '/reviews'],
      ];
      let n = 0;
      for (const [method, path] of routes) {
        const bodies: unknown[] = ['{"a":', '[]', 'null', ...values.map((v) => ({ [keys[n++ % keys.length]!]: v }))];
        bodies.push(Object.fromEntries(keys.map((k, i) => [k, values[(i + n) % values.length]])));
        for (const body of bodies) {
          for (const token of [shopper.token, undefined]) {
            const res = await api.send(method, `${BASE}${path}`, method === 'GET' ? undefined : body, token ? { token } : {});
            expect(res.status, `${method} ${path} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).to.be.below(500);
          }
        }
      }
    });
  });

  describe('activation attempts', () => {
    // After every other activation of this file: it spends the client address's window.
    it('bounds activation attempts per client address (30 per 15 minutes): past it, even a valid token waits', async () => {
      const known = await givenKnownCustomer(shopB);
      expect((await api.post(`${BASE}/signup`, { subdomain: shopB.store.subdomain, email: known.email, password: 'a password of ten' })).status).to.equal(202);
      const token = ACTIVATION_TOKEN.exec((await latestMessage(known.email, 'account_activation')).text ?? '')![0];
      const statuses: number[] = [];
      for (let i = 0; i < 31 && statuses.at(-1) !== 429; i++) {
        statuses.push(
          (await api.post(`${BASE}/activate`, { token: `emp_csact_${randomBytes(32).toString('base64url')}`, password: 'a password of ten' })).status,
        );
      }
      expect(statuses.at(-1)).to.equal(429);
      expect(statuses.slice(0, -1).every((s) => s === 401)).to.equal(true);
      const limited = await api.post(`${BASE}/activate`, { token, password: 'the owner password' });
      expect([limited.status, limited.body.error.code]).to.deep.equal([429, 'rate_limited']);
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 900);
      // Refused before the token was looked at: it still works once the window has passed.
      expect(await app.platform.db.collection('customer_activations').countDocuments({ customer_id: new ObjectId(known.id) })).to.equal(1);
    });
  });

  describe('expiry', () => {
    // Last: the sweep runs 30 days ahead.
    it('refuses a session after 30 days, and the maintenance sweep removes it', async () => {
      const shopper = await givenShopper(shopB);
      const sessions = app.platform.db.collection('customer_sessions');
      const later = new Date(Date.now() + 30 * 24 * 3600 * 1000 + 60_000);
      // The session as it will be in 30 days and a minute: expired.
      expect(await sessions.countDocuments({ customer_id: new ObjectId(shopper.id), expires_at: { $gt: later } })).to.equal(0);
      await sweep('maintenance.sweep-customer-credentials', { ...app.platform, clock: { now: () => later } });
      expect(await sessions.countDocuments({ customer_id: new ObjectId(shopper.id) })).to.equal(0);
      expect((await api.get(`${BASE}/me`, { token: shopper.token })).status).to.equal(401);
    });
  });
});
