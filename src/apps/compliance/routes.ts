import Router from '@koa/router';
import { PlatformError } from '../../errors.js';
import type { AppRouter } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import {
  ComplianceListQuery,
  CustomerDataRequestBody,
  CustomerRedactBody,
  ShopRedactBody,
  getComplianceRequest,
  listComplianceRequests,
  requestCompliance,
  type ComplianceInput,
} from './service.js';

/**
 * /v1/app-store/compliance: the compliance producer routes (spec 4.7, 5): merchant
 * authentication, the store in the body must be one the merchant owns, an Idempotency-Key is
 * required. docs/apps.md, Compliance webhooks.
 */
export function complianceRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  const producer = <T extends ComplianceInput>(
    path: string,
    topic: T['topic'],
    body: typeof CustomerDataRequestBody | typeof CustomerRedactBody | typeof ShopRedactBody,
  ) =>
    router.post(
      path,
      endpoint(platform, { access: 'merchant', body, idempotent: true, status: 201 }, async ({ ctx, merchant, body: input }) => {
        const store = await ctx.access.storeAccess(platform, merchant, input.store_id);
        if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
        return requestCompliance(platform, merchant.merchantId, store, ctx.get('Idempotency-Key') || undefined, { topic, body: input } as ComplianceInput);
      }),
    );
  producer('/customers/data-request', 'customers.data_request', CustomerDataRequestBody);
  producer('/customers/redact', 'customers.redact', CustomerRedactBody);
  producer('/shop/redact', 'shop.redact', ShopRedactBody);
  return router;
}

/** /v1/operations/compliance-requests: operators see every compliance request and each app's delivery state. */
export function complianceOperationsRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  router.get(
    '/',
    endpoint(platform, { access: 'operator', query: ComplianceListQuery, respond: 'page' }, ({ query }) => listComplianceRequests(platform, query)),
  );
  router.get(
    '/:id',
    endpoint(platform, { access: 'operator' }, ({ params }) => getComplianceRequest(platform, params.id!)),
  );
  return router;
}
