import { SendShopRedactions, SweepFunctionRuns, SweepOAuth, sendDueShopRedactions, sweepExpiredOAuth, trimFunctionRuns } from '../src/apps/index.js';
import { SweepExpiredCredentials, sweepExpiredCredentials } from '../src/auth/index.js';
import { SweepCustomerCredentials, sweepExpiredCustomerCredentials } from '../src/customers/index.js';
import { SweepCounters, SweepProcesses, sweepCounters, sweepProcesses } from '../src/operations/index.js';
import { RepairOrders, repairOrders } from '../src/orders/index.js';
import { SweepRateLimits, sweepExpiredRateLimits } from '../src/ratelimit/index.js';
import { FinishCheckouts, SweepCarts, finishStrandedCheckouts, sweepExpiredCarts } from '../src/storefront/index.js';
import { bindSweep } from './types.js';

/**
 * The domains' housekeeping sweeps, each declared by the domain that owns its records and run by
 * the maintenance group (one line each: a sweep's handler is the domain's sweep function).
 */
export const sweepHandlers = [
  bindSweep(SweepExpiredCredentials, sweepExpiredCredentials),
  bindSweep(SweepCustomerCredentials, sweepExpiredCustomerCredentials),
  bindSweep(SweepRateLimits, sweepExpiredRateLimits),
  bindSweep(RepairOrders, repairOrders),
  bindSweep(FinishCheckouts, finishStrandedCheckouts),
  bindSweep(SweepCarts, sweepExpiredCarts),
  bindSweep(SweepOAuth, sweepExpiredOAuth),
  bindSweep(SendShopRedactions, sendDueShopRedactions),
  bindSweep(SweepFunctionRuns, (platform) => trimFunctionRuns(platform)),
  bindSweep(SweepProcesses, sweepProcesses),
  bindSweep(SweepCounters, sweepCounters),
];
