import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { sweepProcesses } from '../../src/operations/index.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { stopAll, type RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-runtime@example.com';
const BEAT_MS = 200;

/**
 * The operators' runtime overview (docs/operations.md): real worker processes heartbeat into the
 * database; the overview shows each group's processes alive, gone (killed) or stopped (SIGTERM),
 * the queues by job name and state from Agenda's collection, the event outbox's backlog and each
 * module's work in flight; operators only. And the readiness probe.
 */
describe('Operations: the runtime overview and the readiness probe', () => {
  const { app, api, startWorker } = useWebhooksApp('operations_overview', {
    OPERATOR_EMAILS: OPERATOR,
    HEARTBEAT_INTERVAL_MS: String(BEAT_MS),
    JOBS_POLL_INTERVAL_MS: '100',
  });
  const workers: RunningProcess[] = [];
  after(() => stopAll(workers));

  let operator: string;
  let shop: GivenMerchantWithStore;
  before(async () => {
    operator = (await givenMerchant(api, { email: OPERATOR })).token;
    shop = await givenMerchantWithStore(api);
  });
  const overview = async () => {
    const res = await api.get('/v1/operations/runtime/overview', { token: operator });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };
  const group = (o: any, name: string) => o.processes.groups.find((g: any) => g.group === name);

  it('shows a worker alive while it beats, gone once killed (an incident’s cue), and alive again when one comes back; stopped after a SIGTERM', async () => {
    const before = await overview();
    expect(group(before, 'themes')).to.include({ alive: 0 });
    expect(before.processes.groups_without_a_process).to.include('themes');

    const first = await startWorker('themes');
    workers.push(first);
    let o = await overview();
    const row = group(o, 'themes').processes.find((p: any) => p.pid === first.child.pid);
    expect(row).to.include({ state: 'alive', group: 'themes', jobs_running: 0, stopped_at: null });
    expect(row.version).to.be.a('string');
    expect(row.id).to.match(/^themes:/);
    expect(o.processes.groups_without_a_process).to.not.include('themes');

    first.child.kill('SIGKILL');
    await first.exited;
    o = await until('the killed worker to be shown gone', async () => {
      const now = await overview();
      return group(now, 'themes').gone === 1 ? now : null;
    });
    expect(group(o, 'themes')).to.include({ alive: 0, gone: 1 });
    expect(o.processes.groups_without_a_process).to.include('themes');
    const gate = async () => {
      const res = await api.post('/v1/operations/runtime/deployment-health-gates', { checks: ['worker_groups'] }, { token: operator });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data;
    };
    const down = await gate();
    expect(down.verdict).to.equal('failed');
    expect(down.checks[0].detail).to.match(/no live process in: .*themes/);

    const second = await startWorker('themes');
    workers.push(second);
    o = await overview();
    expect(group(o, 'themes')).to.include({ alive: 1, gone: 1 });
    expect(o.processes.groups_without_a_process).to.not.include('themes');
    expect((await gate()).checks[0].detail).to.not.match(/themes/);

    second.child.kill('SIGTERM');
    await second.exited;
    o = await overview();
    expect(group(o, 'themes').processes.find((p: any) => p.pid === second.child.pid)).to.include({ state: 'stopped' });
    expect(group(o, 'themes').alive).to.equal(0);
  });

  it('counts the queues by job name and state with their group and the oldest due job’s lag; a job that failed stays failed', async () => {
    // A bulk operation with no bulk worker running: its export is due, and the operation in flight.
    const started = await api.post('/v1/bulk-operations', { query: '{ products { nodes { id } } }' }, shop.as);
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    // A job whose payload no longer matches its contract (written by an older release): it fails once run.
    const jobs = app.platform.db.collection('agendaJobs');
    await jobs.insertOne({
      name: 'bulk.export',
      data: { operation_id: 'not-an-id' },
      type: 'normal',
      priority: 0,
      nextRunAt: new Date(Date.now() - 5000),
      lockedAt: null,
    });
    let o = await overview();
    const bulk = o.queues.find((q: any) => q.name === 'bulk.export');
    expect(bulk).to.include({ group: 'bulk', due: 2, running: 0, failed: 0 });
    expect(bulk.lag_seconds).to.be.at.least(4);
    expect(o.oldest_due_job).to.include({ name: 'bulk.export', group: 'bulk' });
    expect(o.work_in_flight.bulk_operations).to.include({ created: 1 });
    expect(o.processes.groups_without_a_process).to.include('bulk');

    const bulkWorker = await startWorker('bulk');
    workers.push(bulkWorker);
    o = await until('the bulk jobs to have run', async () => {
      const now = await overview();
      const q = now.queues.find((x: any) => x.name === 'bulk.export');
      return q && q.due === 0 && q.running === 0 ? now : null;
    });
    expect(o.queues.find((q: any) => q.name === 'bulk.export')).to.include({ failed: 1 });
    // Its recurring sweep is scheduled.
    const sweep = o.queues.find((q: any) => q.name === 'bulk.sweep');
    expect(sweep).to.include({ group: 'bulk', failed: 0 });
    expect(sweep.scheduled + sweep.due + sweep.running, 'one sweep, between runs or at its time').to.equal(1);
    await until('the operation to finish', async () => (await overview()).work_in_flight.bulk_operations.created === 0);
    await stopAll(workers);
  });

  it('shows the event outbox’s backlog: documents still carrying events past the settle delay, by collection', async () => {
    const carried = new ObjectId();
    const since = new Date(Date.now() - 60_000);
    await app.platform.db.collection('bulk_operations').insertOne({
      _id: carried,
      store_id: new ObjectId(),
      running_key: carried.toHexString(),
      status: 'expired',
      pending_events: [],
      events_pending_since: since,
    });
    const o = await overview();
    expect(o.events_outbox.documents).to.be.at.least(1);
    expect(o.events_outbox.by_collection.find((c: any) => c.collection === 'bulk_operations')).to.include({ documents: 1, oldest: since.toISOString() });
    expect(o.events_outbox.oldest_age_seconds).to.be.at.least(59);
    expect(o.work_in_flight).to.have.keys('bulk_operations', 'theme_reviews', 'webhook_deliveries', 'outbound_messages');
    expect(o).to.include({ environment: 'test' });
    await app.platform.db.collection('bulk_operations').deleteOne({ _id: carried });
  });

  it('is for operators only: 401 without credentials, 403 for a merchant, an app and a customer', async () => {
    const path = '/v1/operations/runtime/overview';
    expect((await api.get(path)).status).to.equal(401);
    const merchant = await api.get(path, shop.as);
    expect(merchant.status).to.equal(403);
    expect(merchant.body.error.code).to.equal('operator_required');
    const { appToken, customerToken } = await givenAppAndCustomer(api, operator, shop);
    expect((await api.get(path, { token: appToken })).status).to.be.oneOf([401, 403]);
    expect((await api.get(path, { token: customerToken })).status).to.be.oneOf([401, 403]);
    expect((await api.post(path, {}, { token: operator })).status).to.be.oneOf([404, 405]);
  });

  it('reports what is not fit for production here, an item each: the local driver, no replica set, plain-http targets, a missing index', async () => {
    const report = async () => {
      const res = await api.get('/v1/operations/runtime/readiness-report', { token: operator });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data;
    };
    const first = await report();
    const byCheck = (r: any) => Object.fromEntries(r.items.map((i: any) => [i.check, i]));
    expect(Object.keys(byCheck(first))).to.deep.equal([
      'secrets_key',
      'internal_secret',
      'message_relay',
      'storage',
      'webhook_targets',
      'database_replica_set',
      'indexes',
      'worker_groups',
      'operations_recording',
    ]);
    expect(first).to.include({ status: 'fail', environment: 'test' });
    expect(byCheck(first).operations_recording).to.include({ status: 'pass' });
    expect(byCheck(first).storage).to.include({ status: 'fail' });
    expect(byCheck(first).database_replica_set).to.include({ status: 'fail' });
    expect(byCheck(first).webhook_targets).to.include({ status: 'fail' });
    expect(byCheck(first).indexes).to.include({ status: 'pass' });
    expect(byCheck(first).worker_groups.detail).to.match(/no live process in: .*extensions/);
    await app.platform.db.collection('processes').dropIndex('last_beat_at');
    const missing = byCheck(await report()).indexes;
    expect(missing).to.deep.equal({ check: 'indexes', status: 'fail', detail: 'missing: processes.last_beat_at' });
    await app.platform.db.collection('processes').createIndex({ last_beat_at: -1 }, { name: 'last_beat_at' });
    expect(byCheck(await report()).indexes.status).to.equal('pass');
    expect((await api.get('/v1/operations/runtime/readiness-report', shop.as)).status).to.equal(403);
  });

  it('runs a deployment health gate: each check measured against its threshold, the verdict kept; a lagging queue fails it', async () => {
    const run = (body: unknown) => api.post('/v1/operations/runtime/deployment-health-gates', body, { token: operator });
    const all = await run({ label: 'release 1' });
    expect(all.status, JSON.stringify(all.body)).to.equal(201);
    expect(all.body.data.checks.map((c: any) => c.name)).to.deep.equal([
      'database_read',
      'database_write',
      'indexes',
      'worker_groups',
      'queue_lag',
      'outbox_backlog',
      'failed_jobs',
      'webhook_failure_rate',
      'storage',
    ]);
    const byName = Object.fromEntries(all.body.data.checks.map((c: any) => [c.name, c]));
    for (const name of ['database_read', 'database_write', 'indexes', 'storage']) expect(byName[name].status, name).to.equal('passed');
    expect(byName.database_read).to.include({ threshold: 1000 });
    expect(byName.database_read.value).to.be.a('number');
    expect(all.body.data).to.include({ label: 'release 1', verdict: 'failed' }); // the worker groups have no process here

    const healthy = await run({ checks: ['database_read', 'database_write', 'indexes', 'storage', 'queue_lag'] });
    expect(healthy.body.data.verdict, JSON.stringify(healthy.body.data.checks)).to.equal('passed');

    const late = await app.platform.db
      .collection('agendaJobs')
      .insertOne({ name: 'themes.review', data: {}, type: 'normal', priority: 0, nextRunAt: new Date(Date.now() - 600_000), lockedAt: null });
    const lagging = await run({ checks: ['queue_lag'], thresholds: { queue_lag_seconds: 60 } });
    expect(lagging.body.data.verdict).to.equal('failed');
    expect(lagging.body.data.checks[0]).to.include({ name: 'queue_lag', status: 'failed', threshold: 60 });
    expect(lagging.body.data.checks[0].value).to.be.at.least(600);
    expect(lagging.body.data.checks[0].detail).to.match(/themes\.review/);
    await app.platform.db.collection('agendaJobs').deleteOne({ _id: late.insertedId });

    const read = await api.get(`/v1/operations/runtime/deployment-health-gates/${lagging.body.data.id}`, { token: operator });
    expect(read.body.data).to.deep.equal(lagging.body.data);
    const list = (await api.get('/v1/operations/runtime/deployment-health-gates?limit=2', { token: operator })).body.data;
    expect(list.map((g: any) => g.id)).to.deep.equal([lagging.body.data.id, healthy.body.data.id]);

    for (const bad of [{ checks: ['nope'] }, { checks: [] }, { thresholds: { queue_lag_seconds: -1 } }, { label: '' }, { other: 1 }])
      expect((await run(bad)).status, JSON.stringify(bad)).to.equal(400);
    expect((await api.post('/v1/operations/runtime/deployment-health-gates', {}, shop.as)).status).to.equal(403);
    expect((await api.get('/v1/operations/runtime/deployment-health-gates/nope', { token: operator })).status).to.equal(404);
  });

  it('forgets a process a week after its last beat (the maintenance sweep), not before', async () => {
    const rows = app.platform.db.collection('processes');
    const row = (id: string, daysAgo: number) => ({
      _id: id as never,
      group: 'themes',
      host: 'old-host',
      pid: 1,
      version: '0.0.1',
      environment: 'test',
      started_at: new Date(Date.now() - daysAgo * 86400_000),
      last_beat_at: new Date(Date.now() - daysAgo * 86400_000),
      jobs_running: 0,
      heartbeat_ms: BEAT_MS,
      stopped_at: null,
    });
    await rows.insertMany([row('themes:old-host:1', 8), row('themes:old-host:2', 6)]);
    expect(await sweepProcesses(app.platform)).to.equal(1);
    expect(await rows.countDocuments({ host: 'old-host' })).to.equal(1);
    await rows.deleteMany({ host: 'old-host' });
  });

  it('answers the readiness probe: 200 while the database and the queue answer', async () => {
    const res = await api.get('/ready');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ status: 'ready', database: 'ok', queue: 'ok' });
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });
});
