import { defineSweep } from '../queue.js';

/** The app platform's sweeps (handlers: jobs/apps.ts). */
/** Expired authorization codes and tokens, refresh-token retry answers past their window, and spent session-token records. */
export const SweepOAuth = defineSweep('maintenance.sweep-oauth');
/** Sends an uninstalled app `shop.redact` once APP_SHOP_REDACT_DELAY_SECONDS have passed (docs/apps.md). */
export const SendShopRedactions = defineSweep('maintenance.app-shop-redact');

export const appJobs = [SweepOAuth, SendShopRedactions];
