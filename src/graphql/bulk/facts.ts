import { TYPE_SCOPES } from '../admin/scopes.js';
import { toGlobalId } from '../ids.js';
import type { BulkOperationDocument } from './models.js';

/*
 * What the bulk service and the export both read of an operation (the export must not import
 * the service: the service enqueues the export's job, declared beside it in export.ts).
 */

/** How long the file's URL lives (S3's longest presigned URL): then the operation is `expired` and the file deleted. */
export const URL_LIFETIME_SECONDS = 7 * 24 * 3600;

/** The scope an app needs to read objects of a type (the admin resolvers' table); a merchant reads all. */
const NESTED_SCOPES = new Map([
  ['LineItem', 'read_orders'],
  ['InventoryLevel', 'read_inventory'],
  ['MediaImage', 'read_files'],
]);
export const scopeOfType = (type: string): string | null => (Object.hasOwn(TYPE_SCOPES, type) ? TYPE_SCOPES[type]! : (NESTED_SCOPES.get(type) ?? null));

export type BulkOperationFacts = ReturnType<typeof bulkOperationFacts>;

/**
 * An operation without its file's URLs: what `bulk_operation.finished` carries (a URL is a
 * bearer credential; an event is stored and may go to several subscriptions, so the receiver
 * reads the operation for it: docs/bulk.md, The finish webhook).
 */
export function bulkOperationFacts(op: BulkOperationDocument) {
  const cp = op.checkpoint;
  const done = op.status === 'completed';
  return {
    id: op._id.toHexString(),
    admin_graphql_api_id: toGlobalId('BulkOperation', op._id.toHexString()),
    status: op.status,
    query: op.query,
    root_object_count: cp.root_object_count,
    object_count: cp.object_count,
    estimated_root_count: op.estimated_root_count,
    progress: done ? 1 : op.estimated_root_count > 0 ? Math.min(0.99, cp.root_object_count / op.estimated_root_count) : 0,
    file_size: op.file?.size ?? null,
    error_code: op.error_code,
    error_message: op.error_message,
    started_by:
      op.caller.type === 'app' ? { type: 'app' as const, id: op.caller.app_id.toHexString() } : { type: 'merchant' as const, id: op.caller.id.toHexString() },
    created_at: op.created_at.toISOString(),
    completed_at: op.completed_at?.toISOString() ?? null,
  };
}
