import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { givenMerchantWithStore, type As } from '../helpers/factories.js';
import { stopAll } from '../helpers/processes.js';
import { makeTestCertificate, type TestCertificate } from '../helpers/tls.js';
import { deliveryOf, renameStore, useWebhooksApp } from '../helpers/webhooks.js';

/** Webhooks against the contract (spec 6.1): target rules in staging, and a signing secret that cannot be decrypted. */

const SECRET = 'internal-secret-for-the-webhook-contract-tests-0123';
const STAGING_KEY = `k1:${Buffer.alloc(32, 3).toString('base64url')}`;
const FAST_RETRIES = {
  WEBHOOK_RETRY_BASE_SECONDS: '0.05',
  WEBHOOK_RETRY_CAP_SECONDS: '0.4',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_CONNECT_TIMEOUT_MS: '500',
  JOBS_POLL_INTERVAL_MS: '100',
  WEBHOOK_SWEEP_INTERVAL_MS: '300',
};
const SUBSCRIPTIONS = '/v1/operations/webhook-subscriptions';

type Attempt = { status: number | null; error: string | null; retry_seconds: number | null; request_id: string };

describe('Webhook targets in staging: private, loopback, link-local and metadata addresses refused at creation and at every send unless allow-listed', () => {
  let tls: TestCertificate;
  before(() => {
    tls = makeTestCertificate();
  });
  // The web process allow-lists the local receiver, as an operator would for a partner reached over a VPN.
  const {
    app,
    api,
    receiver,
    workers,
    startWorker: start,
  } = useWebhooksApp(
    'webhooks_staging',
    { APP_ENV: 'staging', SECRETS_KEYS: STAGING_KEY, INTERNAL_SECRET: SECRET, WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1,localhost', ...FAST_RETRIES },
    { tls: () => tls },
  );
  const changeStore = (as: As) => renameStore(app, api, as);
  const finished = (as: As, subscriptionId: string, eventId: string) => deliveryOf(api, as, subscriptionId, eventId);
  afterEach(() => stopAll(workers, 'SIGTERM'));
  after(() => tls.remove());

  /** A staging webhooks worker (trusting the test certificate) with its own allow-list. */
  const startWorker = (allowlist: string) =>
    start('webhooks', { WEBHOOK_TARGET_ALLOWLIST: allowlist, NODE_EXTRA_CA_CERTS: tls.certFile }, '"event":"webhooks.internal_listening"');

  it('refuses them at creation and update with 400 invalid_target_url and changes nothing; allow-listed hosts pass', async () => {
    const { as } = await givenMerchantWithStore(api);
    const cases: [string, RegExp][] = [
      ['https://10.0.0.1/hooks', /the address 10\.0\.0\.1 is a private address; staging webhooks must reach a public address/],
      ['https://192.168.1.20:8443/', /private address/],
      ['https://169.254.169.254/latest/meta-data/', /link-local address/],
      ['https://[fd00:ec2::254]/', /unique-local address/],
      ['https://127.0.0.2/', /loopback address/],
      ['https://[::1]/', /loopback address/],
      ['https://metadata.localhost/', /loopback name/],
      ['http://127.0.0.1/', /must use https when APP_ENV is staging/],
    ];
    const before = await app.platform.db.collection('webhook_subscriptions').countDocuments({ store_id: new ObjectId(as.storeId) });
    for (const [target_url, reason] of cases) {
      const res = await api.post(SUBSCRIPTIONS, { target_url, event_types: ['store.*'] }, as);
      expect(res.status, target_url).to.equal(400);
      expect(res.body.error.code, target_url).to.equal('invalid_target_url');
      expect(res.body.error.details, target_url).to.have.length(1);
      expect(res.body.error.details[0], target_url)
        .to.match(/^body\.target_url: /)
        .and.match(reason);
    }
    expect(await app.platform.db.collection('webhook_subscriptions').countDocuments({ store_id: new ObjectId(as.storeId) })).to.equal(before);

    const allowed = [`https://127.0.0.1:${receiver.port}/ok`, `https://localhost:${receiver.port}/ok`];
    const created: string[] = [];
    for (const target_url of allowed) {
      const res = await api.post(SUBSCRIPTIONS, { target_url, event_types: ['store.*'] }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      created.push(res.body.data.id);
    }
    expect(created).to.have.length(2);
    const stored = await app.platform.db.collection('webhook_subscriptions').findOne({ _id: new ObjectId(created[0]) });
    const patched = await api.patch(`${SUBSCRIPTIONS}/${created[0]}`, { target_url: 'https://169.254.169.254/' }, as);
    expect(patched.status).to.equal(400);
    expect(patched.body.error.code).to.equal('invalid_target_url');
    expect(await app.platform.db.collection('webhook_subscriptions').findOne({ _id: new ObjectId(created[0]) })).to.deep.equal(stored);
  });

  it('refuses at send time a target its worker does not allow-list (IP literal and host name), and delivers once it does', async () => {
    const { as } = await givenMerchantWithStore(api);
    const targets = { '/by-ip': `https://127.0.0.1:${receiver.port}/by-ip`, '/by-name': `https://localhost:${receiver.port}/by-name` };
    const subs: Record<string, string> = {};
    for (const [path, target_url] of Object.entries(targets)) {
      const res = await api.post(SUBSCRIPTIONS, { target_url, event_types: ['store.updated'] }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      receiver.expectSecret(path, res.body.data.secret);
      subs[path] = res.body.data.id;
    }

    // A worker whose allow-list does not name the receiver: every attempt is refused before connecting.
    const strict = await startWorker('');
    const eventId = await changeStore(as);
    const byIp = await finished(as, subs['/by-ip']!, eventId);
    const byName = await finished(as, subs['/by-name']!, eventId);
    for (const [delivery, refusal] of [
      [byIp, /^Target refused: the address 127\.0\.0\.1 is a loopback address; staging webhooks must reach a public address/],
      [byName, /^Target refused: the host localhost resolves to (127\.0\.0\.1|::1), which is a loopback address; staging webhooks must reach a public address/],
    ] as const) {
      expect(delivery.status).to.equal('failed');
      expect(delivery.attempts).to.have.length(9);
      for (const a of delivery.attempts as Attempt[]) {
        expect(a.status).to.equal(null);
        expect(a.error).to.match(refusal);
      }
    }
    expect(receiver.to('/by-ip')).to.deep.equal([]);
    expect(receiver.to('/by-name')).to.deep.equal([]);
    strict.child.kill('SIGTERM');
    expect((await strict.exited).code).to.equal(0);

    // The operator allow-lists the receiver on the worker too: a redelivery reaches it, over HTTPS, verified.
    await startWorker('127.0.0.1,localhost');
    for (const path of Object.keys(targets)) {
      const [d] = (await api.get(`/v1/operations/webhook-deliveries?subscription_id=${subs[path]}&event_id=${eventId}`, as)).body.data;
      expect((await api.post(`/v1/operations/webhook-deliveries/${d.id}/redeliver`, undefined, as)).status).to.equal(202);
      const done = await finished(as, subs[path]!, eventId);
      expect(done.status, path).to.equal('successful');
      expect(done.attempts.at(-1)).to.include({ status: 200, error: null });
      expect(receiver.to(path).map((r) => [r.eventId, r.verified])).to.deep.equal([[eventId, true]]);
    }
  });
});

describe('A webhook signing secret that cannot be decrypted', () => {
  // The web process seals secrets with the test key (id `dev`).
  const { app, api, receiver, workers, startWorker: start } = useWebhooksApp('webhooks_unreadable', { INTERNAL_SECRET: SECRET, ...FAST_RETRIES });
  const changeStore = (as: As) => renameStore(app, api, as);
  const finished = (as: As, subscriptionId: string, eventId: string) => deliveryOf(api, as, subscriptionId, eventId);
  const stopWorkers = () => stopAll(workers, 'SIGTERM');
  afterEach(stopWorkers);

  const startWorker = (secretsKeys: string) => start('webhooks', { SECRETS_KEYS: secretsKeys }, '"event":"webhooks.internal_listening"');
  const subscribe = async (as: As, path: string) => {
    const res = await api.post(SUBSCRIPTIONS, { target_url: `${receiver.url}${path}`, event_types: ['store.updated'] }, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    receiver.expectSecret(path, res.body.data.secret);
    return { id: res.body.data.id as string, secret: res.body.data.secret as string };
  };
  const attemptsOf = (delivery: { attempts: Attempt[] }) => delivery.attempts;

  it('fails each try as a recorded attempt naming the cause (its key is no longer in SECRETS_KEYS), retried, then failed, and counted', async () => {
    const { as } = await givenMerchantWithStore(api);
    const sub = await subscribe(as, '/key-gone');
    // The worker's SECRETS_KEYS no longer holds the key (`dev`) the secret was sealed with.
    const worker = await startWorker(`k2:${Buffer.alloc(32, 5).toString('base64url')}`);
    const eventId = await changeStore(as);
    const delivery = await finished(as, sub.id, eventId);
    expect(delivery).to.include({ status: 'failed', attempt_count: 9, last_status: null });
    const attempts = attemptsOf(delivery);
    expect(attempts).to.have.length(9);
    for (const a of attempts) {
      expect(a.status).to.equal(null);
      expect(a.error).to.equal(
        'Signing secret cannot be decrypted: the key it was sealed with is not in SECRETS_KEYS (restore that key, or rotate the secret with grace_period_seconds 0)',
      );
      expect(a.request_id).to.match(/^whreq_[0-9a-f]{24}$/);
    }
    expect(new Set(attempts.map((a) => a.request_id)).size).to.equal(9);
    expect(attempts.map((a) => a.retry_seconds)).to.deep.equal([0.05, 0.1, 0.2, 0.4, 0.4, 0.4, 0.4, 0.4, null]);
    expect(receiver.to('/key-gone')).to.deep.equal([]);
    // Counted like any delivery that ended failed (the auto-disable rule).
    const stored = await app.platform.db.collection('webhook_subscriptions').findOne({ _id: new ObjectId(sub.id) });
    expect(stored!.consecutive_failed_deliveries).to.equal(1);
    // The operator's log names the key id and the subscription, never a secret or its ciphertext.
    expect(worker.output()).to.match(new RegExp(`"event":"webhook.signing_secret_unreadable"[^\\n]*"subscription_id":"${sub.id}"[^\\n]*"key_id":"dev"`));
    for (const text of [JSON.stringify(delivery), worker.output()]) {
      expect(text.includes(sub.secret.slice(6))).to.equal(false);
      expect(text.includes(stored!.secret.ciphertext.split('.').at(-1))).to.equal(false);
    }
  });

  it('does the same for a key of the same id that does not open it, and for a previous secret that does not open during a grace period', async () => {
    const { as } = await givenMerchantWithStore(api);
    const sub = await subscribe(as, '/key-changed');
    // `dev` is there, but it is another key.
    await startWorker(`dev:${Buffer.alloc(32, 6).toString('base64url')}`);
    const eventId = await changeStore(as);
    const delivery = await finished(as, sub.id, eventId);
    expect(delivery).to.include({ status: 'failed', attempt_count: 9 });
    const errors = new Set(attemptsOf(delivery).map((a) => a.error));
    expect([...errors]).to.deep.equal([
      'Signing secret cannot be decrypted: it does not open with the key of its id in SECRETS_KEYS (the key was changed, or the stored secret is damaged; rotate the secret with grace_period_seconds 0)',
    ]);
    expect(receiver.to('/key-changed')).to.deep.equal([]);

    // A previous secret, still signing during its grace period, that does not open: the delivery fails the same way.
    const other = await subscribe(as, '/previous-damaged');
    const rotated = await api.post(`${SUBSCRIPTIONS}/${other.id}/rotate-secret`, { grace_period_seconds: 3600 }, as);
    expect(rotated.status).to.equal(200);
    receiver.expectSecret('/previous-damaged', rotated.body.data.secret);
    await app.platform.db
      .collection('webhook_subscriptions')
      .updateOne({ _id: new ObjectId(other.id) }, { $set: { 'previous_secret.ciphertext': 'v1.dev.AAAA.AAAA.AAAA' } });
    await stopWorkers();
    await startWorker(''); // the test key again: the current secret opens
    const next = await changeStore(as);
    const failed = await finished(as, other.id, next);
    expect(failed.status).to.equal('failed');
    expect(new Set(attemptsOf(failed).map((a) => a.error))).to.deep.equal(
      new Set([
        'Previous signing secret cannot be decrypted: it does not open with the key of its id in SECRETS_KEYS (the key was changed, or the stored secret is damaged; rotate the secret with grace_period_seconds 0)',
      ]),
    );
    expect(receiver.to('/previous-damaged')).to.deep.equal([]);
  });
});
