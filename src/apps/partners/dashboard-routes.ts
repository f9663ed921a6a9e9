import type { AppRouter } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { DashboardQuery, partnerDashboard } from './dashboard.js';

/** /v1/app-store/partners: the signed-in partner's dashboard (docs/apps.md, Partner dashboard). */
export function partnerDashboardRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/dashboard', { access: 'merchant', query: DashboardQuery }, ({ merchant, query }) => partnerDashboard(platform, merchant.merchantId, query));
  return on.router;
}
