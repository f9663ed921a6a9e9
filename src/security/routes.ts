import type { AppRouter } from '../http/context.js';
import { clientIp } from '../http/client-address.js';
import { routes } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { EnforceBody, EnforcementListQuery, enforce, getEnforcement, listEnforcements, undoEnforcement, UndoBody, type SecurityDeps } from './service.js';

/** `/v1/operations/runtime/security/…` (docs/operations.md, Security enforcement): operators only. */
export function securityRoutes(deps: SecurityDeps) {
  return (platform: Platform): AppRouter => {
    const on = routes(platform);
    on.post('/enforcement-events', { access: 'operator', body: EnforceBody, idempotent: true, status: 201 }, ({ ctx, merchant, body }) =>
      enforce(platform, deps, merchant.merchantId, clientIp(ctx), body),
    );
    on.get('/enforcement-events', { access: 'operator', query: EnforcementListQuery, respond: 'page' }, ({ query }) => listEnforcements(platform, query));
    on.get('/enforcement-events/:id', { access: 'operator' }, ({ params }) => getEnforcement(platform, params.id));
    on.post('/enforcement-events/:id/undo', { access: 'operator', body: UndoBody }, ({ merchant, params, body }) =>
      undoEnforcement(platform, merchant.merchantId, params.id, body.reason),
    );
    return on.router;
  };
}
