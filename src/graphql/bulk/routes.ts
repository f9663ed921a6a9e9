import { z } from 'zod';
import { PlatformError, invalidInput } from '../../errors.js';
import type { AppRouter } from '../../http/context.js';
import { insufficientScope } from '../../http/auth.js';
import { routes, storeScoped } from '../../http/endpoint.js';
import { PageQuery } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { adminSchema } from '../admin/schema.js';
import { cancelBulkOperation, currentBulkOperation, getBulkOperation, listBulkOperations, startBulkOperation } from './service.js';

const StartBulkOperationBody = z.object({ query: z.string().min(1).max(20_000) }).strict();

/**
 * /v1/bulk-operations (docs/bulk.md, REST): the REST twin of `bulkOperationRunQuery`,
 * `bulkOperation(id:)`, `bulkOperations`, `currentBulkOperation` and `bulkOperationCancel`, for a
 * merchant (with `X-Store-Id`) or an app (the query's fields' scopes, checked when it starts).
 */
export function bulkRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const access = storeScoped(null);

  on.post('/', { access, body: StartBulkOperationBody, status: 201 }, async ({ store, principal, body }) => {
    const started = await startBulkOperation(platform, store.id, principal, body.query, adminSchema);
    if ('operation' in started) return started.operation;
    const [first] = started.refused;
    if (first!.code === 'access_denied') {
      throw first!.scope ? insufficientScope(first!.scope) : new PlatformError('not_allowed', 'insufficient_scope', first!.message);
    }
    if (first!.code === 'operation_in_progress')
      throw new PlatformError('conflict', 'bulk_operation_in_progress', first!.message, {
        details: first!.running_id ? [`running_id: ${first!.running_id}`] : [],
      });
    throw invalidInput(
      started.refused.map((r) => ({ path: 'query', message: r.message })),
      'invalid_bulk_query',
      'The query cannot run as a bulk operation',
    );
  });

  on.get('/', { access, query: PageQuery.strict(), respond: 'page' }, ({ store, principal, query }) =>
    listBulkOperations(platform, store.id, principal, query),
  );

  on.get('/current', { access }, async ({ store, principal }) => ({ bulk_operation: await currentBulkOperation(platform, store.id, principal) }));

  on.get('/:id', { access }, ({ store, principal, params }) => getBulkOperation(platform, store.id, principal, params.id));

  on.post('/:id/cancel', { access }, ({ store, principal, params }) => cancelBulkOperation(platform, store.id, principal, params.id));

  return on.router;
}
