import type { Filter } from 'mongodb';
import type { Platform } from '../../platform.js';
import { objectStorage } from '../../storage/index.js';
import { ExportBulkOperation } from './export.js';
import { bulkOperations, FINISHED, type BulkOperationDocument } from './models.js';

/** The operations one sweep takes up or expires at most (the next sweep takes the rest). */
const SWEEP_BATCH = 100;

/**
 * The `bulk.sweep` backstop (docs/bulk.md, The sweep): an unfinished operation nobody holds and
 * nobody touched for a lease's length (its job was lost, or its worker died and the lease ran
 * out) gets its `bulk.export` again, which resumes it from its checkpoint; a finished operation
 * whose URL has lapsed is `expired` and its file deleted. Safe to run twice and beside running
 * exports: the export takes the lease, the expiry matches only what is still finished.
 */
export async function sweepBulkOperations(platform: Platform): Promise<{ resumed: number; expired: number }> {
  const coll = bulkOperations(platform.db);
  const now = platform.clock.now();
  const quiet = new Date(now.getTime() - platform.config.bulk.leaseMs);
  const stranded = await coll
    .find(
      {
        status: { $in: ['created', 'running', 'canceling'] },
        $or: [{ lease_until: null }, { lease_until: { $lte: now } }],
        updated_at: { $lte: quiet },
      } as Filter<BulkOperationDocument>,
      { projection: { _id: 1 } },
    )
    .limit(SWEEP_BATCH)
    .toArray();
  let resumed = 0;
  for (const op of stranded) {
    // Touched as it is enqueued: the next sweeps leave it for another lease's length (no pile of
    // jobs while no bulk worker runs), and a second sweep beside this one enqueues nothing.
    const touched = await coll.updateOne(
      { _id: op._id, updated_at: { $lte: quiet }, $or: [{ lease_until: null }, { lease_until: { $lte: now } }] } as Filter<BulkOperationDocument>,
      {
        $set: { updated_at: now },
      },
    );
    if (touched.modifiedCount === 0) continue;
    await platform.jobs.enqueue(ExportBulkOperation, { operation_id: op._id.toHexString() });
    platform.log.info({ event: 'bulk.resume_enqueued', operation_id: op._id.toHexString() });
    resumed++;
  }

  const lapsed = await coll
    .find({ status: { $in: [...FINISHED] }, 'file.expires_at': { $lte: now } } as Filter<BulkOperationDocument>, { projection: { _id: 1, file: 1 } })
    .limit(SWEEP_BATCH)
    .toArray();
  const storage = objectStorage(platform);
  let expired = 0;
  for (const op of lapsed) {
    await storage.delete(op.file!.key);
    const written = await coll.updateOne({ _id: op._id, status: { $in: [...FINISHED] } } as Filter<BulkOperationDocument>, {
      $set: { status: 'expired', updated_at: now },
    });
    expired += written.modifiedCount;
  }
  if (expired) platform.log.info({ event: 'bulk.expired', count: expired });
  return { resumed, expired };
}
