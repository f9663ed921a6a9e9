import { defineBackstop, defineSweep } from '../job.js';
import { sendDueShopRedactions } from './compliance/service.js';
import { RevokeExtensions, sweepRevocations } from './extensions/revocation.js';
import { trimFunctionRuns } from './function-runs/runs.js';
import { sweepExpiredOAuth } from './oauth/tokens.js';
import { sweepQualityChecks } from './quality/checks.js';

/** Expired authorization codes and tokens, refresh-token retry answers past their window, and spent session-token records. */
export const SweepOAuth = defineSweep('maintenance.sweep-oauth', sweepExpiredOAuth);
/** Sends an uninstalled app `shop.redact` once APP_SHOP_REDACT_DELAY_SECONDS have passed (docs/apps.md). */
export const SendShopRedactions = defineSweep('maintenance.app-shop-redact', sendDueShopRedactions);
/** Keeps each Checkout Function's newest runs in the run log (docs/extensions.md, The run log). */
export const SweepFunctionRuns = defineSweep('maintenance.sweep-function-runs', trimFunctionRuns);
/** The backstop: revocations whose job was lost or whose worker died (their lease ran out). */
export const SweepExtensionRevocations = defineBackstop({
  name: 'extensions.sweep',
  group: 'extensions',
  every: (config) => config.extensions.sweepIntervalMs,
  run: async (platform) => ({ revocations_completed: await sweepRevocations(platform) }),
});
/** Asks for the checks of published apps whose checks are missing, ran on another version, or are old. */
export const SweepAppQuality = defineBackstop({
  name: 'extensions.quality-sweep',
  group: 'extensions',
  every: (config) => config.extensions.qualitySweepIntervalMs,
  run: async (platform) => ({ checks_requested: await sweepQualityChecks(platform) }),
});

/**
 * The app platform's jobs but one: its recurring ones here, `extensions.revoke` beside the
 * revocation it runs (extensions/revocation.ts). `extensions.check-app-quality` (quality/checks.ts)
 * needs the rendering domain's check: the module lists it given that (index.ts). Job names are a
 * public contract: never rename them.
 */
export const appJobs = [SweepOAuth, SendShopRedactions, SweepFunctionRuns, RevokeExtensions, SweepExtensionRevocations, SweepAppQuality];
