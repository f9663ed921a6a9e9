import { expect } from 'chai';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { givenMerchant } from '../helpers/factories.js';
import type { Client } from '../helpers/http.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'op-grace@example.com';
const FAST = { OPERATOR_EMAILS: OPERATOR, HEARTBEAT_INTERVAL_MS: '200', JOBS_POLL_INTERVAL_MS: '100', INCIDENT_EVALUATION_INTERVAL_MS: '200' };

/** The rule states the evaluator keeps (docs/operations.md, Incidents): since when each rule has failed. */
const ruleStates = (app: TestApp) => app.platform.db.collection<{ _id: string; failing_since: Date | null; checked_at: Date }>('incident_rule_states');

/** Resolve once the maintenance worker has finished `n` more evaluations of the incident rules (a count, not a time). */
async function evaluations(app: TestApp, n: number): Promise<void> {
  const seen = new Set<number>();
  const first = (await app.platform.db.collection('agendaJobs').findOne({ name: 'maintenance.evaluate-incidents' }))?.lastFinishedAt?.getTime();
  await until(`${n} evaluations of the incident rules`, async () => {
    const at = (await app.platform.db.collection('agendaJobs').findOne({ name: 'maintenance.evaluate-incidents' }))?.lastFinishedAt?.getTime();
    if (at && at !== first) seen.add(at);
    return seen.size >= n;
  });
}

const activeWorkerGroupIncidents = async (api: Client, token: string) => {
  const res = await api.get('/v1/operations/runtime/incidents?status=active&limit=50', { token });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return (res.body.data as any[]).filter((i) => String(i.rule).startsWith('worker_group:'));
};

/**
 * A starting deployment's grace period (docs/operations.md, Incidents): a rule opens an incident only
 * once it has failed for INCIDENT_GRACE_PERIOD_MS, counted from the first evaluation that saw it
 * failing, kept in the database so that a restarted maintenance worker goes on counting, and started
 * over when the platform was not evaluating (stopped) for longer than three intervals. Real
 * maintenance workers on a fresh database, where only the maintenance group ever starts.
 */
describe('Operations: incidents while a deployment starts', () => {
  describe('within the grace period (the default, 2 minutes)', () => {
    const { app, api } = useTestApp('incident_grace', FAST);
    const workers: RunningProcess[] = [];
    let operator: string;
    before(async () => {
      operator = (await givenMerchant(api, { email: OPERATOR })).token;
      await startWorker(app, 'maintenance', workers);
    });
    after(() => stopAll(workers));

    it('opens no incident for the worker groups that have not started yet, however often it evaluates, while the overview shows them missing', async () => {
      await evaluations(app, 5);
      expect(await activeWorkerGroupIncidents(api, operator)).to.deep.equal([]);
      const overview = await api.get('/v1/operations/runtime/overview', { token: operator });
      expect(overview.body.data.processes.groups_without_a_process).to.include.members(['webhooks', 'bulk', 'themes', 'extensions']);
      expect(overview.body.data.processes.groups_without_a_process).to.not.include('maintenance');
    });

    it('goes on counting from when it first saw a group missing after the maintenance worker restarts', async () => {
      const before = await ruleStates(app).findOne({ _id: 'worker_group:bulk' });
      expect(before?.failing_since).to.be.instanceOf(Date);
      await stopAll(workers);
      await startWorker(app, 'maintenance', workers);
      await evaluations(app, 3);
      const after = await ruleStates(app).findOne({ _id: 'worker_group:bulk' });
      expect(after!.failing_since!.getTime(), 'the same start of the failure').to.equal(before!.failing_since!.getTime());
      expect(after!.checked_at.getTime()).to.be.greaterThan(before!.checked_at.getTime());
      expect(await activeWorkerGroupIncidents(api, operator)).to.deep.equal([]);
    });

    it('starts counting again when the platform was not evaluating for a while (stopped overnight, then started), so a start after a stop is a start', async () => {
      // As the last evaluation before a stop would have left it: failing since long before the grace period, last checked an hour ago.
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
      await ruleStates(app).updateOne({ _id: 'worker_group:bulk' }, { $set: { failing_since: hoursAgo(2), checked_at: hoursAgo(1) } });
      await evaluations(app, 3);
      const state = await ruleStates(app).findOne({ _id: 'worker_group:bulk' });
      expect(state!.failing_since!.getTime(), 'counted again from an evaluation after the gap').to.be.greaterThan(hoursAgo(1).getTime());
      expect(await activeWorkerGroupIncidents(api, operator)).to.deep.equal([]);
    });
  });

  describe('after the grace period', () => {
    const { app, api } = useTestApp('incident_grace_over', { ...FAST, INCIDENT_GRACE_PERIOD_MS: '1000' });
    const workers: RunningProcess[] = [];
    let operator: string;
    before(async () => {
      operator = (await givenMerchant(api, { email: OPERATOR })).token;
      await startWorker(app, 'themes', workers);
      await startWorker(app, 'maintenance', workers);
    });
    after(() => stopAll(workers));

    it('opens one critical incident per group still missing, saying since when, and none for a group that runs', async () => {
      const opened = await until('incidents for the groups still missing', async () => {
        const found = await activeWorkerGroupIncidents(api, operator);
        return found.length >= 3 ? found : null;
      });
      expect(opened.map((i) => i.rule).sort()).to.deep.equal(['worker_group:bulk', 'worker_group:extensions', 'worker_group:webhooks']);
      for (const incident of opened) {
        expect(incident).to.include({ status: 'open', severity: 'critical', value: 0, threshold: 1 });
        expect(incident.timeline[0].text).to.match(/failing since \d{4}-\d\d-\d\dT/);
      }
      await evaluations(app, 2);
      expect(await activeWorkerGroupIncidents(api, operator)).to.have.length(3);
    });
  });
});
