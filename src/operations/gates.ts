import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { notFound } from '../errors.js';
import { parseObjectId } from '../ids.js';
import type { Module } from '../module.js';
import { findPage, PageQuery, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { objectStorage } from '../storage/index.js';
import { webhookFailureRate } from './dashboards.js';
import { outboxOverview, processesOverview, queuesOverview } from './overview.js';
import { missingIndexes } from './readiness.js';
import { deploymentGates, processes, type DeploymentGateDocument, type GateCheck, type GateCheckStatus } from './models.js';

export const GATE_CHECKS = [
  'database_read',
  'database_write',
  'indexes',
  'worker_groups',
  'queue_lag',
  'outbox_backlog',
  'failed_jobs',
  'webhook_failure_rate',
  'storage',
] as const;
export type GateCheckName = (typeof GATE_CHECKS)[number];

/** Thresholds a gate's checks compare with, each with its default (docs/operations.md, Deployment health gates). */
const Thresholds = z.strictObject({
  database_ms: z.number().int().min(1).max(60_000).default(1000),
  queue_lag_seconds: z.number().int().min(0).max(86_400).default(120),
  outbox_documents: z.number().int().min(0).max(1_000_000).default(100),
  failed_jobs: z.number().int().min(0).max(1_000_000).default(0),
  window_minutes: z.number().int().min(1).max(1440).default(15),
  /** The share of webhook attempts in the window that failed, 0 to 1. */
  webhook_failure_rate: z.number().min(0).max(1).default(0.25),
  /** Fewer attempts than this in the window are too few to judge by: the check passes, saying so. */
  webhook_min_attempts: z.number().int().min(1).max(1_000_000).default(20),
});

export const RunGateBody = z.strictObject({
  label: z.string().trim().min(1).max(200).optional(),
  /** The checks to run (all when absent). */
  checks: z.array(z.enum(GATE_CHECKS)).min(1).max(GATE_CHECKS.length).optional(),
  thresholds: Thresholds.optional(),
});
export type RunGateBody = z.infer<typeof RunGateBody>;

const check = (name: string, status: GateCheckStatus, value: number | null, threshold: number | null, detail: string): GateCheck => ({
  name,
  status,
  value,
  threshold,
  detail,
});
const atMost = (name: string, value: number, threshold: number, detail: string) =>
  check(name, value <= threshold ? 'passed' : 'failed', value, threshold, detail);

/** How long a step took, in ms, or its error. */
async function timed(step: () => Promise<unknown>): Promise<{ ms: number } | { error: string }> {
  const started = performance.now();
  try {
    await step();
    return { ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const measured = (name: string, result: { ms: number } | { error: string }, threshold: number, what: string) =>
  'error' in result
    ? check(name, 'failed', null, threshold, `${what} failed: ${result.error}`)
    : atMost(name, result.ms, threshold, `${what} in ${result.ms} ms`);

/** One check, measured now. A check that throws is `failed` with why, never a 500. */
async function runCheck(platform: Platform, modules: readonly Module[], name: GateCheckName, t: z.output<typeof Thresholds>, now: Date): Promise<GateCheck> {
  switch (name) {
    case 'database_read':
      return measured(name, await timed(() => processes(platform.db).findOne({}, { projection: { _id: 1 } })), t.database_ms, 'a read');
    case 'database_write': {
      const probe = new ObjectId();
      const result = await timed(async () => {
        await deploymentGates(platform.db).insertOne({ _id: probe, label: 'write probe', verdict: 'inconclusive', checks: [], run_by: probe, created_at: now });
        await deploymentGates(platform.db).deleteOne({ _id: probe });
      });
      return measured(name, result, t.database_ms, 'a write and its delete');
    }
    case 'indexes': {
      const missing = await missingIndexes(platform, modules);
      return atMost(name, missing.length, 0, missing.length ? `missing: ${missing.join(', ')}` : 'every declared index exists');
    }
    case 'worker_groups': {
      const overview = await processesOverview(platform, now);
      if (overview.groups.every((g) => g.alive + g.stopped + g.gone === 0))
        return check(name, 'inconclusive', null, 0, 'no process has written a heartbeat in the last day: nothing to tell by');
      const without = overview.groups_without_a_process;
      return atMost(name, without.length, 0, without.length ? `no live process in: ${without.join(', ')}` : 'every worker group has a live process');
    }
    case 'queue_lag': {
      const oldest = (await queuesOverview(platform, modules, now)).oldest_due_job;
      return atMost(
        name,
        oldest?.lag_seconds ?? 0,
        t.queue_lag_seconds,
        oldest ? `the oldest due job (${oldest.name}) is ${oldest.lag_seconds} s late` : 'no job is due',
      );
    }
    case 'outbox_backlog': {
      const outbox = (await outboxOverview(platform, now)).events_outbox;
      return atMost(name, outbox.documents, t.outbox_documents, `${outbox.documents} documents carry events past the settle delay`);
    }
    case 'failed_jobs': {
      const since = new Date(now.getTime() - t.window_minutes * 60_000);
      const failed = await platform.jobs.countFailedSince(since, 100_000);
      return atMost(name, failed, t.failed_jobs, `${failed} jobs failed in the last ${t.window_minutes} min`);
    }
    case 'webhook_failure_rate': {
      const rate = await webhookFailureRate(platform, t.window_minutes);
      const what = `${rate.failed} of ${rate.attempts} webhook attempts failed in the last ${t.window_minutes} min`;
      if (rate.attempts < t.webhook_min_attempts)
        return check(name, 'passed', rate.failure_rate, t.webhook_failure_rate, `${what}: fewer than ${t.webhook_min_attempts}, too few to judge by`);
      return atMost(name, rate.failure_rate, t.webhook_failure_rate, what);
    }
    case 'storage': {
      const storage = objectStorage(platform);
      const key = `operations/gate-probe-${new ObjectId().toHexString()}`;
      const result = await timed(async () => {
        await storage.put(key, Buffer.from('probe'), 'text/plain');
        if (!(await storage.head(key))) throw new Error('the object written is not there');
        await storage.delete(key);
      });
      return measured(name, result, t.database_ms * 5, `a put, head and delete (${platform.config.storage.driver})`);
    }
  }
}

const presentGate = (doc: DeploymentGateDocument) => ({
  id: doc._id.toHexString(),
  label: doc.label,
  verdict: doc.verdict,
  checks: doc.checks,
  run_by: doc.run_by.toHexString(),
  created_at: doc.created_at.toISOString(),
});
export type GateView = ReturnType<typeof presentGate>;

/**
 * `POST /v1/operations/runtime/deployment-health-gates` (docs/operations.md): run the named checks
 * (all by default) at once and keep the verdict: `failed` when any check failed, else
 * `inconclusive` when any could not tell, else `passed`. A release step calls it and stops on
 * anything but `passed`.
 */
export async function runDeploymentGate(platform: Platform, modules: readonly Module[], operatorId: string, body: RunGateBody): Promise<GateView> {
  const now = platform.clock.now();
  const thresholds = Thresholds.parse(body.thresholds ?? {});
  const names = [...new Set(body.checks ?? GATE_CHECKS)];
  const checks = await Promise.all(
    names.map((name) =>
      runCheck(platform, modules, name, thresholds, now).catch((err: Error) => check(name, 'failed', null, null, `the check failed: ${err.message}`)),
    ),
  );
  const verdict: GateCheckStatus = checks.some((c) => c.status === 'failed')
    ? 'failed'
    : checks.some((c) => c.status === 'inconclusive')
      ? 'inconclusive'
      : 'passed';
  const doc: DeploymentGateDocument = { _id: new ObjectId(), label: body.label ?? null, verdict, checks, run_by: new ObjectId(operatorId), created_at: now };
  await deploymentGates(platform.db).insertOne(doc);
  platform.log.info({
    event: 'operations.gate_run',
    gate_id: doc._id.toHexString(),
    verdict,
    failed: checks.filter((c) => c.status === 'failed').map((c) => c.name),
  });
  return presentGate(doc);
}

export async function getDeploymentGate(platform: Platform, gateId: string): Promise<GateView> {
  const id = parseObjectId(gateId);
  const doc = id ? await deploymentGates(platform.db).findOne({ _id: id }) : null;
  if (!doc) throw notFound('Deployment health gate');
  return presentGate(doc);
}

export const GateListQuery = PageQuery.strict();

/** The gates run, newest first. */
export async function listDeploymentGates(platform: Platform, page: Page) {
  const { items, nextCursor } = await findPage(deploymentGates(platform.db), page.cursor ? { _id: { $lt: page.cursor } } : {}, page.limit, -1);
  return { items: items.map(presentGate), nextCursor };
}
