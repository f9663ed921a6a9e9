import { ObjectId, type Filter } from 'mongodb';
import { z } from 'zod';
import { isDuplicateKeyError } from '../db.js';
import { notFound, PlatformError } from '../errors.js';
import { parseObjectId } from '../ids.js';
import type { Module } from '../module.js';
import { findPage, PageQuery, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { webhookFailureRate } from './dashboards.js';
import { outboxOverview, processesOverview, queuesOverview } from './overview.js';
import { incidentRuleStates, incidents, type IncidentActor, type IncidentDocument, type IncidentStatus, type TimelineEntry } from './models.js';

/** The most entries an incident's timeline holds; a note past it is refused (open a new incident). */
export const MAX_TIMELINE = 500;

/**
 * The rules the platform watches in the background (docs/operations.md, Incidents), with the
 * deployment health gate's default thresholds. Each is measured every
 * INCIDENT_EVALUATION_INTERVAL_MS by the maintenance group.
 */
export const INCIDENT_RULES = {
  queue_lag_seconds: 120,
  outbox_documents: 100,
  webhook_window_minutes: 5,
  webhook_failure_rate: 0.25,
  webhook_min_attempts: 20,
} as const;

type Measurement = {
  rule: string;
  failing: boolean;
  severity: IncidentDocument['severity'];
  title: string;
  detail: string;
  value: number | null;
  threshold: number | null;
};

/** Every rule measured now. A rule that cannot tell (no process ever beat) is left out: nothing is opened or resolved by it. */
async function measure(platform: Platform, modules: readonly Module[], now: Date): Promise<Measurement[]> {
  const [procs, queues, outbox, webhooks] = await Promise.all([
    processesOverview(platform, now),
    queuesOverview(platform, modules, now),
    outboxOverview(platform, now),
    webhookFailureRate(platform, INCIDENT_RULES.webhook_window_minutes),
  ]);
  const out: Measurement[] = [];
  const anyProcess = procs.groups.some((g) => g.alive + g.stopped + g.gone > 0);
  if (anyProcess)
    for (const g of procs.groups.filter((g) => g.group !== 'web'))
      out.push({
        rule: `worker_group:${g.group}`,
        failing: g.alive === 0,
        severity: 'critical',
        title: `No live process in the ${g.group} worker group`,
        detail: g.alive === 0 ? `${g.gone} gone, ${g.stopped} stopped, none alive: its jobs wait` : `${g.alive} alive`,
        value: g.alive,
        threshold: 1,
      });
  const lag = queues.oldest_due_job?.lag_seconds ?? 0;
  out.push({
    rule: 'queue_lag',
    failing: lag > INCIDENT_RULES.queue_lag_seconds,
    severity: 'warning',
    title: 'Jobs wait past their time',
    detail: queues.oldest_due_job ? `the oldest due job (${queues.oldest_due_job.name}) is ${lag} s late` : 'no job is due',
    value: lag,
    threshold: INCIDENT_RULES.queue_lag_seconds,
  });
  const backlog = outbox.events_outbox.documents;
  out.push({
    rule: 'outbox_backlog',
    failing: backlog > INCIDENT_RULES.outbox_documents,
    severity: 'warning',
    title: 'Events wait in the outbox',
    detail: `${backlog} documents carry events past the settle delay (oldest ${outbox.events_outbox.oldest_age_seconds} s)`,
    value: backlog,
    threshold: INCIDENT_RULES.outbox_documents,
  });
  out.push({
    rule: 'webhook_failure_rate',
    failing: webhooks.attempts >= INCIDENT_RULES.webhook_min_attempts && webhooks.failure_rate > INCIDENT_RULES.webhook_failure_rate,
    severity: 'warning',
    title: 'Webhook deliveries fail',
    detail: `${webhooks.failed} of ${webhooks.attempts} attempts failed in the last ${webhooks.minutes} min`,
    value: webhooks.failure_rate,
    threshold: INCIDENT_RULES.webhook_failure_rate,
  });
  return out;
}

const PLATFORM: IncidentActor = { type: 'platform' };

/**
 * Since when each measured rule has failed, as of `now` (null: it passes), written back for the next
 * evaluation. A run of failures goes on from the last evaluation's, even another maintenance
 * worker's, across a gap in evaluations up to the grace period (or three intervals, if longer): a
 * restarted or crash-looping evaluator still opens the incident once the grace is over. After a
 * longer gap the platform was not watching (it was stopped), so the run starts now: a deployment
 * that starts is given the whole grace period, whatever the last evaluation before the stop saw.
 */
async function failingSince(platform: Platform, results: readonly Measurement[], now: Date): Promise<Map<string, Date | null>> {
  const states = incidentRuleStates(platform.db);
  const before = new Map((await states.find({ _id: { $in: results.map((r) => r.rule) } }).toArray()).map((d) => [d._id, d]));
  const { incidentGraceMs, incidentEvaluationMs } = platform.config.operations;
  const continuous = Math.max(incidentGraceMs, 3 * incidentEvaluationMs);
  const since = new Map<string, Date | null>();
  for (const r of results) {
    const last = before.get(r.rule);
    const goesOn = last?.failing_since && now.getTime() - last.checked_at.getTime() <= continuous;
    since.set(r.rule, r.failing ? (goesOn ? last.failing_since : now) : null);
  }
  await states.bulkWrite(
    results.map((r) => ({ updateOne: { filter: { _id: r.rule }, update: { $set: { failing_since: since.get(r.rule)!, checked_at: now } }, upsert: true } })),
    { ordered: false },
  );
  return since;
}

/**
 * The `maintenance.evaluate-incidents` job: measure every rule; a rule that has failed for
 * INCIDENT_GRACE_PERIOD_MS (failingSince) with no incident not yet resolved opens one (the unique
 * `dedup` makes a second opening, from a second evaluation at once, a no-op), a failing rule with
 * one refreshes its measurement, and a rule that recovered resolves its incident, saying so on the
 * timeline.
 */
export async function evaluateIncidents(platform: Platform, modules: readonly Module[]): Promise<{ opened: number; resolved: number }> {
  const now = platform.clock.now();
  const results = await measure(platform, modules, now);
  const since = await failingSince(platform, results, now);
  const active = await incidents(platform.db)
    .find({ rule: { $in: results.map((r) => r.rule) }, status: { $in: ['open', 'acknowledged'] } })
    .toArray();
  const activeByRule = new Map(active.map((i) => [i.rule!, i]));
  let opened = 0;
  let resolved = 0;
  for (const r of results) {
    const incident = activeByRule.get(r.rule);
    const measured = { detail: r.detail, value: r.value, threshold: r.threshold, last_checked_at: now };
    const failedFrom = since.get(r.rule);
    if (r.failing && !incident) {
      const graceOver = failedFrom && now.getTime() - failedFrom.getTime() >= platform.config.operations.incidentGraceMs;
      if (graceOver && (await openIncident(platform, { ...r, ...measured }, failedFrom, now))) opened++;
    } else if (r.failing && incident) {
      await incidents(platform.db).updateOne({ _id: incident._id, status: { $ne: 'resolved' } }, { $set: measured });
    } else if (!r.failing && incident) {
      const entry: TimelineEntry = { at: now, kind: 'resolved', actor: PLATFORM, text: `Recovered: ${r.detail}` };
      const { modifiedCount } = await incidents(platform.db).updateOne(
        { _id: incident._id, status: { $ne: 'resolved' } },
        {
          $set: { ...measured, status: 'resolved', resolved_at: now, dedup: `resolved:${incident._id.toHexString()}`, updated_at: now },
          $push: { timeline: entry },
          $inc: { timeline_size: 1 },
        },
      );
      if (modifiedCount) {
        resolved++;
        platform.log.info({ event: 'operations.incident_resolved', incident_id: incident._id.toHexString(), rule: r.rule, by: 'platform' });
      }
    }
  }
  return { opened, resolved };
}

async function openIncident(platform: Platform, r: Measurement & { last_checked_at: Date }, failingSince: Date, now: Date): Promise<boolean> {
  const doc: IncidentDocument = {
    _id: new ObjectId(),
    rule: r.rule,
    dedup: r.rule,
    status: 'open',
    severity: r.severity,
    title: r.title,
    detail: r.detail,
    value: r.value,
    threshold: r.threshold,
    opened_at: now,
    opened_by: PLATFORM,
    acknowledged_at: null,
    resolved_at: null,
    last_checked_at: now,
    timeline: [{ at: now, kind: 'opened', actor: PLATFORM, text: `Opened by the rule ${r.rule}: ${r.detail} (failing since ${failingSince.toISOString()})` }],
    timeline_size: 1,
    updated_at: now,
  };
  try {
    await incidents(platform.db).insertOne(doc);
  } catch (err) {
    if (isDuplicateKeyError(err)) return false; // opened by another evaluation meanwhile
    throw err;
  }
  platform.log[r.severity === 'critical' ? 'error' : 'warn']({
    event: 'operations.incident_opened',
    incident_id: doc._id.toHexString(),
    rule: r.rule,
    detail: r.detail,
  });
  return true;
}

const actorView = (a: IncidentActor) => (a.type === 'platform' ? { type: 'platform' as const } : { type: 'operator' as const, id: a.id.toHexString() });

const presentIncident = (doc: IncidentDocument) => ({
  id: doc._id.toHexString(),
  rule: doc.rule,
  status: doc.status,
  severity: doc.severity,
  title: doc.title,
  detail: doc.detail,
  value: doc.value,
  threshold: doc.threshold,
  opened_at: doc.opened_at.toISOString(),
  opened_by: actorView(doc.opened_by),
  acknowledged_at: doc.acknowledged_at?.toISOString() ?? null,
  resolved_at: doc.resolved_at?.toISOString() ?? null,
  last_checked_at: doc.last_checked_at.toISOString(),
  timeline: doc.timeline.map((e) => ({ at: e.at.toISOString(), kind: e.kind, actor: actorView(e.actor), text: e.text })),
});
export type IncidentView = ReturnType<typeof presentIncident>;

const Note = z.string().trim().min(1).max(2000);

export const OpenIncidentBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  severity: z.enum(['critical', 'warning']).default('warning'),
  note: Note.optional(),
});
export const IncidentActionBody = z.strictObject({ note: Note.optional() });
export const IncidentNoteBody = z.strictObject({ text: Note });

