import type { GraphQLSchema } from 'graphql';
import { ObjectId, type Filter } from 'mongodb';
import { countCollections, countProducts } from '../../catalog/index.js';
import { countCustomers } from '../../customers/index.js';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError, notFound } from '../../errors.js';
import { principalKey, type AppPrincipal, type MerchantPrincipal } from '../../http/context.js';
import { parseObjectId } from '../../ids.js';
import { countOrders } from '../../orders/index.js';
import { findPage, type Page } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { objectStorage } from '../../storage/index.js';
import { toGlobalId } from '../ids.js';
import { ExportBulkOperation } from './export.js';
import { bulkOperationFacts, scopeOfType } from './facts.js';
import { planBulkQuery, type BulkRoot } from './query.js';
import { bulkOperations, FINISHED, type BulkOperationDocument } from './models.js';

/** The operations a list shows at most (the newest first). */
export const MAX_LISTED = 250;

export type BulkCallerPrincipal = MerchantPrincipal | AppPrincipal;

/** The store's count of a root connection's objects when an operation starts: what its progress is a share of. */
const ESTIMATES: Record<BulkRoot, (platform: Platform, storeId: string) => Promise<number>> = {
  products: countProducts,
  collections: countCollections,
  customers: countCustomers,
  orders: countOrders,
};

const runningKey = (storeId: string, principal: BulkCallerPrincipal) => `${storeId}|${principalKey(principal)}`;

export type BulkOperationView = Awaited<ReturnType<typeof presentBulkOperation>>;

/** An operation as GraphQL and REST answer it (docs/bulk.md, The operation): its facts, and its file's URL presigned now, until the file expires. */
export async function presentBulkOperation(platform: Platform, op: BulkOperationDocument) {
  const now = platform.clock.now();
  const file = op.file && op.file.expires_at > now && op.status !== 'expired' ? op.file : null;
  const url = file ? await objectStorage(platform).url(file.key, Math.max(1, Math.floor((file.expires_at.getTime() - now.getTime()) / 1000))) : null;
  const done = op.status === 'completed';
  return {
    ...bulkOperationFacts(op),
    url: done ? url : null,
    partial_data_url: done ? null : url,
    url_expires_at: file ? file.expires_at.toISOString() : null,
  };
}

/** A refusal to start, as a user error (GraphQL) or a 400/409 (REST). */
export type StartRefusal = { code: 'invalid_query' | 'access_denied' | 'operation_in_progress'; message: string; running_id?: string; scope?: string };

/**
 * Start a bulk operation (`bulkOperationRunQuery`, `POST /v1/bulk-operations`): the query is
 * checked (its shape, and for an app every field's scope), at most one per (store, caller) runs
 * (the running one's id otherwise), its root count is taken, and `bulk.export` is enqueued.
 * Nothing starts on a refusal.
 */
export async function startBulkOperation(
  platform: Platform,
  storeId: string,
  principal: BulkCallerPrincipal,
  query: string,
  schema: GraphQLSchema,
): Promise<{ operation: BulkOperationView } | { refused: StartRefusal[] }> {
  const planned = planBulkQuery(schema, query, scopeOfType);
  if ('problems' in planned) return { refused: planned.problems.map((p) => ({ code: 'invalid_query' as const, message: p.message })) };
  if (principal.kind === 'app') {
    const missing = [...planned.plan.scopes].filter((s) => s === 'merchant' || !principal.scopes.includes(s));
    if (missing.length)
      return {
        refused: missing.map((s) => ({
          code: 'access_denied' as const,
          message: s === 'merchant' ? 'The query reads what only the merchant reads' : `The query needs the \`${s}\` access scope`,
          ...(s === 'merchant' ? {} : { scope: s }),
        })),
      };
  }
  const now = platform.clock.now();
  const doc: BulkOperationDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(storeId),
    caller:
      principal.kind === 'app'
        ? { type: 'app', id: new ObjectId(principal.installationId), app_id: new ObjectId(principal.appId) }
        : { type: 'merchant', id: new ObjectId(principal.merchantId) },
    running_key: runningKey(storeId, principal),
    query,
    status: 'created',
    estimated_root_count: await ESTIMATES[planned.plan.root](platform, storeId),
    checkpoint: { upload_id: null, parts: [], after_root_id: null, object_count: 0, root_object_count: 0, bytes: 0 },
    worker_deaths: 0,
    file: null,
    error_code: null,
    error_message: null,
    lease_until: null,
    lease_owner: null,
    created_at: now,
    started_at: null,
    completed_at: null,
    updated_at: now,
  };
  try {
    await bulkOperations(platform.db).insertOne(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const running = await bulkOperations(platform.db).findOne({ running_key: doc.running_key });
    return {
      refused: [
        {
          code: 'operation_in_progress',
          message: `A bulk operation of yours is already running in this store (${running ? toGlobalId('BulkOperation', running._id.toHexString()) : 'finishing'}): wait for it or cancel it`,
          ...(running ? { running_id: running._id.toHexString() } : {}),
        },
      ],
    };
  }
  await platform.jobs.enqueue(ExportBulkOperation, { operation_id: doc._id.toHexString() }).catch((err: Error) => {
    platform.log.warn({ event: 'bulk.export_not_enqueued', operation_id: doc._id.toHexString(), err: err.message }); // the sweep takes it up
  });
  platform.log.info({ event: 'bulk.created', operation_id: doc._id.toHexString(), store_id: storeId, caller: principalKey(principal) });
  return { operation: await presentBulkOperation(platform, doc) };
}

