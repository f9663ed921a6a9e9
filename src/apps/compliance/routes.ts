import type { AppRouter } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
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
  const on = routes(platform);
  const producer = <T extends ComplianceInput>(
    path: string,
    topic: T['topic'],
    body: typeof CustomerDataRequestBody | typeof CustomerRedactBody | typeof ShopRedactBody,
  ) =>
    on.post(path, { access: { storeFrom: 'body' }, body, idempotent: true, status: 201 }, ({ ctx, merchant, store, body: input }) =>
      requestCompliance(platform, merchant.merchantId, store, ctx.get('Idempotency-Key') || undefined, { topic, body: input } as ComplianceInput),
    );
  producer('/customers/data-request', 'customers.data_request', CustomerDataRequestBody);
  producer('/customers/redact', 'customers.redact', CustomerRedactBody);
  producer('/shop/redact', 'shop.redact', ShopRedactBody);
  return on.router;
}

/** /v1/operations/compliance-requests: operators see every compliance request and each app's delivery state. */
export function complianceOperationsRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: 'operator', query: ComplianceListQuery, respond: 'page' }, ({ query }) => listComplianceRequests(platform, query));
  on.get('/:id', { access: 'operator' }, ({ params }) => getComplianceRequest(platform, params.id));
  return on.router;
}
