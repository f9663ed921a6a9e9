import { RevokeExtensions, SweepExtensionRevocations, runRevocation, sweepRevocations } from '../src/apps/index.js';
import { bindJob } from './types.js';

/** The extensions worker: revoking an uninstalled installation's registry rows, and the sweep for revocations whose job was lost. */
export const extensionHandlers = [
  bindJob(RevokeExtensions, async (platform, { installation_id }) => ({ installation_id, outcome: await runRevocation(platform, installation_id) })),
  bindJob(SweepExtensionRevocations, async (platform) => ({ revocations_completed: await sweepRevocations(platform) })),
];