/** Whose operations a caller sees: a merchant the store's, an app its own. */
function visibleTo(storeId: string, principal: BulkCallerPrincipal): Filter<BulkOperationDocument> {
  const store_id = new ObjectId(storeId);
  return principal.kind === 'app' ? { store_id, 'caller.type': 'app', 'caller.id': new ObjectId(principal.installationId) } : { store_id };
}

export async function getBulkOperation(platform: Platform, storeId: string, principal: BulkCallerPrincipal, id: string): Promise<BulkOperationView> {
  const _id = parseObjectId(id);
  const op = _id ? await bulkOperations(platform.db).findOne({ ...visibleTo(storeId, principal), _id }) : null;
  if (!op) throw notFound('Bulk operation');
  return presentBulkOperation(platform, op);
}

/** The store's operations the caller sees, newest first (a backwards page: oldest first). */
export async function listBulkOperations(platform: Platform, storeId: string, principal: BulkCallerPrincipal, page: Page) {
  const { items, nextCursor } = await findPage(
    bulkOperations(platform.db),
    { ...visibleTo(storeId, principal), ...(page.cursor ? { _id: { [page.backwards ? '$gt' : '$lt']: page.cursor } } : {}) },
    Math.min(page.limit, MAX_LISTED),
    page.backwards ? 1 : -1,
  );
  return { items: await Promise.all(items.map((op) => presentBulkOperation(platform, op))), nextCursor };
}

/** The caller's running operation in the store, else its newest one, else null (Shopify's currentBulkOperation). */
export async function currentBulkOperation(platform: Platform, storeId: string, principal: BulkCallerPrincipal): Promise<BulkOperationView | null> {
  const coll = bulkOperations(platform.db);
  const running = await coll.findOne({ running_key: runningKey(storeId, principal) });
  if (running) return presentBulkOperation(platform, running);
  const own =
    principal.kind === 'app'
      ? { store_id: new ObjectId(storeId), 'caller.id': new ObjectId(principal.installationId) }
      : { store_id: new ObjectId(storeId), 'caller.type': 'merchant', 'caller.id': new ObjectId(principal.merchantId) };
  const [newest] = await coll.find(own).sort({ _id: -1 }).limit(1).toArray();
  return newest ? presentBulkOperation(platform, newest) : null;
}

/**
 * Cancel an operation: `canceling` until the bulk worker stops it, within one part of the file,
 * and offers what it wrote as the partial file (`canceled`). A finished one cannot be canceled
 * (409 with its state).
 */
export async function cancelBulkOperation(platform: Platform, storeId: string, principal: BulkCallerPrincipal, id: string): Promise<BulkOperationView> {
  const _id = parseObjectId(id);
  if (!_id) throw notFound('Bulk operation');
  const filter = { ...visibleTo(storeId, principal), _id };
  const op = await bulkOperations(platform.db).findOneAndUpdate(
    { ...filter, status: { $in: ['created', 'running'] } } as Filter<BulkOperationDocument>,
    { $set: { status: 'canceling', updated_at: platform.clock.now() } },
    { returnDocument: 'after' },
  );
  if (op) {
    platform.log.info({ event: 'bulk.canceling', operation_id: id });
    return presentBulkOperation(platform, op);
  }
  const current = await bulkOperations(platform.db).findOne(filter);
  if (!current) throw notFound('Bulk operation');
  if (current.status === 'canceling') return presentBulkOperation(platform, current);
  throw new PlatformError('conflict', 'bulk_operation_finished', `This bulk operation is ${current.status}; only a created or running one can be canceled`);
}

export const isFinished = (status: BulkOperationDocument['status']) => FINISHED.includes(status) || status === 'expired';
