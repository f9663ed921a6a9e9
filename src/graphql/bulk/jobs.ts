import { defineBackstop } from '../../job.js';
import { sweepBulkOperations } from './sweep.js';

/**
 * The bulk worker's backstop: operations whose job was lost or whose worker died, and files whose
 * URL lapsed. (`bulk.export` is declared beside the export it runs: export.ts.) Job names are a
 * public contract: never rename them.
 */
export const SweepBulkOperations = defineBackstop({
  name: 'bulk.sweep',
  group: 'bulk',
  every: (config) => config.bulk.sweepIntervalMs,
  run: (platform) => sweepBulkOperations(platform),
});