export const IncidentListQuery = PageQuery.extend({
  /** `active`: open or acknowledged. */
  status: z.enum(['open', 'acknowledged', 'resolved', 'active']).optional(),
  rule: z.string().trim().min(1).max(100).optional(),
}).strict();

/** `POST /v1/operations/runtime/incidents`: an operator opens one (no rule: only an operator resolves it). */
export async function openManualIncident(platform: Platform, operatorId: string, body: z.output<typeof OpenIncidentBody>): Promise<IncidentView> {
  const now = platform.clock.now();
  const actor: IncidentActor = { type: 'operator', id: new ObjectId(operatorId) };
  const id = new ObjectId();
  const doc: IncidentDocument = {
    _id: id,
    rule: null,
    dedup: `manual:${id.toHexString()}`,
    status: 'open',
    severity: body.severity,
    title: body.title,
    detail: body.note ?? '',
    value: null,
    threshold: null,
    opened_at: now,
    opened_by: actor,
    acknowledged_at: null,
    resolved_at: null,
    last_checked_at: now,
    timeline: [{ at: now, kind: 'opened', actor, text: body.note ?? 'Opened by an operator' }],
    timeline_size: 1,
    updated_at: now,
  };
  await incidents(platform.db).insertOne(doc);
  platform.log.warn({ event: 'operations.incident_opened', incident_id: id.toHexString(), rule: null, by: operatorId });
  return presentIncident(doc);
}

