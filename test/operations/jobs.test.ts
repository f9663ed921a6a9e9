import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { ExportBulkOperation } from '../../src/graphql/index.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-jobs@example.com';

/**
 * Queue diagnostics (docs/operations.md, Jobs): Agenda's jobs listed by name and state with their
 * payload ids, failure and lock owner, run by a real bulk worker; a failed job run again once, a
 * queued one canceled, a lock held by a dead process released (and one held by a live process
 * refused); operators only.
 */
describe('Operations: queue diagnostics', () => {
  const { app, api, startWorker } = useWebhooksApp('operations_jobs', {
    OPERATOR_EMAILS: OPERATOR,
    HEARTBEAT_INTERVAL_MS: '200',
    JOBS_POLL_INTERVAL_MS: '100',
  });
  let operator: { token: string };
  let shop: GivenMerchantWithStore;
  let failedId: string;
  const jobs = () => app.platform.db.collection('agendaJobs');
  const job = async (id: string) => (await api.get(`/v1/operations/runtime/jobs/${id}`, operator)).body.data;

  before(async () => {
    operator = { token: (await givenMerchant(api, { email: OPERATOR })).token };
    shop = await givenMerchantWithStore(api);
    // A job whose payload no longer matches its contract (an older release wrote it): it fails when run.
    const inserted = await jobs().insertOne({
      name: 'bulk.export',
      data: { operation_id: 'not-an-id' },
      type: 'normal',
      priority: 0,
      nextRunAt: new Date(),
      lockedAt: null,
    });
    failedId = inserted.insertedId.toHexString();
    await startWorker('bulk');
    await until('the job to fail', async () => (await job(failedId))?.state === 'failed');
  });

  it('lists jobs by name and state, a page at a time, with their group, payload ids, failure and lock owner', async () => {
    const res = await api.get('/v1/operations/runtime/jobs?name=bulk.export&state=failed', operator);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.have.length(1);
    expect(res.body.data[0]).to.include({
      id: failedId,
      name: 'bulk.export',
      group: 'bulk',
      state: 'failed',
      recurring: false,
      fail_count: 1,
      lock_owner: null,
      next_run_at: null,
    });
    expect(res.body.data[0].payload_ids).to.deep.equal({ operation_id: 'not-an-id' });
    expect(res.body.data[0].fail_reason).to.match(/payload does not match bulk\.export/);
    const sweeps = (await api.get('/v1/operations/runtime/jobs?name=bulk.sweep', operator)).body.data;
    expect(sweeps).to.have.length(1);
    expect(sweeps[0]).to.include({ recurring: true, group: 'bulk' });
    expect(sweeps[0].state, 'a sweep between runs, or at its time').to.be.oneOf(['scheduled', 'due', 'running']);
    // Pages: one job a page, each page's cursor leads to the next.
    const first = await api.get('/v1/operations/runtime/jobs?limit=1', operator);
    expect(first.body.data).to.have.length(1);
    expect(first.body.page.next_cursor).to.be.a('string');
    for (const bad of ['state=lost', 'limit=0', 'cursor=x', 'nope=1'])
      expect((await api.get(`/v1/operations/runtime/jobs?${bad}`, operator)).status, bad).to.equal(400);
    expect((await api.get('/v1/operations/runtime/jobs/nope', operator)).status).to.equal(404);
    expect((await api.get(`/v1/operations/runtime/jobs/${new ObjectId().toHexString()}`, operator)).status).to.equal(404);
  });

  it('runs a failed job again once, even when asked twice at once; a job that is not failed is refused', async () => {
    const answers = await Promise.all([1, 2].map(() => api.post(`/v1/operations/runtime/jobs/${failedId}/rerun`, undefined, operator)));
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).to.equal('job_not_failed');
    await until('the job to have run again', async () => (await job(failedId)).fail_count === 2);
    await new Promise((r) => setTimeout(r, 800)); // time for a second run, which must not come
    expect(await job(failedId)).to.include({ state: 'failed', fail_count: 2 });
    const sweep = (await api.get('/v1/operations/runtime/jobs?name=bulk.sweep', operator)).body.data[0];
    const refused = await api.post(`/v1/operations/runtime/jobs/${sweep.id}/rerun`, undefined, operator);
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('job_not_failed');
  });

  it('cancels a queued job (removed); a recurring or a failed one is refused', async () => {
    const queued = await app.platform.jobs.enqueue(
      ExportBulkOperation,
      { operation_id: new ObjectId().toHexString() },
      { at: new Date(Date.now() + 3600_000) },
    );
    expect(await job(queued)).to.include({ state: 'scheduled' });
    const canceled = await api.post(`/v1/operations/runtime/jobs/${queued}/cancel`, undefined, operator);
    expect(canceled.status, JSON.stringify(canceled.body)).to.equal(200);
    expect((await api.get(`/v1/operations/runtime/jobs/${queued}`, operator)).status).to.equal(404);
    const sweep = (await api.get('/v1/operations/runtime/jobs?name=bulk.sweep', operator)).body.data[0];
    for (const id of [sweep.id, failedId]) {
      const refused = await api.post(`/v1/operations/runtime/jobs/${id}/cancel`, undefined, operator);
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('job_not_cancelable');
    }
  });

  it('releases a lock held by a process that is gone, and refuses one held by a live process', async () => {
    const live = await app.platform.db.collection('processes').findOne({ group: 'bulk', stopped_at: null });
    expect(live).to.not.equal(null);
    const later = new Date(Date.now() + 3600_000);
    const held = async (owner: string) =>
      (
        await jobs().insertOne({
          name: 'bulk.export',
          data: { operation_id: new ObjectId().toHexString() },
          type: 'normal',
          priority: 0,
          nextRunAt: later,
          lockedAt: new Date(),
          lastModifiedBy: owner,
        })
      ).insertedId.toHexString();
    const byLive = await held(live!._id as unknown as string);
    expect(await job(byLive)).to.include({ state: 'running', lock_owner: live!._id });
    const refused = await api.post(`/v1/operations/runtime/jobs/${byLive}/release`, undefined, operator);
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('job_lock_held');

    const byGhost = await held('bulk:gone-host:4242');
    const released = await api.post(`/v1/operations/runtime/jobs/${byGhost}/release`, undefined, operator);
    expect(released.status, JSON.stringify(released.body)).to.equal(200);
    expect(released.body.data).to.include({ state: 'scheduled', lock_owner: null, locked_at: null });
    const notLocked = await api.post(`/v1/operations/runtime/jobs/${byGhost}/release`, undefined, operator);
    expect(notLocked.status).to.equal(409);
    await jobs().deleteMany({ _id: { $in: [new ObjectId(byLive), new ObjectId(byGhost)] } });
  });

  it('is for operators only', async () => {
    for (const [method, path] of [
      ['get', '/v1/operations/runtime/jobs'],
      ['get', `/v1/operations/runtime/jobs/${failedId}`],
      ['post', `/v1/operations/runtime/jobs/${failedId}/rerun`],
      ['post', `/v1/operations/runtime/jobs/${failedId}/cancel`],
      ['post', `/v1/operations/runtime/jobs/${failedId}/release`],
    ] as const) {
      const res = method === 'get' ? await api.get(path, shop.as) : await api.post(path, undefined, shop.as);
      expect(res.status, path).to.equal(403);
      expect(res.body.error.code).to.equal('operator_required');
      expect((method === 'get' ? await api.get(path) : await api.post(path, undefined)).status, path).to.equal(401);
    }
    expect(await job(failedId)).to.include({ state: 'failed' });
  });
});
