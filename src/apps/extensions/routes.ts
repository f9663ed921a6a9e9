import type { AppPrincipal, AppRouter, MerchantPrincipal } from '../../http/context.js';
import { routes, storeScoped } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { z } from 'zod';
import { IdString } from '../../ids.js';
import { functionRunLog, MAX_KEPT_RUNS } from '../function-runs/runs.js';
import { listRegistry } from './listing.js';
import { updateRegistration, type RegistryCaller } from './registry.js';
import { UpdateRegistrationBody } from './schemas.js';

/** The store's merchant, or an app with its token (its own installation only). */
const merchantOrApp = storeScoped(null);
const merchantStore = storeScoped(null, { apps: false });

/** The merchant, or the app whose token it is (its own installation only). */
const callerOf = (principal: MerchantPrincipal | AppPrincipal): RegistryCaller =>
  principal.kind === 'app' ? { kind: 'app', installationId: principal.installationId } : { kind: 'merchant' };

const RunLogQuery = z.strictObject({
  registration_id: IdString('registration').optional(),
  limit: z.coerce.number().int().min(1).max(MAX_KEPT_RUNS).default(50),
});

const ANSWERS = {
  conflict: {
    code: 'registration_version_conflict',
    message: 'The row changed since it was read; apply your change to the row returned here and send its version',
  },
  revoked: {
    code: 'registration_revoked',
    message: 'The row is revoked (its app was uninstalled, or its new version dropped it); a revoked row never comes back',
  },
} as const;

/** /v1/app-store/installations/:id/extensions and …/functions: an installation's extension registry (docs/extensions.md). */
export function extensionRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/:id/extensions', { access: merchantOrApp }, ({ principal, store, params }) => listRegistry(platform, store, params.id, callerOf(principal)));

  // The Checkout Functions' figures and run log: the merchant's in full, the app's without the shopper's cart, customer or error text.
  on.get('/:id/functions/runs', { access: merchantOrApp, query: RunLogQuery, cache: 'no-store' }, ({ principal, store, params, query }) =>
    functionRunLog(platform, store.id, params.id, callerOf(principal), query),
  );

  for (const [segment, functions] of [
    ['extensions', false],
    ['functions', true],
  ] as const) {
    on.patch(
      `/:id/${segment}/:registrationId`,
      { access: merchantStore, body: UpdateRegistrationBody, respond: 'raw' },
      async ({ ctx, principal, store, params, body }) => {
        const done = await updateRegistration(platform, {
          storeId: store.id,
          installationId: params.id,
          registrationId: params.registrationId,
          merchantId: principal.merchantId,
          functions,
          body,
        });
        if (done.outcome === 'updated') {
          ctx.status = 200;
          ctx.body = { data: done.registration };
          return;
        }
        // Like a stale editor draft: the error, with the row as it is now.
        ctx.status = 409;
        ctx.body = { error: { ...ANSWERS[done.outcome], request_id: ctx.state.requestId }, data: done.registration };
      },
    );
  }

  return on.router;
}
