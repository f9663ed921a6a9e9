import { z } from 'zod';
import { IdString } from '../../ids.js';
import { defineBackstop, defineJob } from '../../queue.js';

/** The bulk worker's jobs (handlers: jobs/bulk.ts). Job names are a public contract: never rename them. */
/** Exports one bulk operation, under its lease, from its checkpoint (docs/bulk.md, The export). */
export const ExportBulkOperation = defineJob({
  name: 'bulk.export',
  group: 'bulk',
  concurrency: 2,
  payload: z.object({ operation_id: IdString('bulk operation') }),
});
/** The backstop: operations whose job was lost or whose worker died, and files whose URL lapsed. */
export const SweepBulkOperations = defineBackstop('bulk.sweep', 'bulk', (config) => config.bulk.sweepIntervalMs);

export const bulkJobs = [ExportBulkOperation, SweepBulkOperations];
