import { given } from '../job.js';
import type { Module } from '../module.js';
import { adminGraphqlRoutes } from './admin/routes.js';
import { adminSchema } from './admin/schema.js';
import { ExportBulkOperation } from './bulk/export.js';
import { SweepBulkOperations } from './bulk/jobs.js';
import { bulkRoutes } from './bulk/routes.js';
import { BULK_OPERATIONS, bulkIndexes, bulkOverview } from './bulk/models.js';
import { GRAPHQL_ERROR_CODES } from './errors.js';
import { GRAPHQL_EVENT_TYPES } from './events.js';
import { adminMeter, flushRefunds, storefrontMeter } from './metering.js';
import { storefrontGraphqlRoutes } from './storefront/routes.js';
export { adminSchema } from './admin/schema.js';
export { storefrontSchema } from './storefront/schema.js';
export { ExportBulkOperation } from './bulk/export.js';
export { cancelBulkOperation, getBulkOperation, listBulkOperations, startBulkOperation, type BulkOperationView } from './bulk/service.js';

const admin = adminGraphqlRoutes(adminMeter);
const storefront = storefrontGraphqlRoutes(storefrontMeter);

/**
 * GraphQL (docs/graphql.md): the admin and storefront schemas, each on its two paths (spec 4.5),
 * metered by query cost; and bulk operations (docs/bulk.md), admin queries exported as JSONL by
 * the bulk worker (its export job given the admin schema it runs), with their REST twin.
 */
export const graphqlModule: Module = {
  name: 'graphql',
  errorCodes: GRAPHQL_ERROR_CODES,
  eventTypes: GRAPHQL_EVENT_TYPES,
  indexes: bulkIndexes,
  jobs: [given(ExportBulkOperation, adminSchema), SweepBulkOperations],
  eventCarriers: [BULK_OPERATIONS],
  routes: [
    { path: '/v1/bulk-operations', router: bulkRoutes },
    { path: '/v1/admin/graphql', router: admin },
    { path: '/v1/graphql/admin', router: admin },
    { path: '/v1/storefront/graphql', router: storefront },
    { path: '/v1/graphql/storefront', router: storefront },
  ],
  overview: (platform) => bulkOverview(platform.db),
  close: (platform) => flushRefunds(platform),
};
