import type { Collection, Document, Filter, ObjectId, Sort, UpdateFilter, WithId } from 'mongodb';
import type { Clock } from '../clock.js';

/**
 * The lease engine: durable work is a document, and a worker takes it for a while (a lease)
 * before acting on it, so two workers never make the same attempt, and work whose worker died
 * is taken again once the lease has run out. Every operation is one single-document
 * conditional update (or one bulk write of them): the database decides who wins, with no lock
 * and no transaction. `lease_until` as the holder read it is the fencing token: extending,
 * giving back and settling match only the exact lease held, so a holder whose lease ran out
 * and was taken again, even by the same owner, changes nothing.
 *
 * The owner is `platform.process.id` (`webhooks:host:pid`). Used by outbound messages
 * (src/messages), webhook deliveries (src/webhooks), order changes (src/orders), payment
 * sessions (src/payments) and extension revocations (src/apps/extensions, a lease kept under a
 * prefix); a request that finds work held waits for its holder with `waitForHolder`.
 * docs/processes.md, "Leases".
 */

/** What a leased document carries: who holds it and until when (both null: nobody). */
export type Leased = { _id: ObjectId; lease_until: Date | null; lease_owner: string | null };

/** A lease to take: who takes it (`platform.process.id`) and for how long. */
export type Lease = { owner: string; ms: number };

/** A document as its holder read it: `lease_until` is the fencing token. */
export type Held = Pick<Leased, '_id' | 'lease_until'>;

/** The fields of a lease taken at `now`; a document inserted with them is created already claimed (the insert is the claim). */
export function leaseFields(lease: Lease, now: Date): { lease_until: Date; lease_owner: string } {
  return { lease_until: new Date(now.getTime() + lease.ms), lease_owner: lease.owner };
}

/** The fields of a lease given back. */
export const NO_LEASE = { lease_until: null, lease_owner: null };

/** Matches while `owner` still holds exactly the lease it read; a lease taken over since no longer matches. */
export function heldBy(doc: Held, owner: string): { _id: ObjectId; lease_owner: string; lease_until: Date | null } {
  return { _id: doc._id, lease_owner: owner, lease_until: doc.lease_until };
}

/** Whether someone holds the lease at `now` (wait for them); otherwise the work is free to claim. */
export const leaseHeld = (doc: Pick<Leased, 'lease_until'>, now: Date): boolean => doc.lease_until !== null && doc.lease_until > now;

/**
 * Where a document keeps a lease: its own `lease_until` and `lease_owner` (prefix `''`), or those
 * of a record inside it (`'extension_revocation'`: an installation carries the lease of its
 * revocation beside its other fields, so the lease names that work and no other).
 */
const keysAt = (prefix: string) => ({
  until: prefix ? `${prefix}.lease_until` : 'lease_until',
  owner: prefix ? `${prefix}.lease_owner` : 'lease_owner',
});

/** Matches while nobody holds the lease under `prefix` at `now`: never leased, given back, or run out (a dead worker's). Its one `$or` is the filter's. */
export function leaseFreeAt(prefix: string, now: Date): Filter<Document> {
  const { until } = keysAt(prefix);
  return { $or: [{ [until]: null }, { [until]: { $lte: now } }] };
}

/**
 * Take the lease on one document matching `filter` that nobody holds (never leased, given
 * back, or run out: a dead worker's work is taken again), the first by `sort` when several
 * match. Of concurrent claims one wins. `set` and `inc` are written in the same update (an
 * attempt counter, `updated_at`); `filter` must not use `$or`. Resolves to the document as
 * claimed, or null.
 */
export function claimLease<T extends Leased>(
  collection: Collection<T>,
  lease: Lease,
  now: Date,
  filter: Filter<T>,
  options: { sort?: Sort; set?: Partial<T>; inc?: Partial<Record<keyof T, number>> } = {},
): Promise<WithId<T> | null> {
  return claimLeaseAt(collection, '', lease, now, filter, options as { sort?: Sort; set?: Document; inc?: Record<string, number> });
}

/**
 * `claimLease` for a lease kept under `prefix` (`<prefix>.lease_until`, `<prefix>.lease_owner`);
 * `set` and `inc` name the document's fields in full (`'extension_revocation.runs'`).
 */
export function claimLeaseAt<T extends Document>(
  collection: Collection<T>,
  prefix: string,
  lease: Lease,
  now: Date,
  filter: Filter<T>,
  options: { sort?: Sort; set?: Document; inc?: Record<string, number> } = {},
): Promise<WithId<T> | null> {
  const keys = keysAt(prefix);
  const taken = leaseFields(lease, now);
  return collection.findOneAndUpdate(
    { ...filter, ...leaseFreeAt(prefix, now) } as Filter<T>,
    {
      $set: { [keys.until]: taken.lease_until, [keys.owner]: taken.lease_owner, ...options.set },
      ...(options.inc ? { $inc: options.inc } : {}),
    } as UpdateFilter<T>,
    { ...(options.sort ? { sort: options.sort } : {}), returnDocument: 'after' },
  );
}

/**
 * Make a held lease last `lease.ms` from now before a step that may take that long (work held
 * a while in memory before it is done): with more than `unlessLeftMs` left nothing is written,
 * otherwise the lease is renewed if it is still exactly the one held. Resolves to the document
 * as now held, or null when the lease was lost (then do not act on it).
 */
