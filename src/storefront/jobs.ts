import { defineSweep } from '../job.js';
import { sweepExpiredCarts } from './carts.js';
import { finishStrandedCheckouts } from './checkout.js';

/** Consumes (or gives back) a cart whose checkout stopped while holding it (docs/storefront.md, Checkout). */
export const FinishCheckouts = defineSweep('maintenance.finish-checkouts', finishStrandedCheckouts);
/** Carts past their expiry. */
export const SweepCarts = defineSweep('maintenance.sweep-carts', sweepExpiredCarts);

export const storefrontJobs = [FinishCheckouts, SweepCarts];
