import {
  CheckAppQuality,
  RevokeExtensions,
  SweepAppQuality,
  SweepExtensionRevocations,
  runQualityChecks,
  runRevocation,
  sweepQualityChecks,
  sweepRevocations,
} from '../src/apps/index.js';
import { checkAppBlockRendering } from '../src/rendering/index.js';
import { bindJob } from './types.js';

/**
 * The extensions worker: revoking an uninstalled installation's registry rows and the sweep for
 * revocations whose job was lost; an app's quality checks (its app blocks rendered by the
 * rendering domain, its privacy policy URL fetched) and their sweep.
 */
export const extensionHandlers = [
  bindJob(RevokeExtensions, async (platform, { installation_id }) => ({ installation_id, outcome: await runRevocation(platform, installation_id) })),
  bindJob(SweepExtensionRevocations, async (platform) => ({ revocations_completed: await sweepRevocations(platform) })),
  bindJob(CheckAppQuality, async (platform, { app_id }) => ({ app_id, outcome: await runQualityChecks(platform, app_id, checkAppBlockRendering) })),
  bindJob(SweepAppQuality, async (platform) => ({ checks_requested: await sweepQualityChecks(platform) })),
];