async function findIncident(platform: Platform, rawId: string): Promise<IncidentDocument> {
  const id = parseObjectId(rawId);
  const doc = id ? await incidents(platform.db).findOne({ _id: id }) : null;
  if (!doc) throw notFound('Incident');
  return doc;
}

export const getIncident = async (platform: Platform, rawId: string) => presentIncident(await findIncident(platform, rawId));

/** The incidents, newest first, by status (`active`: open or acknowledged) and rule. */
export async function listIncidents(platform: Platform, query: z.output<typeof IncidentListQuery>) {
  const filter: Filter<IncidentDocument> = {};
  if (query.status === 'active') filter.status = { $in: ['open', 'acknowledged'] };
  else if (query.status) filter.status = query.status;
  if (query.rule) filter.rule = query.rule;
  if (query.cursor) filter._id = { $lt: query.cursor };
  const page: Page = query;
  const { items, nextCursor } = await findPage(incidents(platform.db), filter, page.limit, -1);
  return { items: items.map(presentIncident), nextCursor };
}

const ACTIONS = {
  acknowledge: { from: ['open'], to: 'acknowledged', refused: 'incident_not_open', text: 'Acknowledged' },
  resolve: { from: ['open', 'acknowledged'], to: 'resolved', refused: 'incident_resolved', text: 'Resolved by an operator' },
  note: { from: ['open', 'acknowledged', 'resolved'], to: null, refused: 'incident_resolved', text: '' },
} as const satisfies Record<string, { from: IncidentStatus[]; to: IncidentStatus | null; refused: string; text: string }>;

