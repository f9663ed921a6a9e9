import { ObjectId, type Filter } from 'mongodb';
import { z } from 'zod';
import { notFound, PlatformError } from '../errors.js';
import { IdString, parseObjectId } from '../ids.js';
import { findPage, PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { blockRefusal, parseRange, rangeIncludes } from './addresses.js';
import { forgetInForce } from './in-force.js';
import { presentEnforcement, type EnforcementView } from './present.js';
import { ENFORCEMENT_KINDS, enforcementEvents, OPERATOR_KINDS, PLATFORM_KINDS, type EnforcementEventDocument } from './models.js';

/** What the security domain asks of others (wired in src/modules.ts): whether an app exists, for a suspension to name one. */
export type SecurityDeps = { appExists(platform: Platform, appId: string): Promise<boolean> };

const Reason = z.string().trim().min(1).max(500);

/** An IPv4 or IPv6 range (a bare address is its /32 or /128); what it may cover is enforce's question. */
const Cidr = z
  .string()
  .trim()
  .max(64)
  .transform((raw, ctx) => {
    const range = parseRange(raw);
    if (!range) {
      ctx.addIssue({ code: 'custom', message: 'must be an IPv4 or IPv6 address range such as 203.0.113.0/24 or 2001:db8::/32' });
      return z.NEVER;
    }
    return range;
  });

export const EnforceBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('suspend_app'), app_id: IdString('app'), reason: Reason }),
  z.strictObject({
    action: z.literal('block_address_range'),
    cidr: Cidr,
    reason: Reason,
    /** Until undone when absent; at most a year. */
    expires_in_minutes: z.number().int().min(1).max(525_600).optional(),
  }),
]);
export type EnforceBody = z.infer<typeof EnforceBody>;

export const UndoBody = z.strictObject({ reason: Reason });

export const EnforcementListQuery = PageQuery.extend({
  kind: z.enum(ENFORCEMENT_KINDS).optional(),
  active: z.enum(['true', 'false']).optional(),
}).strict();

/**
 * `POST /v1/operations/runtime/security/enforcement-events`: an operator suspends an app or blocks
 * an address range. Applied in this process at once and in every other within a second (in-force.ts).
 */
export async function enforce(platform: Platform, deps: SecurityDeps, operatorId: string, callerIp: string, body: EnforceBody): Promise<EnforcementView> {
  const now = platform.clock.now();
  const base = {
    _id: new ObjectId(),
    actor: new ObjectId(operatorId),
    reason: body.reason,
    client_address: callerIp,
    created_at: now,
    undone_at: null,
    undone_by: null,
    undo_reason: null,
  };
  let doc: EnforcementEventDocument;
  if (body.action === 'suspend_app') {
    if (!(await deps.appExists(platform, body.app_id))) throw notFound('App');
    const suspended = await enforcementEvents(platform.db).findOne(
      { kind: 'app_suspended', undone_at: null, 'subject.app_id': body.app_id },
      { projection: { _id: 1 } },
    );
    if (suspended) {
      throw new PlatformError(
        'conflict',
        'app_already_suspended',
        `This app is already suspended (enforcement event ${suspended._id.toHexString()}); undo that one first`,
      );
    }
    doc = { ...base, kind: 'app_suspended', subject: { app_id: body.app_id }, expires_at: null };
  } else {
    const refusal = blockRefusal(body.cidr);
    if (refusal) throw new PlatformError('invalid_data', refusal.code, refusal.message, { details: [`body.cidr: ${refusal.message}`] });
    // An operator behind the range would lock themselves (or, behind a proxy the platform does not trust, everyone) out.
    if (rangeIncludes(body.cidr, callerIp)) {
      const message = `${body.cidr.cidr} includes the address this request comes from (${callerIp})`;
      throw new PlatformError('invalid_data', 'block_includes_own_address', message, { details: [`body.cidr: ${message}`] });
    }
    const expires = body.expires_in_minutes ? new Date(now.getTime() + body.expires_in_minutes * 60_000) : null;
    doc = { ...base, kind: 'address_range_blocked', subject: { cidr: body.cidr.cidr }, expires_at: expires };
  }
  await enforcementEvents(platform.db).insertOne(doc);
  forgetInForce(platform);
  platform.log.warn({ event: 'security.enforced', kind: doc.kind, enforcement_id: doc._id.toHexString(), operator_id: operatorId, ...doc.subject });
  return presentEnforcement(doc, now);
}

/** `POST …/enforcement-events/:id/undo`: an operator's enforcement ends, once, with who ended it, when and why. */
export async function undoEnforcement(platform: Platform, operatorId: string, enforcementId: string, reason: string): Promise<EnforcementView> {
  const id = parseObjectId(enforcementId);
  const found = id ? await enforcementEvents(platform.db).findOne({ _id: id }) : null;
  if (!found) throw notFound('Enforcement event');
  if (!(OPERATOR_KINDS as readonly string[]).includes(found.kind)) {
    throw new PlatformError('conflict', 'enforcement_not_undoable', `A ${found.kind} event records what the platform did; there is nothing in force to undo`);
  }
  const now = platform.clock.now();
  const undone = await enforcementEvents(platform.db).findOneAndUpdate(
    { _id: found._id, undone_at: null },
    { $set: { undone_at: now, undone_by: new ObjectId(operatorId), undo_reason: reason } },
    { returnDocument: 'after' },
  );
  if (!undone) throw new PlatformError('conflict', 'enforcement_already_undone', 'This enforcement was already undone');
  forgetInForce(platform);
  platform.log.warn({ event: 'security.undone', kind: undone.kind, enforcement_id: enforcementId, operator_id: operatorId });
  return presentEnforcement(undone, now);
}

export async function getEnforcement(platform: Platform, enforcementId: string): Promise<EnforcementView> {
  const id = parseObjectId(enforcementId);
  const doc = id ? await enforcementEvents(platform.db).findOne({ _id: id }) : null;
  if (!doc) throw notFound('Enforcement event');
  return presentEnforcement(doc, platform.clock.now());
}

/** Newest first, by kind and whether in force. */
export async function listEnforcements(platform: Platform, query: z.infer<typeof EnforcementListQuery>) {
  const now = platform.clock.now();
  const and: Filter<EnforcementEventDocument>[] = [];
  if (query.kind) and.push({ kind: query.kind });
  if (query.active === 'true') and.push({ kind: { $in: [...OPERATOR_KINDS] }, undone_at: null, $or: [{ expires_at: null }, { expires_at: { $gt: now } }] });
  if (query.active === 'false') and.push({ $or: [{ kind: { $in: [...PLATFORM_KINDS] } }, { undone_at: { $ne: null } }, { expires_at: { $lte: now } }] });
  if (query.cursor) and.push({ _id: { $lt: query.cursor } });
  const { items, nextCursor } = await findPage(enforcementEvents(platform.db), and.length ? { $and: and } : {}, query.limit, -1);
  return { items: items.map((doc) => presentEnforcement(doc, now)), nextCursor };
}
