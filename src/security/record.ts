import { ObjectId, type Db } from 'mongodb';
import type { Platform } from '../platform.js';
import { enforcementEvents, SUBJECT_FIELDS, type EnforcementEventDocument, type EnforcementSubject, type PlatformKind } from './models.js';

/** An enforcement the platform did by itself (a lockout, a revoked token family, a refused target …). */
export type PlatformEnforcement = {
  kind: PlatformKind;
  subject: EnforcementSubject;
  reason: string;
  /** The address of the request it refused, when known. */
  clientAddress?: string | null;
};

/** Distinct (kind, subject) pairs one process records in a minute at most: a flood of distinct subjects writes no flood either. */
const PER_MINUTE_MAX = 10_000;

type Throttle = { minute: number; seen: Set<string> };
const throttles = new WeakMap<Db, Throttle>();
const writing = new WeakMap<Db, Set<Promise<void>>>();

/**
 * Record what the platform enforced, at most once per (kind, subject) and minute in this process,
 * without waiting: the write goes on after the caller answers, and a write that fails is logged
 * (`security.record_failed`), never the request's failure. Cheap: a set lookup, and one insert
 * a minute per subject.
 */
export function recordEnforcement(platform: Platform, event: PlatformEnforcement): void {
  try {
    const now = platform.clock.now();
    const minute = Math.floor(now.getTime() / 60_000);
    let throttle = throttles.get(platform.db);
    if (!throttle || throttle.minute !== minute) {
      throttle = { minute, seen: new Set() };
      throttles.set(platform.db, throttle);
    }
    const subject = Object.fromEntries(SUBJECT_FIELDS.flatMap((f) => (event.subject[f] !== undefined ? [[f, event.subject[f]]] : []))) as EnforcementSubject;
    const key = `${event.kind}|${JSON.stringify(subject)}`;
    if (throttle.seen.has(key) || throttle.seen.size >= PER_MINUTE_MAX) return;
    throttle.seen.add(key);
    const doc: EnforcementEventDocument = {
      _id: new ObjectId(),
      kind: event.kind,
      actor: null,
      reason: event.reason,
      subject,
      client_address: event.clientAddress ?? null,
      created_at: now,
      expires_at: null,
      undone_at: null,
      undone_by: null,
      undo_reason: null,
    };
    let pending = writing.get(platform.db);
    if (!pending) {
      pending = new Set();
      writing.set(platform.db, pending);
    }
    const set = pending;
    const write: Promise<void> = enforcementEvents(platform.db)
      .insertOne(doc)
      .then(
        () => platform.log.info({ event: 'security.enforcement_recorded', kind: doc.kind, enforcement_id: doc._id.toHexString() }),
        (err: Error) => platform.log.warn({ event: 'security.record_failed', kind: doc.kind, err: err.message }),
      )
      .finally(() => set.delete(write));
    set.add(write);
  } catch (err) {
    platform.log.warn({ event: 'security.record_failed', kind: event.kind, err: (err as Error).message });
  }
}

/** Wait for the records still being written (the platform closing). */
export async function drainRecords(platform: Platform): Promise<void> {
  await Promise.all([...(writing.get(platform.db) ?? [])]);
}
