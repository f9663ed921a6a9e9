import type { Module } from '../module.js';
import { APPS_ERROR_CODES } from './errors.js';
import { APPS_EVENT_TYPES } from './events.js';
import { appApiRoutes } from './app-api-routes.js';
import { bridgeRoutes } from './bridge-routes.js';
import { COMPLIANCE_REQUESTS, complianceIndexes } from './compliance.js';
import { complianceOperationsRoutes, complianceRoutes } from './compliance-routes.js';
import { developerRoutes } from './developer-routes.js';
import { installStatsIndexes } from './install-stats.js';
import { appJobs } from './jobs.js';
import { partnerRoutes } from './partner-routes.js';
import { installationRoutes } from './installation-routes.js';
import { oauthRoutes } from './oauth-routes.js';
import { appReviewRoutes } from './review-routes.js';
import { appStoreRoutes } from './store-routes.js';
import { INSTALLATIONS, appIndexes } from './store.js';
import { accessTokenAuthenticator } from './tokens.js';
export { sweepExpiredOAuth } from './tokens.js';
export { sendDueShopRedactions } from './compliance.js';
export { SendShopRedactions, SweepOAuth } from './jobs.js';
import { wellKnownRoutes } from './well-known-routes.js';
export { SCOPES, SCOPE_NAMES, isScope, normaliseScopes, type Scope } from './scopes.js';
export { MANIFEST_SCHEMA_VERSION, LIFECYCLE_CONTRACT_VERSION, type AppManifest } from './manifest-types.js';

/**
 * The app platform (docs/apps.md, docs/oauth.md): partners and their apps, review by operators,
 * the catalog, installs through OAuth 2.1 with PKCE, app tokens and token exchange, and the
 * app API.
 */
export const appsModule: Module = {
  name: 'apps',
  errorCodes: APPS_ERROR_CODES,
  indexes: [...appIndexes, ...complianceIndexes, ...installStatsIndexes],
  routes: [
    { path: '/v1/app-store/developers', router: developerRoutes },
    { path: '/v1/app-store/apps', router: appStoreRoutes },
    { path: '/v1/app-store/oauth', router: oauthRoutes },
    { path: '/v1/app-store/installations', router: installationRoutes },
    { path: '/v1/app-store/bridge', router: bridgeRoutes },
    { path: '/v1/app-store/compliance', router: complianceRoutes },
    { path: '/v1/app-store/partners', router: partnerRoutes },
    { path: '/v1/operations/app-reviews', router: appReviewRoutes },
    { path: '/v1/operations/compliance-requests', router: complianceOperationsRoutes },
    { path: '/v1/app', router: appApiRoutes },
    { path: '/.well-known', router: wellKnownRoutes },
  ],
  authenticators: [accessTokenAuthenticator],
  jobs: appJobs,
  eventCarriers: [INSTALLATIONS, COMPLIANCE_REQUESTS],
  eventTypes: APPS_EVENT_TYPES,
};
