import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import { createLog } from '../../src/log.js';
import { openPlatform } from '../../src/boot.js';
import { createSubscription } from '../../src/webhooks/subscriptions/service.js';
import { claimDelivery, retryDelaySeconds, sendClaimed, type ClaimedDelivery } from '../../src/webhooks/deliveries/delivery.js';
import { fanOutEvents } from '../../src/webhooks/deliveries/fan-out.js';
import { createDispatcher } from '../../src/webhooks/deliveries/dispatcher.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { client, type Client } from '../helpers/http.js';
import { runProcfileProcess, type RunningProcess } from '../helpers/processes.js';
import { verifyBySpec } from '../helpers/spec-verifier.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { freePort, until } from '../helpers/waiting.js';
import { deliveryOf, givenSubscription, givenSubscriptionTo, renameStore, useWebhooksApp } from '../helpers/webhooks.js';

const SECRET = 'internal-secret-for-the-webhooks-tests-0123456789';

describe('Webhook delivery (webhooks worker, receiver, operations API)', () => {
  const { app, api, receiver, internal, startWorker } = useWebhooksApp('webhooks', {
    INTERNAL_SECRET: SECRET,
    WEBHOOK_RETRY_BASE_SECONDS: '0.05',
    WEBHOOK_RETRY_CAP_SECONDS: '0.4',
    WEBHOOK_TIMEOUT_MS: '1500',
    WEBHOOK_CONNECT_TIMEOUT_MS: '500',
    JOBS_POLL_INTERVAL_MS: '100',
    WEBHOOK_SWEEP_INTERVAL_MS: '300',
  });
  let as: { token: string; storeId: string };
  let worker: RunningProcess;
  before(async () => {
    worker = await startWorker();
  });
  // Each test acts on a store of its own: its subscriptions see only its own events, whatever
  // another test left active.
  beforeEach(async () => {
    as = (await givenMerchantWithStore(api)).as;
  });

  const subscribe = (path: string, eventTypes?: string[]) => givenSubscriptionTo(api, as, receiver, path, eventTypes);
  const unsubscribe = (id: string) => api.patch(`/v1/operations/webhook-subscriptions/${id}`, { active: false }, as);
  const changeStore = () => renameStore(app, api, as);
  const deliveryFor = (subscriptionId: string, eventId: string, done = true) => deliveryOf(api, as, subscriptionId, eventId, done);

  it('delivers a signed event moments after the change, with every header, verifiable as documented', async () => {
    const sub = await subscribe('/ok');
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery).to.include({ status: 'successful', event_type: 'store.updated', attempt_count: 1 });
    expect(delivery.attempts[0]).to.include({ number: 0, status: 200, error: null });
    const [req] = receiver.to('/ok').filter((r) => r.eventId === eventId);
    expect(req).to.exist;
    const body = JSON.parse(req!.body);
    expect(body).to.have.all.keys('id', 'event_type', 'created_at', 'payload');
    expect(body).to.include({ id: eventId, event_type: 'store.updated' });
    expect(body.payload.store.id).to.equal(as.storeId);
    expect(req!.headers['content-type']).to.equal('application/json');
    expect(req!.headers['user-agent']).to.match(/^Emporium-Webhooks\/\d+\.\d+\.\d+$/);
    expect(req!.headers['x-platform-event-id']).to.equal(eventId);
    expect(req!.headers['x-platform-event-type']).to.equal('store.updated');
    expect(req!.headers['x-platform-timestamp']).to.match(/^\d{10}$/);
    expect(req!.headers['x-platform-request-id']).to.equal(delivery.attempts[0].request_id);
    expect(req!.headers['x-platform-trace-id']).to.be.a('string');
    expect(req!.headers['x-platform-hmac-sha256']).to.match(/^v1=[0-9a-f]{64}$/);
    expect(req!.headers['x-platform-signature']).to.equal(req!.headers['x-platform-hmac-sha256']);
    expect(req!.headers['x-platform-hmac-sha256-previous']).to.equal(undefined);
    expect(req!.verified).to.equal(true);
    expect(verifyBySpec(sub.secret, req!.headers, req!.raw)).to.equal(true);
    expect(verifyBySpec(sub.secret, req!.headers, req!.raw, 'x-platform-signature')).to.equal(true);
    expect(verifyBySpec(sub.secret, req!.headers, Buffer.from(req!.body.replace('store.updated', 'store.created')))).to.equal(false);
    expect(verifyBySpec(`${sub.secret}x`, req!.headers, req!.raw)).to.equal(false);
    await unsubscribe(sub.id);
  });

  it("signs with exactly one v1= signature per header during a rotation's grace period, the previous secret's in X-Platform-Hmac-SHA256-Previous", async () => {
    const sub = await subscribe('/rotating');
    const rotated = await api.post(`/v1/operations/webhook-subscriptions/${sub.id}/rotate-secret`, { grace_period_seconds: 3600 }, as);
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    // The partner switches to the new secret at once; a receiver written from spec 6.1 alone must accept the delivery.
    receiver.expectSecret('/rotating', rotated.body.data.secret);
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery).to.include({ status: 'successful', attempt_count: 1 });
    const sent = receiver.to('/rotating').filter((r) => r.eventId === eventId);
    expect(sent).to.have.length(1);
    const [req] = sent as [(typeof sent)[number]];
    expect(req.verified).to.equal(true);
    expect(req.headers['x-platform-hmac-sha256']).to.match(/^v1=[0-9a-f]{64}$/);
    expect(req.headers['x-platform-signature']).to.equal(req.headers['x-platform-hmac-sha256']);
    // A partner that has not switched yet checks the previous secret's signature, the same way, in its own header.
    expect(req.headers['x-platform-hmac-sha256-previous']).to.match(/^v1=[0-9a-f]{64}$/);
    expect(verifyBySpec(sub.secret, req.headers, req.raw, 'x-platform-hmac-sha256-previous')).to.equal(true);
    expect(verifyBySpec(sub.secret, req.headers, req.raw)).to.equal(false);
    expect(verifyBySpec(rotated.body.data.secret, req.headers, req.raw, 'x-platform-hmac-sha256-previous')).to.equal(false);

    // Once the previous secret no longer signs (a rotation with no grace period), the header is gone.
    const dropped = await api.post(`/v1/operations/webhook-subscriptions/${sub.id}/rotate-secret`, { grace_period_seconds: 0 }, as);
    expect(dropped.status).to.equal(200);
    receiver.expectSecret('/rotating', dropped.body.data.secret);
    const next = await changeStore();
    expect(await deliveryFor(sub.id, next)).to.include({ status: 'successful', attempt_count: 1 });
    const [after] = receiver.to('/rotating').filter((r) => r.eventId === next);
    expect(after!.verified).to.equal(true);
    expect(after!.headers['x-platform-hmac-sha256']).to.match(/^v1=[0-9a-f]{64}$/);
    expect(after!.headers).not.to.have.property('x-platform-hmac-sha256-previous');
    await unsubscribe(sub.id);
  });

  it('retries a failing endpoint until it answers 2xx, recording every attempt', async () => {
    receiver.on('/flaky', (attempt) => ({ status: attempt < 2 ? 500 : 200 }));
    const sub = await subscribe('/flaky');
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery.status).to.equal('successful');
    expect(delivery.attempts.map((a: { number: number; status: number }) => [a.number, a.status])).to.deep.equal([
      [0, 500],
      [1, 500],
      [2, 200],
    ]);
    expect(delivery.attempts[0]).to.include({ error: 'Webhook endpoint returned HTTP 500', response_preview: 'nope: try later' });
    await unsubscribe(sub.id);
  });

  it('lists a delivery as retrying while it waits for its next attempt after a failed one, and no longer once it ended', async () => {
    receiver.on('/retrying', () => ({ status: 500 }));
    const sub = await subscribe('/retrying');
    const eventId = await changeStore();
    const retrying = await until('the delivery to be retrying', async () => {
      const listed = (await api.get(`/v1/operations/webhook-deliveries?status=retrying&subscription_id=${sub.id}`, as)).body.data;
      return listed.length ? listed : null;
    });
    expect(retrying[0]).to.include({ status: 'queued', event_id: eventId });
    expect(retrying[0].attempt_count).to.be.greaterThan(0);
    const ended = await deliveryFor(sub.id, eventId);
    expect(ended.status).to.equal('failed');
    expect((await api.get(`/v1/operations/webhook-deliveries?status=retrying&subscription_id=${sub.id}`, as)).body.data).to.deep.equal([]);
    await unsubscribe(sub.id);
  });

  it("records each failed attempt's retry delay in seconds (spec 6.1 rule 8), none after a success or the last attempt", async () => {
    receiver.on('/delays', (attempt) => (attempt < 2 ? { status: 500 } : attempt === 2 ? { status: 503, headers: { 'Retry-After': '1' } } : { status: 200 }));
    const sub = await subscribe('/delays');
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery.status).to.equal('successful');
    expect(delivery.attempts).to.have.length(4);
    // min(0.05 × 2^n, 0.4) in this suite (spec: 120 s doubling, capped at 3600 s); a longer Retry-After on a 503 wins, capped.
    expect(delivery.attempts.map((a: { status: number; retry_seconds: number | null }) => [a.status, a.retry_seconds])).to.deep.equal([
      [500, 0.05],
      [500, 0.1],
      [503, 0.4],
      [200, null],
    ]);
    await unsubscribe(sub.id);

    receiver.on('/delays-down', () => ({ status: 500 }));
    const down = await subscribe('/delays-down');
    const failed = await deliveryFor(down.id, await changeStore());
    expect(failed.status).to.equal('failed');
    expect(failed.attempts.map((a: { retry_seconds: number | null }) => a.retry_seconds)).to.deep.equal([0.05, 0.1, 0.2, 0.4, 0.4, 0.4, 0.4, 0.4, null]);
    await unsubscribe(down.id);
  });

  it('fails for good after attempt 8, with all nine attempts recorded, and redelivers it as a new attempt series', async () => {
    let down = true;
    receiver.on('/down', () => ({ status: down ? 500 : 204 }));
    const sub = await subscribe('/down');
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery.status).to.equal('failed');
    expect(delivery.attempts.map((a: { number: number }) => a.number)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(delivery.attempts.every((a: { status: number }) => a.status === 500)).to.equal(true);

    down = false;
    const res = await api.post(`/v1/operations/webhook-deliveries/${delivery.id}/redeliver`, undefined, as);
    expect(res.status).to.equal(202);
    expect(res.body.data).to.include({ status: 'queued', series: 2 });
    const done = await until('the redelivery', async () => {
      const d = (await api.get(`/v1/operations/webhook-deliveries/${delivery.id}`, as)).body.data;
      return d.status === 'successful' ? d : null;
    });
    expect(done.attempts.at(-1)).to.include({ series: 2, number: 0, status: 204 });
    expect(done.attempts).to.have.length(10);
    expect((await api.post(`/v1/operations/webhook-deliveries/${delivery.id}/redeliver`, undefined, as)).status).to.equal(409);
    await unsubscribe(sub.id);
  });

  it('answers 429 with a retry, and computes delays as the spec says (Retry-After honoured when longer, capped)', async () => {
    receiver.on('/busy', (attempt) => (attempt === 0 ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 200 }));
    const sub = await subscribe('/busy');
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery.attempts.map((a: { status: number }) => a.status)).to.deep.equal([429, 200]);
    await unsubscribe(sub.id);

    const spec = { config: loadConfig({ APP_ENV: 'test', MONGODB_URL: 'mongodb://x/' }) };
    const delay = (attempt: number, status: number | null, retryAfter: number | null) =>
      retryDelaySeconds(spec, attempt, { status, retryAfterSeconds: retryAfter });
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((a) => delay(a, 500, null))).to.deep.equal([120, 240, 480, 960, 1920, 3600, 3600, 3600]);
    expect(delay(0, 429, 600)).to.equal(600);
    expect(delay(0, 503, 600)).to.equal(600);
    expect(delay(2, 429, 30)).to.equal(480);
    expect(delay(0, 429, 99_999)).to.equal(3600);
    expect(delay(0, 500, 600)).to.equal(120);
  });

  it('does not follow redirects: a 3xx is a failure like any non-2xx', async () => {
    receiver.on('/moved', (attempt) => (attempt === 0 ? { status: 302, headers: { Location: `${receiver.url}/ok` } } : { status: 200 }));
    const sub = await subscribe('/moved');
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery.attempts.map((a: { status: number }) => a.status)).to.deep.equal([302, 200]);
    expect(delivery.attempts[0].error).to.equal('Webhook endpoint returned HTTP 302');
    expect(receiver.to('/ok').filter((r) => r.eventId === eventId)).to.deep.equal([]);
    await unsubscribe(sub.id);
  });

  it('refuses to start production with a changed retry schedule', () => {
    const production = {
      APP_ENV: 'production',
      MONGODB_URL: 'mongodb://db/',
      SECRETS_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64url')}`,
      MESSAGE_RELAY_URL: 'https://relay.example',
      MESSAGE_RELAY_TOKEN: 'relay-token-0123456789',
    };
    expect(() => loadConfig(production)).to.not.throw();
    expect(() => loadConfig({ ...production, WEBHOOK_RETRY_BASE_SECONDS: '1' })).to.throw(/WEBHOOK_RETRY_BASE_SECONDS: must not be set in production/);
    expect(() => loadConfig({ ...production, WEBHOOK_RETRY_CAP_SECONDS: '10' })).to.throw(/WEBHOOK_RETRY_CAP_SECONDS: must not be set in production/);
  });

  it('retries a 410 Gone like any non-2xx, and the subscription stays active', async () => {
    receiver.on('/gone-once', (attempt) => (attempt === 0 ? { status: 410 } : { status: 200 }));
    const sub = await subscribe('/gone-once');
    const eventId = await changeStore();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery).to.include({ status: 'successful', attempt_count: 2 });
    expect(delivery.attempts[0]).to.include({ status: 410, error: 'Webhook endpoint returned HTTP 410', retry_seconds: 0.05 });
    expect((await api.get(`/v1/operations/webhook-subscriptions/${sub.id}`, as)).body.data).to.include({ active: true, disabled_reason: null });
    await unsubscribe(sub.id);
  });

  it('disables a subscription as gone only when its deliveries keep answering 410 (5 in a row, each after all its attempts)', async () => {
    receiver.on('/gone', () => ({ status: 410 }));
    const sub = await subscribe('/gone');
    const view = () => api.get(`/v1/operations/webhook-subscriptions/${sub.id}`, as).then((r) => r.body.data);
    // Four deliveries answered 410 to the end: failed, but the subscription stays active.
    const first: string[] = [];
    for (let i = 0; i < 4; i++) first.push(await changeStore());
    for (const eventId of first) {
      const d = await deliveryFor(sub.id, eventId);
      expect(d).to.include({ status: 'failed', attempt_count: 9 });
      expect(d.attempts.every((a: { status: number }) => a.status === 410)).to.equal(true);
    }
    expect(await view()).to.include({ active: true, disabled_reason: null });
    // The fifth in a row disables it, as gone.
    const fifth = await changeStore();
    expect(await deliveryFor(sub.id, fifth)).to.include({ status: 'failed', attempt_count: 9 });
    const s = await until('the subscription to be disabled', async () => {
      const v = await view();
      return v.active === false ? v : null;
    });
    expect(s).to.include({ active: false, disabled_reason: 'gone' });
    expect(
      await app.platform.db.collection('events').countDocuments({ type: 'webhook_subscription.disabled', 'payload.webhook_subscription.id': sub.id }),
    ).to.equal(1);
    const next = await changeStore();
    await new Promise((r) => setTimeout(r, 500));
    expect((await api.get(`/v1/operations/webhook-deliveries?subscription_id=${sub.id}&event_id=${next}`, as)).body.data).to.deep.equal([]);
  });

  it('treats a timeout and a reset connection as failures with a null status, then retries', async () => {
    receiver.on('/hang', (attempt) => (attempt === 0 ? { hang: true } : { status: 200 }));
    receiver.on('/reset', (attempt) => (attempt === 0 ? { reset: true } : { status: 200 }));
    const hang = await subscribe('/hang');
    const reset = await subscribe('/reset');
    const eventId = await changeStore();
    const [h, r] = await Promise.all([deliveryFor(hang.id, eventId), deliveryFor(reset.id, eventId)]);
    expect(h.status).to.equal('successful');
    expect(h.attempts[0]).to.include({ status: null, error: 'Webhook endpoint timed out after 1500 ms' });
    expect(r.status).to.equal('successful');
    expect(r.attempts[0].status).to.equal(null);
    expect(r.attempts[0].error).to.match(/^Webhook request failed: (ECONNRESET|socket hang up)/);
    await unsubscribe(hang.id);
    await unsubscribe(reset.id);
  });

  it('sends again after a worker is killed mid-send, and the receiver processes the event once', async () => {
    receiver.on('/slow', (attempt) => (attempt === 0 ? { hang: true } : { status: 200 }));
    const sub = await subscribe('/slow');
    const eventId = await changeStore();
    await until('the first send', async () => receiver.to('/slow').length > 0);
    worker.child.kill('SIGKILL');
    await worker.exited;
    worker = await startWorker();
    const delivery = await deliveryFor(sub.id, eventId);
    expect(delivery.status).to.equal('successful');
    expect(receiver.to('/slow').filter((r) => r.eventId === eventId).length).to.be.at.least(2);
    expect([...receiver.processed.get('/slow')!].filter((id) => id === eventId)).to.have.length(1);
    await unsubscribe(sub.id);
  });

  it('delivers a burst of events recorded at once, each exactly once, through a few wake-ups', async () => {
    const sub = await subscribe('/burst');
    const wakeUps = () =>
      worker
        .output()
        .split('\n')
        .filter((l) => l.includes('"path":"/webhook-deliveries/dispatch"')).length;
    const before = wakeUps();
    const burst = `burst-${Date.now()}`;
    const events = await Promise.all(
      Array.from({ length: 60 }, (_, i) => app.platform.events.emit('store.updated', as.storeId, { store: { id: as.storeId, i } }, `${burst}:${i}`)),
    );
    // The same keys again, at once: the events recorded first, nothing new.
    const again = await Promise.all(
      Array.from({ length: 60 }, (_, i) => app.platform.events.emit('store.updated', as.storeId, { store: { id: as.storeId, i } }, `${burst}:${i}`)),
    );
    expect(again.map((e) => e.id)).to.deep.equal(events.map((e) => e.id));
    await until('every event of the burst', async () => events.every((e) => receiver.to('/burst').some((r) => r.eventId === e.id)));
    await new Promise((r) => setTimeout(r, 300)); // a second copy would arrive by now
    const received = receiver.to('/burst').map((r) => r.eventId);
    expect(received).to.have.length(60);
    expect(new Set(received).size).to.equal(60);
    const wakes = wakeUps() - before;
    expect(wakes, 'wake-ups for 60 events').to.be.at.least(1).and.below(30);
    await unsubscribe(sub.id);
  });

  it('never sends a held delivery whose lease ran out and was claimed again, and gives back the leases of those not sent at shutdown', async () => {
    const sub = await subscribe('/fence');
    const later = (ms: number) => ({ ...app.platform, clock: { now: () => new Date(Date.now() + ms) } });
    const eventIds = [new ObjectId(), new ObjectId()];
    for (const id of eventIds) {
      await app.platform.db.collection('events').insertOne({
        _id: id,
        type: 'store.updated',
        store_id: new ObjectId(as.storeId),
        payload: { store: { id: as.storeId } },
        idempotency_key: `test:${id.toHexString()}`,
        created_at: new Date(),
      });
    }
    const held = await fanOutEvents(
      app.platform,
      eventIds.map((id) => id.toHexString()),
      'test-holder',
    );
    expect(held.map((h) => h.delivery.event_id.toHexString()).sort()).to.deep.equal(eventIds.map((id) => id.toHexString()).sort());
    // Ten seconds on, the first one's lease has run out and a sweep of the same process took it again.
    const [first, second] = held as [ClaimedDelivery, ClaimedDelivery];
    expect(await claimDelivery(later(10_000), 'test-holder', first.delivery._id.toHexString())).to.not.equal(null);
    expect(await sendClaimed(later(10_000), first, 'test-holder')).to.equal('lost_claim');
    expect(receiver.to('/fence')).to.have.length(0);
    // The second waits in a dispatcher that is stopped: its lease is given back, not left to expire.
    const dispatcher = createDispatcher(app.platform, 'test-holder', 0);
    dispatcher.hold([second]);
    await dispatcher.close();
    const released = await app.platform.db.collection('webhook_deliveries').findOne({ _id: second.delivery._id });
    // Given back (or, if the worker's sweep ran in between, already taken by the worker).
    if (released!.lease_owner === null) expect([released!.lease_until, released!.status]).to.deep.equal([null, 'queued']);
    else expect(released!.lease_owner).to.match(/^webhooks:/);
    // ...so the worker's sweep sends it, once.
    await until('the released delivery sent', async () => receiver.to('/fence').some((r) => r.eventId === second.delivery.event_id.toHexString()));
    await unsubscribe(sub.id);
  });

  it('delivers an event whose wake-up and job were lost: the sweeper fans it out', async () => {
    const sub = await subscribe('/ok-sweep');
    // An event written as a web process that died right after the insert would leave it.
    const id = new ObjectId();
    await app.platform.db.collection('events').insertOne({
      _id: id,
      type: 'store.updated',
      store_id: new ObjectId(as.storeId),
      payload: { store: { id: as.storeId } },
      idempotency_key: `test:${id.toHexString()}`,
      created_at: new Date(),
    });
    const delivery = await deliveryFor(sub.id, id.toHexString());
    expect(delivery.status).to.equal('successful');
    await unsubscribe(sub.id);
  });

  it('disables a subscription whose deliveries keep ending failed', async () => {
    receiver.on('/dead', () => ({ status: 500 }));
    const sub = await subscribe('/dead');
    await app.platform.db.collection('webhook_subscriptions').updateOne({ _id: new ObjectId(sub.id) }, { $set: { consecutive_failed_deliveries: 4 } });
    const eventId = await changeStore();
    expect((await deliveryFor(sub.id, eventId)).status).to.equal('failed');
    // The delivery is recorded first, then the subscription's count: wait for the second write.
    const s = await until('the subscription to be disabled', async () => {
      const view = (await api.get(`/v1/operations/webhook-subscriptions/${sub.id}`, as)).body.data;
      return view.active === false ? view : null;
    });
    expect(s).to.include({ active: false, disabled_reason: 'failing' });
  });

  it('serves the internal dispatch routes only with the internal secret, never under /v1', async () => {
    const url = `http://127.0.0.1:${internal.port}`;
    const post = (path: string, headers: Record<string, string>, body = '{}') =>
      fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post('/webhook-deliveries/dispatch', {})).status).to.equal(401);
    expect((await post('/webhook-deliveries/dispatch', { 'x-platform-internal-secret': 'wrong' })).status).to.equal(401);
    const ok = await post('/webhook-deliveries/dispatch', { 'x-platform-internal-secret': SECRET });
    expect(ok.status).to.equal(200);
    expect(((await ok.json()) as { data: Record<string, number> }).data).to.have.all.keys('fanned_out', 'claimed', 'successful', 'retry_scheduled', 'failed');
    expect((await post('/app-lifecycle/dispatch', { 'x-platform-internal-secret': SECRET })).status).to.equal(400); // event_ids required
    const lifecycle = await post(
      '/app-lifecycle/dispatch',
      { 'x-platform-internal-secret': SECRET },
      JSON.stringify({ event_ids: [new ObjectId().toHexString()] }),
    );
    expect(lifecycle.status).to.equal(200);
    expect(((await lifecycle.json()) as { data: Record<string, number> }).data).to.include({ events: 0, skipped: 1, claimed: 0 });
    expect((await post('/webhook-deliveries/dispatch', { 'x-platform-internal-secret': SECRET }, '{"delivery_ids":["x"]}')).status).to.equal(400);
    expect((await api.post('/v1/webhook-deliveries/dispatch', {}, { headers: { 'x-platform-internal-secret': SECRET } })).status).to.equal(404);

    const unconfiguredPort = await freePort();
    const bare = await startWorker('webhooks', { WEBHOOKS_INTERNAL_PORT: String(unconfiguredPort), INTERNAL_SECRET: '' });
    const res = await fetch(`http://127.0.0.1:${unconfiguredPort}/webhook-deliveries/dispatch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-platform-internal-secret': SECRET },
      body: '{}',
    });
    expect(res.status).to.equal(503);
    bare.child.kill('SIGTERM');
    expect((await bare.exited).code).to.equal(0);
  });

  it("keeps deliveries to each store: 404 for another store's delivery ids, 403 for a store the caller does not own", async () => {
    const sub = await subscribe('/ok-scoped');
    await deliveryFor(sub.id, await changeStore());
    const other = await givenMerchantWithStore(api);
    const theirs = { token: other.merchant.token, storeId: other.store.id };
    const mine = (await api.get('/v1/operations/webhook-deliveries?limit=1', as)).body.data[0];
    expect(mine, 'this store has a delivery').to.exist;
    expect((await api.get(`/v1/operations/webhook-deliveries/${mine.id}`, theirs)).status).to.equal(404);
    expect((await api.post(`/v1/operations/webhook-deliveries/${mine.id}/redeliver`, undefined, theirs)).status).to.equal(404);
    expect((await api.get('/v1/operations/webhook-deliveries', theirs)).body.data).to.deep.equal([]);
    expect((await api.get('/v1/operations/webhook-deliveries', { token: other.merchant.token, storeId: as.storeId })).status).to.equal(403);
    expect((await api.get('/v1/operations/webhook-deliveries?status=lost', as)).status).to.equal(400);
  });

  it('leaves nothing stuck: every delivery is successful exactly once at the receiver, or failed after its attempts', async () => {
    // Receivers that succeed, fail then succeed, always fail, and ask to wait; several events.
    receiver.on('/mixed-flaky', (attempt) => ({ status: attempt < 2 ? 500 : 200 }));
    receiver.on('/mixed-down', () => ({ status: 503 }));
    receiver.on('/mixed-busy', (attempt) => (attempt < 1 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200 }));
    for (const path of ['/mixed-ok', '/mixed-flaky', '/mixed-down', '/mixed-busy']) await subscribe(path);
    for (let i = 0; i < 4; i++) await changeStore(); // four: five failed in a row would disable /mixed-down
    const store = new ObjectId(as.storeId);
    const deliveries = app.platform.db.collection('webhook_deliveries');
    await until('16 deliveries, none queued', async () => {
      const [all, queued] = await Promise.all([
        deliveries.countDocuments({ store_id: store }),
        deliveries.countDocuments({ store_id: store, status: 'queued' }),
      ]);
      return all === 16 && queued === 0;
    });
    const all = await deliveries.find({ store_id: store }).toArray();
    expect(all).to.have.length(16);
    const subs = new Map(
      (await app.platform.db.collection('webhook_subscriptions').find({ store_id: store }).toArray()).map((s) => [
        s._id.toHexString(),
        new URL(s.target_url).pathname,
      ]),
    );
    for (const d of all) {
      const path = subs.get(d.subscription_id.toHexString())!;
      if (path === '/mixed-down') expect(d.status, path).to.equal('failed');
      else {
        expect(d.status, path).to.equal('successful');
        expect(receiver.processed.get(path)?.has(d.event_id.toHexString()), `${path} ${d.event_id}`).to.equal(true);
      }
    }
    expect(all.filter((d) => d.status === 'failed').every((d) => d.attempts.length === 9)).to.equal(true);
  });

  it('stops cleanly on SIGTERM', async () => {
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).to.equal(0);
  });
});

describe('Announcing events to the webhooks service (wake-up, or the fan-out job when it is not confirmed)', () => {
  const { app, api, receiver, workers, startWorker } = useWebhooksApp('webhooks_announce', {
    INTERNAL_SECRET: SECRET,
    JOBS_POLL_INTERVAL_MS: '100',
    // The sweeper must not be what delivers here: it runs once at start, then not for an hour;
    // and no subscription's catch-up window (interest.ts) is due at that first sweep.
    WEBHOOK_SWEEP_INTERVAL_MS: String(3_600_000),
    WEBHOOK_SUBSCRIPTION_CACHE_MS: '60000',
  });
  let as: { token: string; storeId: string };
  before(async () => {
    const { merchant, store } = await givenMerchantWithStore(api);
    as = { token: merchant.token, storeId: store.id };
  });

  const latestEventId = async () =>
    (await app.platform.db
      .collection('events')
      .find({ store_id: new ObjectId(as.storeId) })
      .sort({ _id: -1 })
      .limit(1)
      .next())!._id.toHexString();
  const fanOutJob = (eventId: string) => app.platform.db.collection('agendaJobs').findOne({ name: 'webhooks.fan-out-event', 'data.event_id': eventId });

  it('records an event no subscription wants as fanned out, with no wake-up and no fan-out job', async () => {
    // No subscription yet: the store's event is nobody's.
    expect((await api.patch(`/v1/stores/${as.storeId}`, { name: 'Before any subscription' }, as)).status).to.equal(200);
    const unsubscribed = await latestEventId();
    // A subscription to another family: an event of this type is still nobody's.
    await givenSubscription(api, as, { target_url: `${receiver.url}/customers`, event_types: ['customer.*'] });
    expect((await api.patch(`/v1/stores/${as.storeId}`, { name: 'Subscribed to customers only' }, as)).status).to.equal(200);
    const otherFamily = await latestEventId();
    expect(otherFamily).not.to.equal(unsubscribed);

    await new Promise((r) => setTimeout(r, 300)); // a job, had one been enqueued, would be there by now
    for (const eventId of [unsubscribed, otherFamily]) {
      const event = await app.platform.db.collection('events').findOne({ _id: new ObjectId(eventId) });
      expect(event!.fanned_out_at).to.be.instanceOf(Date);
      expect(event!.fanned_out_at.getTime()).to.equal(event!.created_at.getTime());
      expect(await fanOutJob(eventId)).to.equal(null);
    }
    expect(await app.platform.db.collection('webhook_deliveries').countDocuments({ store_id: new ObjectId(as.storeId) })).to.equal(0);
  });

  it('enqueues the fan-out job when the webhooks service cannot be woken, and a worker started later delivers the event', async () => {
    await givenSubscriptionTo(api, as, receiver, '/later', ['store.updated']);
    // Nothing listens on the internal port yet: the wake-up is refused.
    expect((await api.patch(`/v1/stores/${as.storeId}`, { name: 'While the webhooks worker is down' }, as)).status).to.equal(200);
    const eventId = await latestEventId();
    const job = await until('the fan-out job', () => fanOutJob(eventId));
    expect(job.data).to.deep.equal({ event_id: eventId });
    expect(receiver.to('/later')).to.have.length(0);

    // The worker's sweeper runs once when it starts and would deliver the event too: hold the
    // job back and hide the event from that first sweep, so that only the job can deliver it.
    const events = app.platform.db.collection('events');
    const jobs = app.platform.db.collection('agendaJobs');
    await jobs.updateOne({ _id: job._id }, { $set: { nextRunAt: new Date(Date.now() + 3_600_000) } });
    await events.updateOne({ _id: new ObjectId(eventId) }, { $set: { fanned_out_at: new Date(0) } });
    // That first sweep finds nothing, which a worker logs at debug.
    const worker = await startWorker('webhooks', { LOG_LEVEL: 'debug' }, '"event":"job.finished","job":"webhooks.sweep"');
    await events.updateOne({ _id: new ObjectId(eventId) }, { $set: { fanned_out_at: null } });
    await jobs.updateOne({ _id: job._id }, { $set: { nextRunAt: new Date() } });

    await until('the event at the receiver', async () => receiver.to('/later').find((r) => r.eventId === eventId) ?? null);
    // The job's own log line comes after its send: wait for it rather than race it.
    const finished = new RegExp(`"event":"job.finished","job":"webhooks.fan-out-event"[^\\n]*"event_id":"${eventId}"[^\\n]*"deliveries":1`);
    await until('the fan-out job to finish, having created the delivery', async () => finished.test(worker.output()) || null);
    expect(
      receiver
        .to('/later')
        .filter((r) => r.eventId === eventId)
        .map((r) => r.verified),
    ).to.deep.equal([true]);
  });

  it('enqueues no fan-out job when the wake-up is answered: the service fanned the event out and sent it', async () => {
    expect(workers).to.have.length(1);
    await workers[0]!.waitFor('"event":"webhooks.internal_listening"');
    expect((await api.patch(`/v1/stores/${as.storeId}`, { name: 'With the webhooks worker up' }, as)).status).to.equal(200);
    const eventId = await latestEventId();
    await until('the event at the receiver', async () => receiver.to('/later').find((r) => r.eventId === eventId) ?? null);
    // The announcement settles after the wake-up's answer; give it a moment, then look.
    await new Promise((r) => setTimeout(r, 300));
    expect(await fanOutJob(eventId)).to.equal(null);
    expect(workers[0]!.output()).not.to.match(new RegExp(`"job":"webhooks.fan-out-event"[^\\n]*"event_id":"${eventId}"`));
  });
});

describe("Remembered subscriptions (a process trusts its read of a store's subscriptions for a while; the sweeper catches up)", () => {
  let app: TestApp;
  let api: Client;
  let as: { token: string; storeId: string; merchantId: string };
  let receiver: WebhookReceiver;
  const workers: RunningProcess[] = [];

  before(async () => {
    receiver = await new WebhookReceiver().start();
    // This web process remembers a store's subscriptions for a minute.
    app = await startTestApp('webhooks_interest', { INTERNAL_SECRET: SECRET, WEBHOOK_SUBSCRIPTION_CACHE_MS: '60000', JOBS_POLL_INTERVAL_MS: '100' });
    api = client(app.url);
    const { merchant, store } = await givenMerchantWithStore(api);
    as = { token: merchant.token, storeId: store.id, merchantId: merchant.id };
  });
  after(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await receiver.close();
    await app.close();
  });

  const latestEvent = async () =>
    (await app.platform.db
      .collection('events')
      .find({ store_id: new ObjectId(as.storeId) })
      .sort({ _id: -1 })
      .limit(1)
      .next())!;

  it('delivers an event recorded by a process that did not know of a subscription created elsewhere a moment before', async () => {
    // The web process reads the store's subscriptions (none) and remembers that.
    expect((await api.patch(`/v1/stores/${as.storeId}`, { name: 'Before the subscription' }, as)).status).to.equal(200);
    const before = await latestEvent();
    expect(before.fanned_out_at.getTime()).to.equal(before.created_at.getTime());

    // Another process (a second web process, say) creates a subscription to store.updated.
    const other = await openPlatform(loadConfig(app.childEnv({ WEBHOOK_SUBSCRIPTION_CACHE_MS: '0' })), 'web', { log: createLog('warn', {}) });
    let subscriptionId: string;
    try {
      const sub = await createSubscription(
        other.platform,
        as.storeId,
        { type: 'merchant', id: as.merchantId },
        { target_url: `${receiver.url}/late`, event_types: ['store.updated'], active: true, description: null },
      );
      subscriptionId = sub.id;
      receiver.expectSecret('/late', sub.secret);
    } finally {
      await other.close();
    }
    const stored = await app.platform.db.collection('webhook_subscriptions').findOne({ _id: new ObjectId(subscriptionId) });
    expect(stored!.catch_up_from).to.be.instanceOf(Date);
    expect(stored!.catch_up_due.getTime() - stored!.catch_up_from.getTime()).to.equal(1000); // cache 0 + the margin

    // This process still trusts its old read: the event is recorded as nobody's, nothing is sent.
    expect((await api.patch(`/v1/stores/${as.storeId}`, { name: 'After the subscription' }, as)).status).to.equal(200);
    const after = await latestEvent();
    expect(after.fanned_out_at.getTime()).to.equal(after.created_at.getTime());
    expect(await app.platform.db.collection('webhook_deliveries').countDocuments({ event_id: after._id })).to.equal(0);

    // The webhooks sweeper closes the subscription's catch-up window: the event is delivered, once.
    const worker = runProcfileProcess('webhooks', app.childEnv({ WEBHOOKS_INTERNAL_PORT: '0', WEBHOOK_SWEEP_INTERVAL_MS: '300' }));
    workers.push(worker);
    await until('the event at the receiver', async () => receiver.to('/late').find((r) => r.eventId === after._id.toHexString()) ?? null);
    await until('the catch-up window to be closed', async () => {
      const doc = await app.platform.db.collection('webhook_subscriptions').findOne({ _id: new ObjectId(subscriptionId) });
      return doc && !('catch_up_due' in doc) && !('catch_up_from' in doc);
    });
    await new Promise((r) => setTimeout(r, 700)); // two more sweeps: nothing is sent again
    expect(receiver.to('/late').map((r) => [r.eventId, r.verified])).to.deep.equal([[after._id.toHexString(), true]]);
    expect(await app.platform.db.collection('webhook_deliveries').countDocuments({ subscription_id: new ObjectId(subscriptionId) })).to.equal(1);
  });
});
