import type { Db, ObjectId } from 'mongodb';
import { countsBy, type IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';
import type { Leased } from '../../work/lease.js';

export const BULK_OPERATIONS = 'bulk_operations';

export const BULK_STATUSES = ['created', 'running', 'completed', 'failed', 'canceling', 'canceled', 'expired'] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];
/** The states an operation ends in (expired comes later, from completed, failed or canceled). */
export const FINISHED: readonly BulkStatus[] = ['completed', 'failed', 'canceled'];

/** Who started it: the merchant, or an app installation (its scopes at each run apply to every field). */
export type BulkCaller = { type: 'merchant'; id: ObjectId } | { type: 'app'; id: ObjectId; app_id: ObjectId };

/** Where the export stands after its last part: what a resumed run starts from (docs/bulk.md, Resuming). */
export type BulkCheckpoint = {
  /** The multipart upload of the file, once started. */
  upload_id: string | null;
  /** The parts written, in order. */
  parts: { partNumber: number; etag: string }[];
  /** The last root object the written parts hold (its REST id), or null before any. */
  after_root_id: string | null;
  object_count: number;
  root_object_count: number;
  bytes: number;
  /**
   * Set once every part is written and the export is finishing (how, and why if it failed): a
   * worker that dies now is resumed straight into the finish (completing an upload twice
   * answers the same file), never into writing parts to an upload already completed.
   */
  finishing?: { outcome: 'completed' | 'failed' | 'canceled'; error_code: string | null; error_message: string | null } | null;
};

/**
 * A bulk operation (docs/bulk.md): an admin GraphQL query exported as JSONL to object storage by
 * the bulk worker. `running_key` is `<store>|<caller>` while it is not finished (one running per
 * caller: a unique index), and its own id once finished.
 */
export type BulkOperationDocument = Leased & {
  store_id: ObjectId;
  caller: BulkCaller;
  running_key: string;
  query: string;
  status: BulkStatus;
  /** Root objects there were when it started: what progress is a share of. */
  estimated_root_count: number;
  checkpoint: BulkCheckpoint;
  /**
   * Bulk workers that died holding it (their lease ran out, never given back) since it last wrote
   * a part: at MAX_WORKER_DEATHS it fails instead of running again (docs/bulk.md, The export).
   */
  worker_deaths: number;
  /** The finished file (or, failed or canceled, the partial one) and when its URL lapses. */
  file: { key: string; size: number; partial: boolean; expires_at: Date } | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
} & CarriesEvents;

export const bulkIndexes: IndexDeclaration[] = [
  {
    collection: BULK_OPERATIONS,
    indexes: [
      { key: { running_key: 1 }, name: 'running_key_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { status: 1, lease_until: 1 }, name: 'status_lease_until' },
      { key: { 'file.expires_at': 1 }, name: 'file_expires_at' },
    ],
  },
];

export const bulkOperations = (db: Db) => db.collection<BulkOperationDocument>(BULK_OPERATIONS);

/** The bulk part of the operators' overview (docs/operations.md): operations in flight, by status (the `status_lease_until` index). */
export async function bulkOverview(db: Db) {
  return {
    bulk_operations: await countsBy(bulkOperations(db), { created: { status: 'created' }, running: { status: 'running' }, canceling: { status: 'canceling' } }),
  };
}
