import { z } from 'zod';
import { IdString } from '../ids.js';
import { defineBackstop, defineJob, defineSweep } from '../queue.js';

/** The app platform's jobs (handlers: jobs/sweeps.ts, jobs/extensions.ts). Job names are a public contract: never rename them. */
/** Expired authorization codes and tokens, refresh-token retry answers past their window, and spent session-token records. */
export const SweepOAuth = defineSweep('maintenance.sweep-oauth');
/** Sends an uninstalled app `shop.redact` once APP_SHOP_REDACT_DELAY_SECONDS have passed (docs/apps.md). */
export const SendShopRedactions = defineSweep('maintenance.app-shop-redact');
/** Keeps each Checkout Function's newest runs in the run log (docs/extensions.md, The run log). */
export const SweepFunctionRuns = defineSweep('maintenance.sweep-function-runs');
/** Revokes an uninstalled installation's extension and function rows (docs/extensions.md, Revocation). */
export const RevokeExtensions = defineJob({
  name: 'extensions.revoke',
  group: 'extensions',
  concurrency: 2,
  payload: z.object({ installation_id: IdString('installation') }),
});
/** The backstop: revocations whose job was lost or whose worker died (their lease ran out). */
export const SweepExtensionRevocations = defineBackstop('extensions.sweep', 'extensions', (config) => config.extensions.sweepIntervalMs);

/** Renders an app's declared theme app blocks and fetches its privacy policy URL: the quality gates the worker measures (docs/extensions.md, Quality gates). */
export const CheckAppQuality = defineJob({
  name: 'extensions.check-app-quality',
  group: 'extensions',
  concurrency: 4,
  payload: z.object({ app_id: IdString('app') }),
});
/** Asks for the checks of published apps whose checks are missing, ran on another version, or are old. */
export const SweepAppQuality = defineBackstop('extensions.quality-sweep', 'extensions', (config) => config.extensions.qualitySweepIntervalMs);

export const appJobs = [SweepOAuth, SendShopRedactions, SweepFunctionRuns, RevokeExtensions, SweepExtensionRevocations, CheckAppQuality, SweepAppQuality];
