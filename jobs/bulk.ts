import { ExportBulkOperation, runExport, SweepBulkOperations, sweepBulkOperations } from '../src/graphql/index.js';
import { bindJob } from './types.js';

/** The bulk worker's jobs: a bulk operation's export (resumed from its checkpoint), and the sweep for stranded and lapsed operations. */
export const bulkHandlers = [
  bindJob(ExportBulkOperation, async (platform, { operation_id }) => ({ operation_id, outcome: await runExport(platform, operation_id) })),
  bindJob(SweepBulkOperations, (platform) => sweepBulkOperations(platform)),
];