/**
 * Acknowledge, resolve, or add a note to an incident, by an operator: one conditional update (the
 * status it may be in, and room on its timeline), so two operators at once cannot both act. A
 * resolved incident takes notes (a post-mortem) but no other action.
 */
export async function actOnIncident(
  platform: Platform,
  operatorId: string,
  rawId: string,
  action: keyof typeof ACTIONS,
  note: string | undefined,
): Promise<IncidentView> {
  const doc = await findIncident(platform, rawId);
  const rule = ACTIONS[action];
  const now = platform.clock.now();
  const entry: TimelineEntry = {
    at: now,
    kind: action === 'acknowledge' ? 'acknowledged' : action === 'resolve' ? 'resolved' : 'note',
    actor: { type: 'operator', id: new ObjectId(operatorId) },
    text: note ?? rule.text,
  };
  const set: Partial<IncidentDocument> = { updated_at: now };
  if (rule.to === 'acknowledged') Object.assign(set, { status: 'acknowledged', acknowledged_at: now });
  if (rule.to === 'resolved') Object.assign(set, { status: 'resolved', resolved_at: now, dedup: `resolved:${doc._id.toHexString()}` });
  const updated = await incidents(platform.db).findOneAndUpdate(
    { _id: doc._id, status: { $in: [...rule.from] }, timeline_size: { $lt: MAX_TIMELINE } },
    { $set: set, $push: { timeline: entry }, $inc: { timeline_size: 1 } },
    { returnDocument: 'after' },
  );
  if (!updated) {
    const current = await findIncident(platform, rawId);
    if (current.timeline_size >= MAX_TIMELINE)
      throw new PlatformError('conflict', 'incident_timeline_full', `The incident's timeline holds ${MAX_TIMELINE} entries: open a new incident`);
    throw new PlatformError(
      'conflict',
      rule.refused,
      rule.refused === 'incident_not_open' ? `The incident is ${current.status}: only an open incident can be acknowledged` : 'The incident is resolved',
    );
  }
  platform.log.info({ event: `operations.incident_${action}`, incident_id: doc._id.toHexString(), by: operatorId });
  return presentIncident(updated);
}
