import { defineSweep } from '../queue.js';

/** The storefront's sweeps (handlers: jobs/storefront.ts). */
/** Consumes (or gives back) a cart whose checkout stopped while holding it (docs/storefront.md, Checkout). */
export const FinishCheckouts = defineSweep('maintenance.finish-checkouts');
/** Carts past their expiry. */
export const SweepCarts = defineSweep('maintenance.sweep-carts');

export const storefrontJobs = [FinishCheckouts, SweepCarts];
