import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const PROCESSES = 'processes';
export const DEPLOYMENT_GATES = 'deployment_gates';
export const INCIDENTS = 'incidents';
export const INCIDENT_RULE_STATES = 'incident_rule_states';

/**
 * A running process of the platform (docs/operations.md, Processes): written by the process itself
 * at start, at every heartbeat and when it stops. `_id` is the process's id (`<group>:<host>:<pid>`,
 * also Agenda's lock owner). A process that stopped cleanly has `stopped_at`; one that died has
 * only an old `last_beat_at`.
 */
export type ProcessDocument = {
  _id: string;
  /** `web`, or a worker group. */
  group: string;
  host: string;
  pid: number;
  version: string;
  environment: string;
  started_at: Date;
  last_beat_at: Date;
  /** Jobs it was running at its last beat (a worker; 0 for web). */
  jobs_running: number;
  /** Its heartbeat interval: it is gone after three of them without a beat. */
  heartbeat_ms: number;
  stopped_at: Date | null;
};

export type GateCheckStatus = 'passed' | 'failed' | 'inconclusive';
export type GateCheck = { name: string; status: GateCheckStatus; value: number | null; threshold: number | null; detail: string };

/** A deployment health gate's run (docs/operations.md, Deployment health gates): its checks and verdict, kept. */
export type DeploymentGateDocument = {
  _id: ObjectId;
  /** What the caller named it (a release, a commit), or null. */
  label: string | null;
  verdict: GateCheckStatus;
  checks: GateCheck[];
  run_by: ObjectId;
  created_at: Date;
};

export type IncidentStatus = 'open' | 'acknowledged' | 'resolved';
export type IncidentActor = { type: 'platform' } | { type: 'operator'; id: ObjectId };
export type TimelineEntry = {
  at: Date;
  kind: 'opened' | 'acknowledged' | 'note' | 'resolved';
  actor: IncidentActor;
  text: string;
};

/**
 * An incident (docs/operations.md, Incidents): opened by an operator, or by the platform when one
 * of its rules fails (`rule`), and resolved by either. `dedup` is unique: the rule's name while its
 * incident is not resolved, so a rule has at most one at a time; `resolved:<id>` once resolved and
 * `manual:<id>` for an operator's.
 */
export type IncidentDocument = {
  _id: ObjectId;
  rule: string | null;
  dedup: string;
  status: IncidentStatus;
  severity: 'critical' | 'warning';
  title: string;
  /** The rule's last measurement: what it saw, the value and its threshold. */
  detail: string;
  value: number | null;
  threshold: number | null;
  opened_at: Date;
  opened_by: IncidentActor;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  last_checked_at: Date;
  timeline: TimelineEntry[];
  /** The timeline's length (a note is refused past MAX_TIMELINE: the update's filter reads this). */
  timeline_size: number;
  updated_at: Date;
};

/**
 * What the incident evaluator remembers of a rule between evaluations (docs/operations.md, Incidents):
 * `_id` is the rule's name; `failing_since` the first evaluation of its current run of failures
 * (null while it passes), `checked_at` the last evaluation. A rule opens its incident once it has
 * failed for the grace period; kept here, the count survives a restarted maintenance worker.
 */
export type IncidentRuleStateDocument = { _id: string; failing_since: Date | null; checked_at: Date };

export const operationsIndexes: IndexDeclaration[] = [
  {
    collection: PROCESSES,
    indexes: [{ key: { last_beat_at: -1 }, name: 'last_beat_at' }],
  },
  {
    collection: INCIDENTS,
    indexes: [
      { key: { dedup: 1 }, name: 'dedup', unique: true },
      { key: { status: 1, _id: -1 }, name: 'status_id' },
    ],
  },
];

export const processes = (db: Db) => db.collection<ProcessDocument>(PROCESSES);

export const deploymentGates = (db: Db) => db.collection<DeploymentGateDocument>(DEPLOYMENT_GATES);

export const incidents = (db: Db) => db.collection<IncidentDocument>(INCIDENTS);

export const incidentRuleStates = (db: Db) => db.collection<IncidentRuleStateDocument>(INCIDENT_RULE_STATES);
