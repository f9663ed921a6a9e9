import { z } from 'zod';
import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { TransactionsQuery } from './schemas.js';
import { listProviderSettings, listTransactions, updateProviderSettings } from './service.js';

/** Merchants only: provider credentials are not for apps yet. */
const access = storeScoped(null, { apps: false });

/** /v1/payments: a store's payment provider settings and its payment transactions. */
export function paymentRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/providers', { access, respond: 'page' }, ({ store }) => listProviderSettings(platform, store.id));

  // The body's schema is the named provider's: the service checks the name (404 if unknown), then the body.
  on.put('/providers/:provider', { access, body: z.unknown() }, ({ store, params, body }) => updateProviderSettings(platform, store.id, params.provider, body));

  on.get('/transactions', { access, query: TransactionsQuery, respond: 'page' }, ({ store, query }) => listTransactions(platform, store.id, query));

  return on.router;
}
