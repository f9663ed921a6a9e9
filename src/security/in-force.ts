import { BlockList } from 'node:net';
import { ObjectId, type Db } from 'mongodb';
import { databaseDown } from '../db.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { addressOf, blockRefusal, parseRange } from './addresses.js';
import { enforcementEvents, OPERATOR_KINDS } from './models.js';

/**
 * What operators have in force, as each process knows it: the suspended apps and the blocked
 * address ranges. Read from the database (the `kind_undone_at` index) at most once a second per
 * process, on demand, so a change applies everywhere within about a second and a process that is
 * told of it (the one that made it) at once. Every request consults it, so between reads it is a
 * lookup in memory.
 */
export type InForce = {
  suspendedApps: ReadonlySet<string>;
  suspendedAppIds: readonly ObjectId[];
  blocks: BlockList;
  blockCount: number;
  /** Stored blocks not enforced, by id: ranges the rules refuse now (an older release took them). */
  ignoredBlocks: ReadonlySet<string>;
  /** performance.now() when it was read. */
  readAt: number;
};

/** How long a process trusts what it read (docs/operations.md, Security enforcement). */
export const IN_FORCE_FRESH_MS = 1000;
/** Operator enforcements read at most (far beyond any real use; a warning is logged when reached). */
const READ_MAX = 10_000;

type Cache = { value: InForce | null; reading: Promise<InForce> | null };
const caches = new WeakMap<Db, Cache>();

export async function inForce(platform: Platform): Promise<InForce> {
  let cache = caches.get(platform.db);
  if (!cache) {
    cache = { value: null, reading: null };
    caches.set(platform.db, cache);
  }
  if (cache.value && performance.now() - cache.value.readAt < IN_FORCE_FRESH_MS) return cache.value;
  // Known down: what was known stands, rather than every request waiting for a read that cannot answer.
  if (databaseDown(platform.db)) return cache.value ?? nothing();
  const own = cache;
  own.reading ??= read(platform)
    .catch((err: Error) => {
      // The database did not answer: keep what was known (nothing, at first) and try again in a second.
      platform.log.warn({ event: 'security.in_force_unreadable', err: err.message });
      return { ...(own.value ?? nothing()), readAt: performance.now() };
    })
    .then((value) => {
      for (const id of value.ignoredBlocks) {
        if (!own.value?.ignoredBlocks.has(id)) platform.log.warn({ event: 'security.block_ignored', enforcement_id: id });
      }
      own.value = value;
      own.reading = null;
      return value;
    });
  return own.reading;
}

/** After this process changed what is in force: read it again at the next request. */
export function forgetInForce(platform: Platform): void {
  caches.delete(platform.db);
}

const nothing = (): InForce => ({ suspendedApps: new Set(), suspendedAppIds: [], blocks: new BlockList(), blockCount: 0, ignoredBlocks: new Set(), readAt: 0 });

async function read(platform: Platform): Promise<InForce> {
  // Stamped when the read starts: what it answers is at most that old, however long the read took.
  const readAt = performance.now();
  const docs = await enforcementEvents(platform.db)
    .find({ kind: { $in: [...OPERATOR_KINDS] }, undone_at: null }, { projection: { kind: 1, subject: 1, expires_at: 1 } })
    .limit(READ_MAX)
    .toArray();
  if (docs.length === READ_MAX) platform.log.warn({ event: 'security.in_force_truncated', read: READ_MAX });
  const now = platform.clock.now();
  const suspended = new Set<string>();
  const blocks = new BlockList();
  let blockCount = 0;
  const ignored = new Set<string>();
  for (const doc of docs) {
    if (doc.expires_at && doc.expires_at <= now) continue;
    if (doc.kind === 'app_suspended' && doc.subject.app_id) suspended.add(doc.subject.app_id);
    if (doc.kind === 'address_range_blocked' && doc.subject.cidr) {
      const range = parseRange(doc.subject.cidr);
      if (!range) continue;
      // A block that would lock out every IPv4 client or loopback is not enforced, however it got stored.
      if (blockRefusal(range)) {
        ignored.add(doc._id.toHexString());
        continue;
      }
      blocks.addSubnet(range.address, range.prefix, range.family);
      blockCount++;
    }
  }
  return {
    suspendedApps: suspended,
    suspendedAppIds: [...suspended].map((id) => new ObjectId(id)),
    blocks,
    blockCount,
    ignoredBlocks: ignored,
    readAt,
  };
}

export const appSuspendedError = () =>
  new PlatformError('not_allowed', 'app_suspended', 'This app is suspended by the platform; its tokens, installs and webhooks are paused');

/** Whether the app is suspended now (as this process knows, at most a second old). */
export async function isAppSuspended(platform: Platform, appId: string): Promise<boolean> {
  return (await inForce(platform)).suspendedApps.has(appId);
}

/** The suspended apps' ids (a webhook delivery of one is not claimed: it waits). */
export async function suspendedAppIds(platform: Platform): Promise<readonly ObjectId[]> {
  return (await inForce(platform)).suspendedAppIds;
}

/** The web app's guard (src/module.ts requestGuard): 403 `address_blocked` for a client inside a blocked range. */
export async function refuseBlockedAddress(platform: Platform, request: { ip: string }): Promise<void> {
  const now = await inForce(platform);
  if (now.blockCount === 0) return;
  const client = addressOf(request.ip);
  if (client && now.blocks.check(client.address, client.family)) {
    throw new PlatformError('not_allowed', 'address_blocked', 'Requests from this address are blocked by the platform');
  }
}