export async function extendLease<T extends Leased>(
  collection: Collection<T>,
  held: WithId<T>,
  lease: Lease,
  now: Date,
  options: { filter?: Filter<T>; set?: Partial<T>; unlessLeftMs?: number } = {},
): Promise<WithId<T> | null> {
  const left = held.lease_until ? held.lease_until.getTime() - now.getTime() : 0;
  if (options.unlessLeftMs !== undefined && left > options.unlessLeftMs) return held;
  return collection.findOneAndUpdate(
    { ...heldBy(held, lease.owner), ...options.filter } as Filter<T>,
    { $set: { lease_until: new Date(now.getTime() + lease.ms), ...options.set } } as UpdateFilter<T>,
    { returnDocument: 'after' },
  );
}

/**
 * Give back leases on work not done (a worker stopping), each only if still exactly the lease
 * held, in one bulk write: any worker may then take the work at once rather than after the
 * lease runs out. Resolves to how many were given back.
 */
export async function releaseLeases<T extends Leased>(
  collection: Collection<T>,
  held: readonly Held[],
  owner: string,
  options: { filter?: Filter<T>; set?: Partial<T> } = {},
): Promise<number> {
  if (held.length === 0) return 0;
  const result = await collection.bulkWrite(
    held.map((doc) => ({
      updateOne: { filter: { ...heldBy(doc, owner), ...options.filter } as Filter<T>, update: { $set: { ...NO_LEASE, ...options.set } } as UpdateFilter<T> },
    })),
    { ordered: false },
  );
  return result.matchedCount;
}

/**
 * The update that records an attempt's end (done, failed for good, or due again later) and
 * gives the lease back, conditional on the lease held: a holder whose lease was taken over
 * records nothing. As data, for a caller that writes several together (webhooks' group commit).
 */
export function settlement<T extends Leased>(
  held: Held,
  owner: string,
  update: UpdateFilter<T>,
  filter?: Filter<T>,
): { filter: Filter<T>; update: UpdateFilter<T> } {
  return {
    filter: { ...heldBy(held, owner), ...filter } as Filter<T>,
    update: { ...update, $set: { ...update.$set, ...NO_LEASE } } as UpdateFilter<T>,
  };
}

/** Settle one held document now (see settlement). Resolves whether the lease was still held, i.e. whether the update took. */
export async function settleLease<T extends Leased>(
  collection: Collection<T>,
  held: Held,
  owner: string,
  update: UpdateFilter<T>,
  filter?: Filter<T>,
): Promise<boolean> {
  const op = settlement(held, owner, update, filter);
  return (await collection.updateOne(op.filter, op.update)).matchedCount === 1;
}

/**
 * `settleLease` for a lease kept under `prefix`: `held` is the lease as its holder read it there
 * (the fencing token), `update` names the document's fields in full.
 */
export async function settleLeaseAt<T extends Document>(
  collection: Collection<T>,
  prefix: string,
  held: Held,
  owner: string,
  update: UpdateFilter<T>,
  filter?: Filter<T>,
): Promise<boolean> {
  const keys = keysAt(prefix);
  const written = await collection.updateOne(
    { ...filter, _id: held._id, [keys.owner]: owner, [keys.until]: held.lease_until } as Filter<T>,
    {
      ...update,
      $set: { ...update.$set, [keys.until]: null, [keys.owner]: null },
    } as UpdateFilter<T>,
  );
  return written.matchedCount === 1;
}

/**
 * What a look at work another process may hold found: the caller's answer (`done`), its holder
 * still at it (`held`: look again after a pause), or a step made (`again`: the lease taken over
 * and the work finished here, or the document changed since read: look again at once).
 */
export type Look<R> = { done: R } | 'held' | 'again';

/**
 * How long to wait for a holder: until `deadline` by `clock`, pausing `pauseMs(n)` after the
 * n-th `held` (from 0; `backoff` or `jitter` below); past the deadline `busy()` is thrown (the
 * caller's 409, "retry shortly").
 */
export type HolderWait = { clock: Clock; deadline: Date; pauseMs: (n: number) => number; busy: () => Error };

/**
 * Wait, bounded, for work another process holds: `look` reads it (the document, or an attempt
 * that reports it held) until it answers `done`; while its holder is at it, pause and look again,
 * until the deadline. When the holder's lease is given back or runs out, `look` claims the work
 * (`claimLease`) and finishes it itself (then answers `again`, or `done`): a holder that died is
 * taken over, and its late writes are fenced off by the lease.
 */
export async function waitForHolder<R>(look: () => Promise<Look<R>>, wait: HolderWait): Promise<R> {
  for (let n = 0; ;) {
    const seen = await look();
    if (seen === 'again') continue;
    if (seen !== 'held') return seen.done;
    if (wait.clock.now() > wait.deadline) throw wait.busy();
    await new Promise((resolve) => setTimeout(resolve, wait.pauseMs(n++)));
  }
}

/** Pauses between `minMs` and `maxMs` at random: the waiters of one holder do not all look again at once. */
export const jitter = (minMs: number, maxMs: number) => (): number => minMs + Math.random() * (maxMs - minMs);

/**
 * Work whose job or wake-up was lost (a crash between its write and its enqueue): matching
 * `filter` and due (`next_attempt_at`) since before `overdue`. A sweeper hands these ids back
 * to whatever drives the work; the claim still decides who does it.
 */
export async function findStranded<T extends Leased & { next_attempt_at: Date | null }>(
  collection: Collection<T>,
  filter: Filter<T>,
  overdue: Date,
  limit: number,
): Promise<ObjectId[]> {
  const docs = await collection
    .find({ ...filter, next_attempt_at: { $lte: overdue } } as Filter<T>, { projection: { _id: 1 } })
    .limit(limit)
    .toArray();
  return docs.map((d) => d._id as ObjectId);
}

/** The delay before retry `n` (from 0), min(base × 2^n, cap): a receiver that is down is not hammered, one that is back is soon tried again. */
export function backoff(base: number, n: number, cap: number): number {
  return Math.min(base * 2 ** n, cap);
}
