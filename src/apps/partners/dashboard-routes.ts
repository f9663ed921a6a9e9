import Router from '@koa/router';
import type { AppRouter } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { DashboardQuery, partnerDashboard } from './dashboard.js';

/** /v1/app-store/partners: the signed-in partner's dashboard (docs/apps.md, Partner dashboard). */
export function partnerDashboardRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  router.get(
    '/dashboard',
    endpoint(platform, { access: 'merchant', query: DashboardQuery }, ({ merchant, query }) => partnerDashboard(platform, merchant.merchantId, query)),
  );
  return router;
}
