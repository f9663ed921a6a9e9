import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import type { Resolver } from '../../src/outbound/index.js';
import { createSubscription } from '../../src/webhooks/subscriptions/service.js';
import { authorizeApp, codeExchange, exchangeCode, givenPublishedApp, type GivenApp } from '../helpers/apps.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { withWebProcess } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-security@example.com';
const PATH = '/v1/operations/runtime/security/enforcement-events';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Security enforcement (docs/operations.md, Security enforcement): what the platform enforces by
 * itself is recorded as it happens; an operator suspends an app (its tokens refused at once, its
 * installs and token requests refused, its webhook deliveries paused and resumed on undo, with a
 * real webhooks worker and a second web process) and blocks address ranges (refused before any
 * route), each with its reason and an undo.
 */
describe('Operations: security enforcement', () => {
  // Behind one proxy of ours: a test names the client's address in X-Forwarded-For.
  const { app, api, receiver } = useWebhooksApp(
    'operations_security',
    {
      OPERATOR_EMAILS: OPERATOR,
      TRUST_PROXY: 'true',
      TRUST_PROXY_HOPS: '1',
      ADMIN_API_BUCKET_CAPACITY: '40',
      ADMIN_API_RESTORE_RATE: '0.01',
      JOBS_POLL_INTERVAL_MS: '100',
      WEBHOOK_SWEEP_INTERVAL_MS: '300',
    },
    { groups: ['webhooks'] },
  );
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  let operator: string;
  before(async () => {
    operator = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  const enforce = async (body: Record<string, unknown>) => {
    const res = await api.post(PATH, body, { token: operator });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  };
  const undo = (id: string, reason = 'resolved') => api.post(`${PATH}/${id}/undo`, { reason }, { token: operator });
  const events = async (query = '') => {
    const res = await api.get(`${PATH}${query}`, { token: operator });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as any[];
  };
  const count = () => app.platform.db.collection('enforcement_events').countDocuments();

  describe('suspend_app', () => {
    let partner: GivenApp;
    let shop: GivenMerchantWithStore;
    let tokens: { access_token: string; refresh_token: string };
    const hookPath = '/suspended-app';

    before(async () => {
      partner = await givenPublishedApp(api, operator, { scopes: ['read_products'], webhooks: { topics: ['product.created'] } });
      receiver.expectSecret(hookPath, partner.webhookSecret);
      shop = await givenMerchantWithStore(api);
      const granted = await authorizeApp(api, partner, shop, { scopes: ['read_products'], webhookUrl: `${receiver.url}${hookPath}` });
      tokens = await exchangeCode(api, partner, granted);
    });

    const received = (type: string) => receiver.to(hookPath).filter((r) => r.verified && r.headers['x-platform-event-type'] === type);
    const asApp = () => ({ token: tokens.access_token });

    it('refuses the app’s token at once everywhere (in this process, and in another web process within a second), refuses installs and token requests, and pauses its deliveries until undone', async () => {
      await until('app.installed at the partner', async () => received('app.installed').length > 0);
      expect((await api.get('/v1/app/products', asApp())).status).to.equal(200);

      await withWebProcess(app, { TRUST_PROXY: 'true', OPERATOR_EMAILS: OPERATOR }, async (web) => {
        // The other process has read what is in force (nothing) before the suspension.
        expect((await web.get('/v1/app/products', asApp())).status).to.equal(200);
        const suspension = await enforce({ action: 'suspend_app', app_id: partner.app.id, reason: 'abuse report #42' });
        expect(suspension).to.include({ kind: 'app_suspended', active: true, undoable: true, reason: 'abuse report #42', undo: null, expires_at: null });
        expect(suspension.subject).to.deep.equal({ app_id: partner.app.id });
        expect(suspension.actor.type).to.equal('operator');

        // This process: at once, on the app API, the admin REST API, GraphQL and the bridge.
        for (const [method, path, body] of [
          ['GET', '/v1/app/products'],
          ['GET', '/v1/products'],
          ['POST', '/v1/admin/graphql', { query: '{ shop { name } }' }],
          ['POST', '/v1/app-store/bridge/fetch', { path: '/v1/app/products' }],
        ] as const) {
          const res = await api.send(method, path, body, asApp());
          expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).to.equal(403);
          expect(res.body.error.code).to.equal('app_suspended');
        }
        // The other web process: at its next read of what is in force (about a second; how long is not asserted: the machine may be busy).
        await until('the other web process to refuse the token', async () => (await web.get('/v1/app/products', asApp())).status === 403);
      });

      // No token of any grant, and no install into another store.
      const refresh = await api.post('/v1/app-store/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: partner.credentials.oauth_client_id,
        client_secret: partner.credentials.client_secret,
      });
      expect(refresh.status).to.equal(400);
      expect(refresh.body).to.include({ error: 'unauthorized_client' });
      expect(refresh.body.error_description).to.match(/^app_suspended/);
      const other = await givenMerchantWithStore(api);
      const install = await api.post(
        `/v1/app-store/apps/${partner.app.id}/oauth/authorize`,
        {
          store_id: other.store.id,
          redirect_uri: partner.app.published.redirect_urls[0],
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
          scopes: ['read_products'],
          state: 'st',
          webhook_url: 'https://partner.example.com/webhooks',
        },
        { token: other.merchant.token },
      );
      expect(install.status, JSON.stringify(install.body)).to.equal(403);
      expect(install.body.error.code).to.equal('app_suspended');

      // Its deliveries wait: the worker learns of the suspension within a second; the delivery is neither attempted nor failed.
      await sleep(1200);
      await givenProduct(api, shop.as);
      const deliveries = app.platform.db.collection('webhook_deliveries');
      const waiting = await until('the product.created delivery to exist', () =>
        deliveries.findOne({ app_id: new ObjectId(partner.app.id), event_type: 'product.created' }),
      );
      await sleep(2000); // several sweeps of the worker
      const still = await deliveries.findOne({ _id: waiting._id });
      expect(still).to.include({ status: 'queued', lease_owner: null });
      expect(still!.attempts).to.have.length(0);
      expect(received('product.created')).to.have.length(0);

      // Undo: the token works again at once here, and the delivery goes out.
      const undone = await undo((await events(`?kind=app_suspended&active=true`)).find((e) => e.subject.app_id === partner.app.id).id, 'the partner fixed it');
      expect(undone.status, JSON.stringify(undone.body)).to.equal(200);
      expect(undone.body.data).to.include({ active: false });
      expect(undone.body.data.undo).to.include({ reason: 'the partner fixed it' });
      expect(undone.body.data.undo.undone_by).to.be.a('string');
      expect(Date.parse(undone.body.data.undo.undone_at)).to.be.closeTo(Date.now(), 10_000);
      expect((await api.get('/v1/app/products', asApp())).status).to.equal(200);
      const [delivered] = await until('the paused delivery to arrive', async () =>
        received('product.created').length > 0 ? received('product.created') : null,
      );
      expect(delivered!.eventId).to.equal(waiting.event_id.toHexString());

      // Undoing twice is a conflict and changes nothing.
      const again = await undo(undone.body.data.id, 'again');
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('enforcement_already_undone');
      expect((await api.get(`${PATH}/${undone.body.data.id}`, { token: operator })).body.data.undo.reason).to.equal('the partner fixed it');
    });

    it('refuses a second suspension of a suspended app (409), and an app that does not exist (404)', async () => {
      const first = await enforce({ action: 'suspend_app', app_id: partner.app.id, reason: 'again' });
      const second = await api.post(PATH, { action: 'suspend_app', app_id: partner.app.id, reason: 'twice' }, { token: operator });
      expect(second.status).to.equal(409);
      expect(second.body.error.code).to.equal('app_already_suspended');
      const missing = await api.post(PATH, { action: 'suspend_app', app_id: new ObjectId().toHexString(), reason: 'nobody' }, { token: operator });
      expect(missing.status).to.equal(404);
      expect((await undo(first.id)).status).to.equal(200);
    });
  });

  describe('block_address_range', () => {
    it('refuses requests from a blocked IPv4 or IPv6 range with 403 address_blocked before any route (health and unknown paths too), others pass, and undo lifts it', async () => {
      const v4 = await enforce({ action: 'block_address_range', cidr: '203.0.113.0/24', reason: 'credential stuffing', expires_in_minutes: 60 });
      expect(v4).to.include({ kind: 'address_range_blocked', active: true, client_address: '127.0.0.1' });
      expect(v4.subject).to.deep.equal({ cidr: '203.0.113.0/24' });
      expect(Date.parse(v4.expires_at) - Date.parse(v4.created_at)).to.equal(60 * 60_000);
      const v6 = await enforce({ action: 'block_address_range', cidr: '2001:DB8::/32', reason: 'scraper' });
      expect(v6.subject.cidr).to.equal('2001:db8::/32');

      for (const [path, address] of [
        ['/health', '203.0.113.7'],
        ['/v1/storefront/nope', '203.0.113.200'],
        ['/no/such/route', '2001:db8::5'],
        ['/v1/auth/session', '::ffff:203.0.113.9'],
      ]) {
        const res = await api.get(path!, from(address!));
        expect(res.status, `${path} from ${address}`).to.equal(403);
        expect(res.body.error.code).to.equal('address_blocked');
      }
      const signin = await api.post('/v1/auth/signin', { email: OPERATOR, password: 'whatever' }, from('203.0.113.7'));
      expect(signin.status).to.equal(403);
      expect((await api.get('/health', from('203.0.114.1'))).status).to.equal(200);
      expect((await api.get('/health', from('2001:db9::1'))).status).to.equal(200);
      expect((await api.get('/health')).status).to.equal(200);

      const active = await events('?active=true&kind=address_range_blocked');
      expect(active.map((e) => e.id)).to.include.members([v4.id, v6.id]);
      expect((await undo(v4.id)).status).to.equal(200);
      expect((await undo(v6.id)).status).to.equal(200);
      expect((await api.get('/health', from('203.0.113.7'))).status).to.equal(200);
      expect((await api.get('/health', from('2001:db8::5'))).status).to.equal(200);
      expect((await events('?active=true&kind=address_range_blocked')).map((e) => e.id)).to.not.include.members([v4.id]);
      expect((await events('?active=false&kind=address_range_blocked')).map((e) => e.id)).to.include.members([v4.id, v6.id]);
    });

    it('stops enforcing a block once it expires, in every process within a second of a change made elsewhere', async () => {
      // Written straight to the database, as another process would: this one learns of it at its next read.
      const now = Date.now();
      const blocks = app.platform.db.collection('enforcement_events');
      const live = {
        _id: new ObjectId(),
        kind: 'address_range_blocked',
        actor: new ObjectId(),
        reason: 'from elsewhere',
        subject: { cidr: '192.0.2.0/24' },
        client_address: null,
        created_at: new Date(now - 120_000),
        expires_at: new Date(now + 3_600_000),
        undone_at: null,
        undone_by: null,
        undo_reason: null,
      };
      await blocks.insertOne({ ...live });
      await blocks.insertOne({ ...live, _id: new ObjectId(), subject: { cidr: '198.51.100.0/24' }, expires_at: new Date(now - 60_000) });
      await until('the block written elsewhere to apply here', async () => (await api.get('/health', from('192.0.2.10'))).status === 403);
      expect((await api.get('/health', from('198.51.100.10'))).status).to.equal(200);
      const active = (await events('?active=true&kind=address_range_blocked')).map((e) => e.subject.cidr);
      expect(active).to.include('192.0.2.0/24').and.not.include('198.51.100.0/24');
      expect((await undo(live._id.toHexString())).status).to.equal(200);
      expect((await api.get('/health', from('192.0.2.10'))).status).to.equal(200);
    });

    it('refuses a range that holds the operator’s own address, a /0 and anything that is not a range (400), and changes nothing', async () => {
      const before = await count();
      for (const [body, code, detail] of [
        [{ action: 'block_address_range', cidr: '198.51.100.0/24', reason: 'oops' }, 'block_includes_own_address', /body\.cidr/],
        [{ action: 'block_address_range', cidr: '0.0.0.0/0', reason: 'everything' }, 'block_too_broad', /body\.cidr: .*every IPv4 client/],
        [{ action: 'block_address_range', cidr: '::/0', reason: 'everything' }, 'block_too_broad', /body\.cidr: .*every IPv6 client/],
        [{ action: 'block_address_range', cidr: '203.0.113.0/33', reason: 'x' }, 'invalid_input', /body\.cidr/],
        [{ action: 'block_address_range', cidr: '999.0.113.0/24', reason: 'x' }, 'invalid_input', /body\.cidr/],
        [{ action: 'block_address_range', cidr: '203.0.113.0/24/1', reason: 'x' }, 'invalid_input', /body\.cidr/],
        [{ action: 'block_address_range', cidr: 'example.com/24', reason: 'x' }, 'invalid_input', /body\.cidr/],
        [{ action: 'block_address_range', cidr: '203.0.113.0/24' }, 'invalid_input', /body\.reason/],
        [{ action: 'block_address_range', cidr: '203.0.113.0/24', reason: '   ' }, 'invalid_input', /body\.reason/],
        [{ action: 'block_address_range', cidr: '203.0.113.0/24', reason: 'x', expires_in_minutes: 0 }, 'invalid_input', /body\.expires_in_minutes/],
        [{ action: 'block_address_range', cidr: '203.0.113.0/24', reason: 'x', expires_in_minutes: 1.5 }, 'invalid_input', /body\.expires_in_minutes/],
        [{ action: 'block_address_range', cidr: 42, reason: 'x' }, 'invalid_input', /body\.cidr/],
        [{ action: 'suspend_app', app_id: 'nope', reason: 'x' }, 'invalid_input', /body\.app_id/],
        [{ action: 'suspend_app', app_id: new ObjectId().toHexString(), reason: 'x', cidr: '203.0.113.0/24' }, 'invalid_input', /Unrecognized key/],
        [{ action: 'delete_everything', reason: 'x' }, 'invalid_input', /body\.action/],
        [{}, 'invalid_input', /body\.action/],
      ] as const) {
        const res = await api.post(PATH, body, { token: operator, ...from('198.51.100.4') });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code, JSON.stringify(body)).to.equal(code);
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect((await api.post(PATH, '[1', { token: operator })).status).to.equal(400);
      expect(await count()).to.equal(before);
    });

    it('refuses a block that would lock out every IPv4 client, loopback, the operator or too large a share of an address space, however it is written (400), and changes nothing', async () => {
      const before = await count();
      // An operator who reaches the platform over IPv6: no IPv4 range holds their own address.
      const operatorV6 = '2001:db8:ffff::5';
      for (const [cidr, code] of [
        ['::ffff:0:0/96', 'block_too_broad'], // every IPv4 client, as IPv4-mapped addresses
        ['::ffff:0.0.0.0/96', 'block_too_broad'],
        ['::ffff:0:0/95', 'block_too_broad'],
        ['::/64', 'block_too_broad'], // holds the IPv4-mapped range, so every IPv4 client
        ['::/16', 'block_too_broad'],
        ['0.0.0.0/0', 'block_too_broad'],
        ['::/0', 'block_too_broad'],
        ['0.0.0.0/1', 'block_too_broad'],
        ['10.0.0.0/7', 'block_too_broad'],
        ['2000::/3', 'block_too_broad'],
        ['2001::/11', 'block_too_broad'],
        ['::ffff:127.0.0.0/104', 'block_includes_loopback'], // 127.0.0.0/8
        ['::ffff:7f00:1', 'block_includes_loopback'],
        ['127.0.0.1', 'block_includes_loopback'],
        ['127.5.0.0/16', 'block_includes_loopback'],
        ['127.0.0.0/8', 'block_includes_loopback'],
        ['::1', 'block_includes_loopback'],
        ['::/127', 'block_includes_loopback'],
        ['2001:db8:ffff::/48', 'block_includes_own_address'],
      ] as const) {
        const res = await api.post(PATH, { action: 'block_address_range', cidr, reason: 'lockout' }, { token: operator, ...from(operatorV6) });
        expect(res.status, `${cidr}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.error.code, cidr).to.equal(code);
        expect(res.body.error.details.join('\n'), cidr).to.match(/^body\.cidr: /);
      }
      // An operator on IPv4 is matched through the range's IPv4-mapped spelling too.
      const own = await api.post(
        PATH,
        { action: 'block_address_range', cidr: '::ffff:198.51.100.0/120', reason: 'x' },
        { token: operator, ...from('198.51.100.4') },
      );
      expect(own.status).to.equal(400);
      expect(own.body.error.code).to.equal('block_includes_own_address');
      expect(await count()).to.equal(before);
      expect((await api.get('/health')).status, '127.0.0.1').to.equal(200);
      expect((await api.get('/health', from('203.0.113.9'))).status).to.equal(200);
      expect((await api.get('/health', from('::ffff:203.0.113.9'))).status).to.equal(200);
    });

    it('stores and enforces an IPv4-mapped range as the IPv4 range it maps', async () => {
      const block = await enforce({ action: 'block_address_range', cidr: '::ffff:203.0.113.0/120', reason: 'scraper over IPv6' });
      try {
        expect(block.subject).to.deep.equal({ cidr: '203.0.113.0/24' });
        expect((await api.get(`${PATH}/${block.id}`, { token: operator })).body.data.subject.cidr).to.equal('203.0.113.0/24');
        for (const address of ['203.0.113.7', '::ffff:203.0.113.8', '::ffff:cb00:7109']) {
          const res = await api.get('/health', from(address));
          expect(res.status, address).to.equal(403);
          expect(res.body.error.code).to.equal('address_blocked');
        }
        expect((await api.get('/health', from('203.0.114.1'))).status).to.equal(200);
        expect((await api.get('/health')).status, '127.0.0.1').to.equal(200);
      } finally {
        expect((await undo(block.id)).status).to.equal(200);
      }
    });

    it('does not enforce a stored block that locks out every IPv4 client or loopback (written before these rules), and enforces the others', async () => {
      const now = Date.now();
      const stored = (cidr: string) => ({
        _id: new ObjectId(),
        kind: 'address_range_blocked',
        actor: new ObjectId(),
        reason: 'an older release let this through',
        subject: { cidr },
        client_address: '2001:db8:ffff::5',
        created_at: new Date(now - 60_000),
        expires_at: null,
        undone_at: null,
        undone_by: null,
        undo_reason: null,
      });
      const docs = ['::ffff:0:0/96', '::ffff:127.0.0.0/104', '::/64', '192.0.2.0/24'].map(stored);
      const blocks = app.platform.db.collection('enforcement_events');
      await blocks.insertMany(docs);
      try {
        // Read again by this process within about a second: the sane block applies...
        await until('the stored blocks to be read', async () => (await api.get('/health', from('192.0.2.10'))).status === 403);
        // ...and the lockouts do not.
        expect((await api.get('/health')).status, '127.0.0.1').to.equal(200);
        expect((await api.get('/health', from('198.51.100.77'))).status).to.equal(200);
        expect((await api.get('/health', from('::ffff:198.51.100.78'))).status).to.equal(200);
      } finally {
        await blocks.updateMany({ _id: { $in: docs.map((d) => d._id) } }, { $set: { undone_at: new Date(), undo_reason: 'test cleanup' } });
      }
      await until('the cleanup to apply', async () => (await api.get('/health', from('192.0.2.10'))).status === 200);
    });
  });

  describe('what the platform records', () => {
    it('records a sign-in lockout once, with the email and the client address', async () => {
      const email = `locked-${new ObjectId().toHexString()}@example.com`;
      let last = 0;
      for (let i = 0; i < 12; i++) last = (await api.post('/v1/auth/signin', { email, password: 'wrong password!' }, from('198.51.100.23'))).status;
      expect(last).to.equal(429);
      const [lockout, ...more] = await until('the lockout to be recorded', async () => {
        const found = (await events('?kind=login_locked_out')).filter((e) => e.subject.email === email);
        return found.length > 0 ? found : null;
      });
      expect(more).to.have.length(0);
      expect(lockout).to.include({ kind: 'login_locked_out', active: false, undoable: false, client_address: '198.51.100.23', undo: null });
      expect(lockout.actor).to.deep.equal({ type: 'platform', merchant_id: null });
      const refused = await undo(lockout.id);
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('enforcement_not_undoable');
    });

    it('records a spent request budget at most once a minute per caller and store, however many requests it refuses', async () => {
      const shop = await givenMerchantWithStore(api);
      const minute = () => Math.floor(Date.now() / 60_000);
      const first = minute();
      const statuses: number[] = [];
      for (let i = 0; i < 50; i++) statuses.push((await api.get('/v1/products', shop.as)).status);
      expect(statuses.filter((s) => s === 429).length).to.be.at.least(9);
      const last = minute();
      const recorded = await until('the budget refusal to be recorded', async () => {
        const found = (await events('?kind=request_budget_exceeded')).filter((e) => e.subject.store_id === shop.store.id);
        return found.length > 0 ? found : null;
      });
      await sleep(300);
      const all = (await events('?kind=request_budget_exceeded')).filter((e) => e.subject.store_id === shop.store.id);
      expect(all.length).to.equal(recorded.length);
      expect(all.length).to.be.at.most(last - first + 1);
      expect(all[0].subject).to.deep.equal({ store_id: shop.store.id, merchant_id: shop.merchant.id });
      expect(all[0].client_address).to.equal('127.0.0.1');
    });

    it('records a webhook target refused by the address rules (SSRF), not one refused for its shape', async () => {
      const shop = await givenMerchantWithStore(api);
      const staging = loadConfig({
        APP_ENV: 'staging',
        SECRETS_KEYS: `k1:${Buffer.alloc(32, 3).toString('base64url')}`,
        MONGODB_URL: 'mongodb://127.0.0.1:1/none',
      });
      const resolver: Resolver = async () => [{ address: '10.2.3.4', family: 4 }];
      const platform = { ...app.platform, config: staging };
      const owner = { type: 'merchant' as const, id: shop.merchant.id };
      const input = (target_url: string) => ({ target_url, event_types: ['*'], active: true, description: null });
      for (const url of ['https://intranet.example/hooks', 'https://169.254.169.254/latest', 'ftp://files.example/']) {
        const err = await createSubscription(platform, shop.store.id, owner, input(url), { resolver }).catch((e: Error) => e);
        expect(err).to.have.property('code', 'invalid_target_url');
      }
      const refused = await until('the refusals to be recorded', async () => {
        const found = (await events('?kind=outbound_target_refused')).filter((e) => e.subject.store_id === shop.store.id);
        return found.length >= 2 ? found : null;
      });
      await sleep(200);
      expect(refused.map((e) => e.subject.host).sort()).to.deep.equal(['169.254.169.254', 'intranet.example']);
      expect(refused.find((e) => e.subject.host === 'intranet.example').reason).to.match(/10\.2\.3\.4, which is a private address/);
    });

    it('records an authorization code presented twice, which revoked what it issued', async () => {
      const partner = await givenPublishedApp(api, operator, { scopes: ['read_products'] });
      const shop = await givenMerchantWithStore(api);
      const granted = await authorizeApp(api, partner, shop, { scopes: ['read_products'] });
      await exchangeCode(api, partner, granted);
      const again = await api.post('/v1/app-store/oauth/token', codeExchange(partner, granted));
      expect(again.status).to.equal(400);
      const [recorded] = await until('the code replay to be recorded', async () => {
        const found = (await events('?kind=oauth_code_replayed')).filter((e) => e.subject.app_id === partner.app.id);
        return found.length > 0 ? found : null;
      });
      expect(recorded.subject).to.include({ installation_id: granted.installationId, store_id: shop.store.id });
      expect(recorded.subject.code_id).to.match(/^[0-9a-f]{24}$/);
      expect(recorded.reason).to.match(/revoked/);
    });

    it('records a refresh token replay that revoked its family', async () => {
      const partner = await givenPublishedApp(api, operator, { scopes: ['read_products'] });
      const shop = await givenMerchantWithStore(api);
      const granted = await authorizeApp(api, partner, shop, { scopes: ['read_products'] });
      const client = { client_id: partner.credentials.oauth_client_id, client_secret: partner.credentials.client_secret };
      const first = { body: await exchangeCode(api, partner, granted) };
      const refresh = (token: string) => api.post('/v1/app-store/oauth/token', { grant_type: 'refresh_token', refresh_token: token, ...client });
      const rotated = await refresh(first.body.refresh_token);
      expect(rotated.status).to.equal(200);
      await refresh(rotated.body.refresh_token); // the pair from the first rotation is now used
      const replay = await refresh(first.body.refresh_token);
      expect(replay.status).to.equal(400);
      const [recorded] = await until('the replay to be recorded', async () => {
        const found = (await events('?kind=refresh_token_replayed')).filter((e) => e.subject.app_id === partner.app.id);
        return found.length > 0 ? found : null;
      });
      expect(recorded.subject).to.include({ app_id: partner.app.id, installation_id: granted.installationId, store_id: shop.store.id });
      expect(recorded.reason).to.match(/revoked/);
    });
  });

  describe('the list', () => {
    it('pages newest first, filters by kind and by active, reads one, and refuses bad queries', async () => {
      const page1 = await api.get(`${PATH}?limit=2`, { token: operator });
      expect(page1.status).to.equal(200);
      expect(page1.body.data).to.have.length(2);
      expect(page1.body.page.next_cursor).to.be.a('string');
      const page2 = await api.get(`${PATH}?limit=2&cursor=${page1.body.page.next_cursor}`, { token: operator });
      expect(page2.body.data[0].id < page1.body.data[1].id).to.equal(true);
      expect((await events('?kind=login_locked_out')).every((e) => e.kind === 'login_locked_out')).to.equal(true);
      expect((await events('?active=true')).every((e) => e.active)).to.equal(true);
      const one = await api.get(`${PATH}/${page1.body.data[0].id}`, { token: operator });
      expect(one.body.data).to.deep.equal(page1.body.data[0]);
      for (const query of ['?kind=nope', '?active=yes', '?limit=0', '?cursor=zzz', '?x=1']) {
        expect((await api.get(`${PATH}${query}`, { token: operator })).status, query).to.equal(400);
      }
      expect((await api.get(`${PATH}/${new ObjectId().toHexString()}`, { token: operator })).status).to.equal(404);
      expect((await api.get(`${PATH}/nope`, { token: operator })).status).to.equal(404);
      expect((await undo(new ObjectId().toHexString())).status).to.equal(404);
      expect((await api.post(`${PATH}/${page1.body.data[0].id}/undo`, {}, { token: operator })).status).to.equal(400);
    });
  });

  it('is for operators only: 401 without credentials, 403 for a merchant, an app and a customer, on every route', async () => {
    const shop = await givenMerchantWithStore(api);
    const { appToken, customerToken } = await givenAppAndCustomer(api, operator, shop);
    const id = new ObjectId().toHexString();
    const before = await count();
    const routes: [string, string, unknown][] = [
      ['GET', PATH, undefined],
      ['GET', `${PATH}/${id}`, undefined],
      ['POST', PATH, { action: 'block_address_range', cidr: '198.18.0.0/15', reason: 'x' }],
      ['POST', `${PATH}/${id}/undo`, { reason: 'x' }],
    ];
    for (const [method, path, body] of routes) {
      expect((await api.send(method, path, body)).status, `${method} ${path}`).to.equal(401);
      const merchant = await api.send(method, path, body, { token: shop.merchant.token });
      expect(merchant.status, `${method} ${path}`).to.equal(403);
      expect(merchant.body.error.code).to.equal('operator_required');
      expect((await api.send(method, path, body, { token: appToken })).status, `${method} ${path}`).to.be.oneOf([401, 403]);
      expect((await api.send(method, path, body, { token: customerToken })).status, `${method} ${path}`).to.be.oneOf([401, 403]);
    }
    expect(await count()).to.equal(before);
  });
});
