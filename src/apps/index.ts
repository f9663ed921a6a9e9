import { given } from '../job.js';
import type { Module } from '../module.js';
import { APPS_ERROR_CODES } from './errors.js';
import { APPS_EVENT_TYPES } from './events.js';
import { appJobs } from './jobs.js';
import { appApiRoutes } from './app-api/routes.js';
import { bridgeRoutes } from './bridge/routes.js';
import { catalogRoutes } from './app-store/routes.js';
import { complianceOperationsRoutes, complianceRoutes } from './compliance/routes.js';
import { COMPLIANCE_REQUESTS, complianceIndexes } from './compliance/models.js';
import { installationRoutes } from './installations/routes.js';
import { INSTALLATIONS, installationIndexes } from './installations/models.js';
import { listingReviewRoutes } from './listing-review/routes.js';
import { consentPages } from './oauth/consent.js';
import { oauthRoutes } from './oauth/routes.js';
import { oauthIndexes } from './oauth/models.js';
import { accessTokenAuthenticator } from './oauth/tokens.js';
import { wellKnownRoutes } from './oauth/well-known-routes.js';
import { partnerDashboardRoutes } from './partners/dashboard-routes.js';
import { developerRoutes } from './partners/developer-routes.js';
import { partnerNoticeHooks } from './partners/webhook-health.js';
import { partnerIndexes } from './partners/models.js';
import { ratingIndexes } from './ratings/models.js';
import { sessionTokenIndexes } from './session-tokens/models.js';
import { closeAppUsage, countAppCalls } from './stats/api-calls.js';
import { statsIndexes } from './stats/models.js';
import { REGISTRATIONS, registrationIndexes } from './extensions/models.js';
import { flushFunctionRuns } from './function-runs/record.js';
import { closeFunctionRunner } from './functions/threads.js';
import { functionRunIndexes } from './function-runs/models.js';
import { CheckAppQuality, type AppBlockCheck } from './quality/checks.js';
import { qualityIndexes } from './quality/models.js';
export { SCOPES, SCOPE_NAMES, isScope, normaliseScopes, type Scope } from './oauth/scopes.js';
export { MANIFEST_SCHEMA_VERSION, LIFECYCLE_CONTRACT_VERSION, type AppManifest } from './manifest/types.js';
export type { AppBlockCheck } from './quality/checks.js';
export { liveRows, resolveAppBlocks, type ResolvedAppBlock } from './extensions/resolution.js';
// The merchant admin's host of embedded apps and their admin_ui extensions (docs/app-bridge.md).
export { HostAction, adminAppFrame, adminExtensionFrames, runHostAction, type AdminFrame } from './bridge/host.js';
// The operator console (src/console) decides app listing reviews through the same services as /v1/operations/app-reviews.
export {
  approveVersion as approveAppVersion,
  getReview as getAppReview,
  listReviews as listAppReviews,
  rejectVersion as rejectAppVersion,
} from './listing-review/service.js';
export { RejectBody as AppRejectBody, ReviewListQuery as AppReviewListQuery } from './listing-review/schemas.js';
export type { ReviewView as AppReviewView } from './listing-review/present.js';
export { getInstallation } from './installations/service.js';
// The merchant admin (src/admin) passes a customer's privacy request on through the same service as /v1/app-store/compliance.
export { requestCompliance } from './compliance/service.js';
export { appExists } from './partners/submissions.js';
export { adviseCheckout, type CheckoutAdvice, type CheckoutValidationError } from './function-runs/advise.js';
export type { FunctionCart } from './functions/targets.js';
// The merchant admin's Apps pages (src/admin/apps: the App Store, installed apps, extensions) read and act through the same services as the REST API.
export { getCatalogApp, listCatalog } from './app-store/service.js';
export { CatalogQuery } from './app-store/schemas.js';
export type { CatalogAppView } from './app-store/present.js';
export { listAppRatings } from './ratings/service.js';
export { AppRatingsQuery } from './ratings/schemas.js';
export { startInstall, uninstall } from './installations/service.js';
export { findInstalledApp, installedAppIds, listInstalledApps, type InstalledApp } from './installations/store-apps.js';
export { updateEmbedding } from './bridge/embedding.js';
export { requestIssuer } from './oauth/issuer.js';
export { consentSentence } from './oauth/consent-words.js';
export { initials as appInitials } from './oauth/consent.js';
export { listRegistry, type RegistryListing } from './extensions/listing.js';
export { updateRegistration } from './extensions/registry.js';
export { UpdateRegistrationBody } from './extensions/schemas.js';
export type { RegistrationView } from './extensions/present.js';
export { functionRunLog, MAX_KEPT_RUNS } from './function-runs/runs.js';
export { BRIDGE_CAPABILITIES, type BridgeCapability } from './manifest/types.js';

/**
 * The app platform (docs/apps.md, docs/oauth.md): partners and their apps, review by operators,
 * the catalog, installs through OAuth 2.1 with PKCE, app tokens and token exchange, and the
 * app API. Its quality checks render an app's theme app blocks with `checkAppBlock`, the rendering
 * domain's (which uses apps, so apps may not import it: src/modules.ts hands it over).
 */
export const appsModule = (deps: { checkAppBlock: AppBlockCheck }): Module => ({
  name: 'apps',
  errorCodes: APPS_ERROR_CODES,
  indexes: [
    ...partnerIndexes,
    ...installationIndexes,
    ...oauthIndexes,
    ...sessionTokenIndexes,
    ...ratingIndexes,
    ...complianceIndexes,
    ...statsIndexes,
    ...registrationIndexes,
    ...functionRunIndexes,
    ...qualityIndexes,
  ],
  routes: [
    { path: '/v1/app-store/developers', router: developerRoutes },
    { path: '/v1/app-store/apps', router: catalogRoutes },
    { path: '/v1/app-store/oauth', router: oauthRoutes },
    { path: '/v1/app-store/installations', router: installationRoutes },
    { path: '/v1/app-store/bridge', router: bridgeRoutes },
    { path: '/v1/app-store/compliance', router: complianceRoutes },
    { path: '/v1/app-store/partners', router: partnerDashboardRoutes },
    { path: '/v1/operations/app-reviews', router: listingReviewRoutes },
    { path: '/v1/operations/compliance-requests', router: complianceOperationsRoutes },
    { path: '/v1/app', router: appApiRoutes },
    { path: '/.well-known', router: wellKnownRoutes },
  ],
  // The OAuth consent page (docs/console.md), at the authorization endpoint: a browser without `Authorization` gets it, an API client the endpoint.
  pages: [{ path: '/v1/app-store/oauth/authorize', router: consentPages }],
  authenticators: [accessTokenAuthenticator],
  storeRequestObserver: countAppCalls,
  jobs: [...appJobs, given(CheckAppQuality, deps.checkAppBlock)],
  eventCarriers: [INSTALLATIONS, COMPLIANCE_REQUESTS, REGISTRATIONS],
  eventTypes: APPS_EVENT_TYPES,
  eventHooks: partnerNoticeHooks,
  close: async (platform) => {
    await Promise.all([closeAppUsage(platform), flushFunctionRuns(platform), closeFunctionRunner(platform)]);
  },
});
