import type { Module } from '../module.js';
import { SECURITY_ERROR_CODES } from './errors.js';
import { refuseBlockedAddress } from './in-force.js';
import { drainRecords, recordEnforcement } from './record.js';
import { securityRoutes } from './routes.js';
import type { SecurityDeps } from './service.js';
import { securityIndexes } from './models.js';
export { appSuspendedError, isAppSuspended, suspendedAppIds } from './in-force.js';
export { recordEnforcement, type PlatformEnforcement } from './record.js';
// What the operator console (src/console) reads and acts through: the operations API's own services.
export { EnforcementListQuery, getEnforcement, listEnforcements, undoEnforcement, UndoBody } from './service.js';
export type { EnforcementView } from './present.js';
export { ENFORCEMENT_KINDS } from './models.js';

/**
 * Security enforcement (docs/operations.md, Security enforcement): what the platform enforced by
 * itself, recorded as it happens by the domains that enforce it (`recordEnforcement`), and what an
 * operator enforces and undoes: a suspended app (its tokens refused, installs and token requests
 * refused, its webhook deliveries paused) and blocked address ranges (refused before any route).
 */
export function securityModule(deps: SecurityDeps): Module {
  return {
    name: 'security',
    errorCodes: SECURITY_ERROR_CODES,
    indexes: securityIndexes,
    routes: [{ path: '/v1/operations/runtime/security', router: securityRoutes(deps) }],
    requestGuard: refuseBlockedAddress,
    budgetRefusalObserver: (platform, { principal, store, ip }) =>
      recordEnforcement(platform, {
        kind: 'request_budget_exceeded',
        subject: {
          store_id: store.id,
          ...(principal.kind === 'app' ? { app_id: principal.appId, installation_id: principal.installationId } : {}),
          ...(principal.kind === 'merchant' ? { merchant_id: principal.merchantId } : {}),
        },
        reason: "The caller's request budget on the store was spent: its requests are refused with 429 rate_limited until it refills",
        clientAddress: ip,
      }),
    close: drainRecords,
  };
}
