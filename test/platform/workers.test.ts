import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ObjectId } from 'mongodb';
import { readProcfile } from '../../src/dev/procfile.js';
import { DeliverMessage } from '../../src/messages/index.js';
import { InvalidJobPayload } from '../../src/queue.js';
import { ROOT } from '../../src/localdb/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { runCommand, runProcfileProcess, type RunningProcess, startWorker, stopAll, WORKER_STARTED } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';

type Relay = { url: string; requests: { headers: IncomingMessage['headers']; body: any }[]; close(): Promise<void> };

/** A stand-in for an email relay: a real local HTTP server recording what it receives. */
async function startRelay(delayMs = 0, status = 202): Promise<Relay> {
  const requests: Relay['requests'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: JSON.parse(raw) });
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('Worker processes (Procfile)', () => {
  const { app, api } = useTestApp('workers');
  const running: RunningProcess[] = [];
  const start = (name: string, env: Record<string, string> = {}) => {
    const p = runProcfileProcess(name, app.childEnv(env));
    running.push(p);
    return p;
  };
  afterEach(() => stopAll(running));

  it('the Procfile names the web process and the five worker groups', () => {
    expect(readProcfile(ROOT).map((p) => p.name)).to.deep.equal(['web', 'webhooks', 'bulk', 'themes', 'extensions', 'maintenance']);
  });

  it('a webhooks worker runs the delivery job the web side enqueued, and stops cleanly on SIGTERM', async () => {
    const worker = await startWorker(app, 'webhooks', running);
    const m = await givenMerchant(api);
    expect((await api.post('/v1/auth/signin/otp', { email: m.email })).status).to.equal(202);

    const message = await until('the message to be delivered', () =>
      app.platform.db.collection('outbound_messages').findOne({ to: m.email, status: 'delivered' }),
    );
    expect(message.transport).to.equal('outbox');
    const id = message._id.toHexString();
    // The worker logs job.finished after the delivery's write: wait for that line, not the first one of the job.
    await worker.waitFor(`"event":"job.finished","job":"messages.deliver"`);
    expect(worker.output()).to.match(new RegExp(`"event":"job.started","job":"messages.deliver","job_id":"[0-9a-f]{24}","message_id":"${id}"`));
    expect(worker.output()).to.match(new RegExp(`"event":"job.finished".*"message_id":"${id}","outcome":"succeeded","duration_ms":\\d+`));

    worker.child.kill('SIGTERM');
    const { code } = await worker.exited;
    expect(code).to.equal(0);
    expect(worker.output()).to.include('"event":"worker.stopped"');
  });

  it('delivers through the message relay when one is configured, then forgets the body', async () => {
    const relay = await startRelay();
    try {
      const worker = await startWorker(app, 'webhooks', running, { MESSAGE_RELAY_URL: relay.url, MESSAGE_RELAY_TOKEN: 'relay-token-for-tests-1234' });
      const m = await givenMerchant(api);
      await api.post('/v1/auth/password/reset', { email: m.email });
      await until('the relay to receive the message', async () => relay.requests.length > 0);
      const [request] = relay.requests;
      expect(request!.headers.authorization).to.equal('Bearer relay-token-for-tests-1234');
      expect(request!.body).to.include({ kind: 'password_reset', to: m.email });
      expect(request!.body.text).to.match(/emp_reset_/);
      expect(request!.headers['idempotency-key']).to.equal(request!.body.message_id);
      const stored = await until('the message to be marked delivered', () =>
        app.platform.db.collection('outbound_messages').findOne({ _id: new ObjectId(request!.body.message_id as string), status: 'delivered' }),
      );
      expect(stored.transport).to.equal('relay');
      expect(stored.body_encrypted).to.equal(null);

      // A store's email to its customer comes from the store's sender (docs/stores.md, email_sender).
      const shop = await givenMerchantWithStore(api);
      const sender = { name: 'Corner Shop', email: 'hello@corner.example' };
      expect((await api.patch(`/v1/stores/${shop.store.id}`, { email_sender: sender }, { token: shop.merchant.token })).status).to.equal(200);
      const customer = await givenCustomer(api, shop.as);
      expect((await api.post(`/v1/customers/${customer.id}/invite`, {}, shop.as)).status).to.equal(202);
      const invite = await until('the relay to receive the invitation', async () => relay.requests.find((r) => r.body.kind === 'account_invite'));
      expect(invite.body).to.deep.include({ to: customer.email, from: sender });
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code).to.equal(0);
    } finally {
      await relay.close();
    }
  });

  it('records a relay failure and schedules the next attempt with backoff', async () => {
    const relay = await startRelay(0, 500);
    try {
      const worker = await startWorker(app, 'webhooks', running, { MESSAGE_RELAY_URL: relay.url, MESSAGE_RELAY_TOKEN: 'relay-token-for-tests-1234' });
      const m = await givenMerchant(api);
      const before = Date.now();
      await api.post('/v1/auth/signin/otp', { email: m.email });
      const failed = await until('the failed attempt to be recorded', () =>
        app.platform.db.collection('outbound_messages').findOne({ to: m.email, last_error: { $ne: null } }),
      );
      const seen = Date.now();
      expect(failed).to.include({ status: 'queued', attempts: 1, last_error: 'message relay answered HTTP 500' });
      expect(failed.body_encrypted, 'the body is kept for the retry').to.be.a('string');
      // 30 s after the failure, which came between the sign-in and the test seeing it (however long that took).
      expect(failed.next_attempt_at.getTime()).to.be.within(before + 30_000, seen + 30_000);
      // The worker records the failure, then schedules the retry job: wait for the second write.
      const retry = await until('a retry job to be scheduled', () =>
        app.platform.db
          .collection('agendaJobs')
          .findOne({ name: 'messages.deliver', 'data.message_id': failed._id.toHexString(), nextRunAt: { $gt: new Date() } }),
      );
      expect(retry.nextRunAt.getTime()).to.equal(failed.next_attempt_at.getTime());
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code).to.equal(0);
    } finally {
      await relay.close();
    }
  });

  it('checks a payload against its contract when enqueued, and a stored payload that fails it is recorded as failed, not retried', async () => {
    const jobs = app.platform.db.collection('agendaJobs');
    let refused: unknown = null;
    await app.platform.jobs.enqueue(DeliverMessage, { message_id: 'not-an-id' }).catch((err: unknown) => (refused = err));
    expect(refused).to.be.instanceOf(InvalidJobPayload);
    expect((refused as Error).message).to.match(/^payload does not match messages.deliver: message_id: must be a message id/);
    expect(await jobs.countDocuments({ 'data.message_id': 'not-an-id' }), 'nothing was stored').to.equal(0);

    // A payload stored by hand (or by an older release) that the contract refuses.
    const id = await app.platform.jobs.enqueue(DeliverMessage, { message_id: new ObjectId().toHexString() });
    await jobs.updateOne({ _id: new ObjectId(id) }, { $set: { data: { message_id: 42 } } });
    const worker = start('webhooks', { JOBS_POLL_INTERVAL_MS: '200' });
    await worker.waitFor('"outcome":"failed","reason":"invalid_payload"');
    const failed = await until('the failure to be recorded', () => jobs.findOne({ _id: new ObjectId(id), failCount: 1 }));
    expect(failed.failReason).to.match(/^payload does not match messages.deliver: message_id: /);
    await new Promise((r) => setTimeout(r, 1000)); // five polls
    expect(await jobs.findOne({ _id: new ObjectId(id) })).to.include({ failCount: 1 });
    expect(worker.output().match(/"event":"job.started","job":"messages.deliver","job_id":"[0-9a-f]+","message_id":42/g)).to.have.length(1);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).to.equal(0);
  });

  it('drains a running job before exiting on SIGTERM', async () => {
    const relay = await startRelay(1500);
    try {
      const worker = await startWorker(app, 'webhooks', running, { MESSAGE_RELAY_URL: relay.url, MESSAGE_RELAY_TOKEN: 'relay-token-for-tests-1234' });
      const m = await givenMerchant(api);
      await api.post('/v1/auth/signin/otp', { email: m.email });
      await worker.waitFor('"event":"job.started","job":"messages.deliver"');
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code).to.equal(0);
      const out = worker.output();
      const stopping = out.indexOf('"event":"worker.stopping"');
      const finished = out.indexOf('"event":"job.finished","job":"messages.deliver"');
      const stopped = out.indexOf('"event":"worker.stopped"');
      expect(stopping).to.be.greaterThan(-1);
      expect(finished, 'the job finished during the drain').to.be.greaterThan(stopping);
      expect(stopped).to.be.greaterThan(finished);
      // The drain ends when the job has (Agenda 6.2.6's own drain waited out the whole grace period).
      expect(out.slice(stopped)).to.match(/"still_running":0,"timed_out":false/);
      expect(await app.platform.db.collection('outbound_messages').countDocuments({ to: m.email, status: 'delivered' })).to.equal(1);
    } finally {
      await relay.close();
    }
  });

  it('the maintenance worker sweeps expired sessions, codes, reset tokens, idempotency records and rate-limit windows', async () => {
    const db = app.platform.db;
    const m = await givenMerchant(api);
    const live = await givenMerchant(api);
    await api.post('/v1/auth/signin/otp', { email: m.email });
    await api.post('/v1/auth/password/reset', { email: m.email });
    await api.post('/v1/stores', { name: 'Swept', subdomain: 'swept-store' }, { token: m.token, headers: { 'idempotency-key': 'sweep-me' } });
    const past = new Date(Date.now() - 60_000);
    const merchantId = new ObjectId(m.id);
    await db.collection('sessions').updateMany({ merchant_id: merchantId }, { $set: { expires_at: past } });
    await db.collection('signin_codes').updateMany({ merchant_id: merchantId }, { $set: { expires_at: past } });
    await db.collection('password_resets').updateMany({ merchant_id: merchantId }, { $set: { expires_at: past } });
    await db.collection('idempotency_records').updateMany({}, { $set: { expires_at: past } });
    await db.collection('rate_limits').updateMany({}, { $set: { expires_at: past } });

    const worker = start('maintenance', { MAINTENANCE_SWEEP_INTERVAL_MS: '500' });
    await until('the sweeps to empty the expired records', async () => {
      const left = await Promise.all([
        db.collection('sessions').countDocuments({ merchant_id: merchantId }),
        db.collection('signin_codes').countDocuments({ merchant_id: merchantId }),
        db.collection('password_resets').countDocuments({ merchant_id: merchantId }),
        db.collection('idempotency_records').countDocuments({}),
        db.collection('rate_limits').countDocuments({}),
      ]);
      return left.every((n) => n === 0);
    });
    expect(await db.collection('sessions').countDocuments({ merchant_id: new ObjectId(live.id) })).to.equal(1);
    expect((await api.get('/v1/auth/custom/session', { token: live.token })).status).to.equal(200);
    // The sweep logs job.finished after its deletes: under load the line can come after they show.
    const swept = /"event":"job.finished","job":"maintenance.sweep-expired-credentials".*"outcome":"succeeded".*"result":\{"affected":[1-9]/;
    await until('the sweep to log its result', async () => swept.test(worker.output()));
    expect(worker.output()).to.match(swept);
    // Its sweeps run before it has said it started (and listens for SIGTERM): wait for that line.
    await worker.waitFor(WORKER_STARTED);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).to.equal(0);
  });

  it('every process exits 1 with one clear line when the database cannot be reached', async () => {
    const env = { MONGODB_URL: 'mongodb://127.0.0.1:1/', MONGODB_CONNECT_TIMEOUT_MS: '300' };
    const processes = readProcfile(ROOT).map((p) => ({ name: p.name, proc: start(p.name, env) }));
    for (const { name, proc } of processes) {
      const { code } = await proc.exited;
      expect(code, name).to.equal(1);
      const lines = proc.output().trim().split('\n');
      expect(lines, `${name}: ${proc.output()}`).to.have.length(1);
      expect(lines[0]).to.match(new RegExp(`^emporium (web|worker:${name}): cannot reach the database at mongodb://127.0.0.1:1/`));
    }
  });

  it('a process with invalid configuration lists every problem and exits 1', async () => {
    const proc = runCommand('node', ['dist/src/web.js'], app.childEnv({ APP_ENV: 'prod', PORT: 'eighty', MESSAGE_RELAY_URL: 'ftp://x' }));
    expect((await proc.exited).code).to.equal(1);
    expect(proc.output()).to.include('Invalid configuration');
    expect(proc.output()).to.match(/APP_ENV: /);
    expect(proc.output()).to.match(/PORT: /);
    expect(proc.output()).to.match(/MESSAGE_RELAY_URL: /);
  });

  it('a production process refuses to start without its secrets', async () => {
    const proc = runCommand('node', ['dist/src/worker.js', '--jobs', 'maintenance'], app.childEnv({ APP_ENV: 'production' }));
    expect((await proc.exited).code).to.equal(1);
    expect(proc.output()).to.match(/SECRETS_KEYS: is required when APP_ENV is production/);
    expect(proc.output()).to.match(/SMTP_URL: or MESSAGE_RELAY_URL is required in production/);
  });

  it('a worker with an unknown group exits 1 naming the groups', async () => {
    const proc = runCommand('node', ['dist/src/worker.js', '--jobs', 'payments'], app.childEnv());
    expect((await proc.exited).code).to.equal(1);
    expect(proc.output()).to.match(/--jobs must be one of webhooks, bulk, themes, extensions, maintenance/);
  });
});
