import { expect } from 'chai';
import { sweepCounters } from '../../src/operations/index.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import type { RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';
import { givenSubscriptionTo, renameStore, useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-incidents@example.com';

/**
 * Incidents, the runtime counters and their dashboards (docs/operations.md): a real maintenance
 * worker measures the incident rules; killing the themes group's only process opens an incident
 * (once), the overview shows it gone and the health gate fails; its return resolves the incident
 * and clears both. Requests, job runs and webhook attempts are counted by the processes that do
 * them, and read back as time series and failure rates.
 */
describe('Operations: incidents, counters and dashboards', () => {
  const { app, api, receiver, startWorker } = useWebhooksApp('operations_incidents', {
    OPERATOR_EMAILS: OPERATOR,
    HEARTBEAT_INTERVAL_MS: '200',
    JOBS_POLL_INTERVAL_MS: '100',
    INCIDENT_EVALUATION_INTERVAL_MS: '300',
    // A rule fails this long before its incident opens (test/operations/incident-grace.test.ts: the default's story).
    INCIDENT_GRACE_PERIOD_MS: '600',
    WEBHOOK_RETRY_BASE_SECONDS: '0.05',
    WEBHOOK_RETRY_CAP_SECONDS: '0.2',
    WEBHOOK_SWEEP_INTERVAL_MS: '300',
  });
  let operator: string;
  let shop: GivenMerchantWithStore;
  before(async () => {
    operator = (await givenMerchant(api, { email: OPERATOR })).token;
    shop = await givenMerchantWithStore(api);
    await startWorker('maintenance');
  });
  const get = async (path: string) => {
    const res = await api.get(`/v1/operations/runtime${path}`, { token: operator });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };
  const post = (path: string, body: unknown = {}) => api.post(`/v1/operations/runtime${path}`, body, { token: operator });
  const activeFor = async (rule: string) => get(`/incidents?status=active&rule=${encodeURIComponent(rule)}`);
  const themesGroup = (o: any) => o.processes.groups.find((g: any) => g.group === 'themes');
  const gate = async () => {
    const res = await post('/deployment-health-gates', { checks: ['worker_groups'] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.checks[0];
  };

  it('opens one incident when a worker group loses its only process, with the overview and the gate agreeing, and resolves it when the group is back', async () => {
    let themes: RunningProcess = await startWorker('themes');
    await until('no incident for the themes group while it runs', async () => (await activeFor('worker_group:themes')).length === 0);

    themes.child.kill('SIGKILL');
    await themes.exited;
    const [incident] = await until('an incident for the themes group', async () => {
      const found = await activeFor('worker_group:themes');
      return found.length ? found : null;
    });
    expect(incident).to.include({ rule: 'worker_group:themes', status: 'open', severity: 'critical', value: 0, threshold: 1 });
    expect(incident.opened_by).to.deep.equal({ type: 'platform' });
    expect(incident.timeline).to.have.length(1);
    expect(incident.timeline[0]).to.include({ kind: 'opened' });
    expect(incident.detail).to.match(/1 gone/);
    expect(incident.timeline[0].text).to.match(/: 1 gone, 0 stopped, none alive: its jobs wait \(failing since .+\)$/);
    const o = await get('/overview');
    expect(themesGroup(o)).to.include({ alive: 0, gone: 1 });
    expect(o.incidents.active).to.be.at.least(1);
    const down = await gate();
    expect(down.status).to.equal('failed');
    expect(down.detail).to.match(/themes/);
    // Evaluated again and again while it lasts: still one incident, measured anew.
    const checkedAt = incident.last_checked_at;
    await until('a later evaluation', async () => (await get(`/incidents/${incident.id}`)).last_checked_at !== checkedAt);
    expect(await activeFor('worker_group:themes')).to.have.length(1);

    themes = await startWorker('themes');
    const resolved = await until('the incident resolved by the platform', async () => {
      const now = await get(`/incidents/${incident.id}`);
      return now.status === 'resolved' ? now : null;
    });
    expect(resolved.resolved_at).to.be.a('string');
    expect(resolved.timeline.map((e: any) => e.kind)).to.deep.equal(['opened', 'resolved']);
    expect(resolved.timeline[1].actor).to.deep.equal({ type: 'platform' });
    expect(resolved.timeline[1].text).to.match(/^Recovered: 1 alive/);
    expect(themesGroup(await get('/overview')).alive).to.equal(1);
    expect((await gate()).detail).to.not.match(/themes/);

    // A new failure is a new incident (the rule's dedup ends with the resolution).
    themes.child.kill('SIGKILL');
    await themes.exited;
    const [again] = await until('a second incident', async () => {
      const found = await activeFor('worker_group:themes');
      return found.length ? found : null;
    });
    expect(again.id).to.not.equal(incident.id);
    // (The group had no process before this test's themes worker started: an incident opened then, once the grace ran out, was resolved by its start.)
    const all = await get('/incidents?rule=worker_group:themes');
    expect(all.slice(0, 2).map((i: any) => i.id)).to.deep.equal([again.id, incident.id]);
    expect(all.slice(1).every((i: any) => i.status === 'resolved')).to.equal(true);
  });

  it('lets an operator open, acknowledge, annotate and resolve an incident, each once, on its timeline', async () => {
    const opened = await post('/incidents', { title: 'Payments slow in eu-west', severity: 'critical', note: 'Seen by support' });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    const id = opened.body.data.id;
    expect(opened.body.data).to.include({ rule: null, status: 'open', severity: 'critical', title: 'Payments slow in eu-west' });
    expect(opened.body.data.opened_by.type).to.equal('operator');

    const ack = await post(`/incidents/${id}/acknowledge`, { note: 'Looking' });
    expect(ack.status).to.equal(200);
    expect(ack.body.data.status).to.equal('acknowledged');
    expect(ack.body.data.acknowledged_at).to.be.a('string');
    const twice = await post(`/incidents/${id}/acknowledge`);
    expect(twice.status).to.equal(409);
    expect(twice.body.error.code).to.equal('incident_not_open');

    expect((await post(`/incidents/${id}/notes`, { text: 'A provider outage' })).status).to.equal(201);
    const done = await post(`/incidents/${id}/resolve`, {});
    expect(done.status).to.equal(200);
    expect(done.body.data.status).to.equal('resolved');
    const again = await post(`/incidents/${id}/resolve`, {});
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('incident_resolved');
    const postMortem = await post(`/incidents/${id}/notes`, { text: 'Post-mortem: a provider outage' });
    expect(postMortem.status).to.equal(201);
    expect(postMortem.body.data.timeline.map((e: any) => e.kind)).to.deep.equal(['opened', 'acknowledged', 'note', 'resolved', 'note']);
    expect(postMortem.body.data.timeline.map((e: any) => e.text)).to.deep.equal([
      'Seen by support',
      'Looking',
      'A provider outage',
      'Resolved by an operator',
      'Post-mortem: a provider outage',
    ]);

    expect((await get('/incidents?status=resolved')).map((i: any) => i.id)).to.include(id);
    expect((await get('/incidents?status=active')).map((i: any) => i.id)).to.not.include(id);
    const page = await api.get('/v1/operations/runtime/incidents?limit=1', { token: operator });
    expect(page.body.data).to.have.length(1);

    for (const [path, body] of [
      ['/incidents', {}],
      ['/incidents', { title: '' }],
      ['/incidents', { title: 'x', severity: 'apocalyptic' }],
      ['/incidents', { title: 'x', other: 1 }],
      [`/incidents/${id}/notes`, {}],
      [`/incidents/${id}/notes`, { text: 'x'.repeat(2001) }],
      [`/incidents/${id}/acknowledge`, { note: 5 }],
    ] as const)
      expect((await post(path, body)).status, `${path} ${JSON.stringify(body)}`).to.equal(400);
    for (const bad of ['?status=closed', '?limit=0', '?cursor=nope', '?other=1'])
      expect((await api.get(`/v1/operations/runtime/incidents${bad}`, { token: operator })).status, bad).to.equal(400);
    expect((await post('/incidents/0123456789abcdef01234567/resolve')).status).to.equal(404);
    expect((await post('/incidents/nope/acknowledge')).status).to.equal(404);
    expect((await api.get('/v1/operations/runtime/incidents/nope', { token: operator })).status).to.equal(404);
  });

  it('counts requests, job runs and webhook attempts as they happen, and draws them as time series', async () => {
    await startWorker('webhooks');
    receiver.on('/down', () => ({ status: 500 }));
    const sub = await givenSubscriptionTo(api, shop.as, receiver, '/down', ['store.updated']);
    for (let i = 0; i < 3; i++) expect((await api.get('/v1/no-such-route')).status).to.equal(404);
    await renameStore(app, api, shop.as);

    const board = await until('the counters of the failing attempts, the 404s and the jobs to be written', async () => {
      const d = await get('/dashboards?window=15m');
      const series = Object.fromEntries(d.series.map((s: any) => [s.name, s]));
      const failedAttempts = series['webhooks.attempts'].lines.find((l: any) => l.labels.outcome === 'retry_scheduled');
      const notFound = series['http.requests'].lines.find((l: any) => l.labels.class === '4xx');
      const jobs = series['jobs.runs'].lines.find((l: any) => l.labels.name === 'maintenance.evaluate-incidents' && l.labels.outcome === 'succeeded');
      return failedAttempts?.total >= 2 && notFound?.total >= 3 && jobs?.total > 0 ? d : null;
    });
    expect(board).to.include({ window: '15m', step_seconds: 60, resolution: 'minute' });
    const requests = board.series.find((s: any) => s.name === 'http.requests');
    const ok = requests.lines.find((l: any) => l.labels.class === '2xx');
    expect(ok.points).to.have.length(15);
    expect(ok.total).to.equal(ok.points.reduce((sum: number, p: any) => sum + p.count, 0));
    expect(new Date(ok.points[14].at).getTime()).to.be.at.most(Date.now());

    const only = await get('/dashboards?window=24h&series=webhooks.attempts');
    expect(only).to.include({ resolution: 'hour', step_seconds: 3600 });
    expect(only.series.map((s: any) => s.name)).to.deep.equal(['webhooks.attempts']);
    expect(only.series[0].lines.find((l: any) => l.labels.outcome === 'retry_scheduled').total).to.be.at.least(2);

    const rate = (await get('/overview')).webhook_attempts.last_5_minutes;
    expect(rate.attempts).to.be.at.least(2);
    expect(rate.failed).to.equal(rate.attempts);
    expect(rate.failure_rate).to.equal(1);
    const judged = await post('/deployment-health-gates', { checks: ['webhook_failure_rate'], thresholds: { webhook_min_attempts: 2 } });
    expect(judged.body.data.checks[0]).to.include({ name: 'webhook_failure_rate', status: 'failed', value: 1, threshold: 0.25 });
    const tooFew = await post('/deployment-health-gates', { checks: ['webhook_failure_rate'], thresholds: { webhook_min_attempts: 100_000 } });
    expect(tooFew.body.data.checks[0].status).to.equal('passed');
    expect(tooFew.body.data.checks[0].detail).to.match(/too few to judge/);
    await api.patch(`/v1/operations/webhook-subscriptions/${sub.id}`, { active: false }, shop.as);

    for (const bad of ['?window=2h', '?series=nope', '?series=', '?other=1'])
      expect((await api.get(`/v1/operations/runtime/dashboards${bad}`, { token: operator })).status, bad).to.equal(400);
  });

  it('keeps minute counters 48 hours and hour counters 30 days (the maintenance sweep)', async () => {
    const counters = app.platform.db.collection('runtime_counters');
    const now = Date.now();
    const doc = (resolution: string, hoursAgo: number) => ({
      _id: `${resolution[0]}|${now - hoursAgo * 3_600_000}|jobs.runs|test=${hoursAgo}` as any,
      series: 'jobs.runs',
      labels: `test=${hoursAgo}`,
      resolution,
      at: new Date(now - hoursAgo * 3_600_000),
      count: 1,
    });
    const docs = [doc('minute', 47), doc('minute', 49), doc('hour', 29 * 24), doc('hour', 31 * 24)];
    await counters.insertMany(docs);
    expect(await sweepCounters(app.platform)).to.be.at.least(2);
    const left = (await counters.find({ _id: { $in: docs.map((d) => d._id) } }).toArray()).map((d) => d._id).sort();
    expect(left).to.deep.equal([docs[2]!._id, docs[0]!._id].sort());
  });

  it('is for operators only: 401 without credentials, 403 for a merchant, an app and a customer', async () => {
    const { appToken, customerToken } = await givenAppAndCustomer(api, operator, shop);
    const callers = [
      { name: 'nobody', token: undefined, status: 401 },
      { name: 'a merchant', token: shop.as.token, status: 403 },
      { name: 'an app', token: appToken, status: 403 },
      { name: 'a customer', token: customerToken, status: 403 },
    ];
    const routes: [string, string, unknown?][] = [
      ['get', '/incidents'],
      ['post', '/incidents', { title: 'x' }],
      ['get', '/incidents/0123456789abcdef01234567'],
      ['post', '/incidents/0123456789abcdef01234567/acknowledge', {}],
      ['post', '/incidents/0123456789abcdef01234567/resolve', {}],
      ['post', '/incidents/0123456789abcdef01234567/notes', { text: 'x' }],
      ['get', '/dashboards'],
    ];
    for (const caller of callers)
      for (const [method, path, body] of routes) {
        const opts = caller.token ? { token: caller.token } : {};
        const res = method === 'get' ? await api.get(`/v1/operations/runtime${path}`, opts) : await api.post(`/v1/operations/runtime${path}`, body, opts);
        expect([401, 403], `${caller.name} ${method} ${path}: ${res.status}`).to.include(res.status);
        if (caller.name === 'nobody') expect(res.status).to.equal(401);
      }
    expect((await get('/incidents?status=active')).every((i: any) => i.title !== 'x')).to.equal(true);
  });
});
