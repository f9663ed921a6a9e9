import type { Module } from '../module.js';
import { adminGraphqlRoutes } from './admin/routes.js';
import { adminMeter, flushRefunds, storefrontMeter } from './metering.js';
import { storefrontGraphqlRoutes } from './storefront/routes.js';
export { adminSchema } from './admin/routes.js';
export { storefrontSchema } from './storefront/routes.js';

const admin = adminGraphqlRoutes(adminMeter);
const storefront = storefrontGraphqlRoutes(storefrontMeter);

/** GraphQL (docs/graphql.md): the admin and storefront schemas, each on its two paths (spec 4.5), metered by query cost. */
export const graphqlModule: Module = {
  name: 'graphql',
  routes: [
    { path: '/v1/admin/graphql', router: admin },
    { path: '/v1/graphql/admin', router: admin },
    { path: '/v1/storefront/graphql', router: storefront },
    { path: '/v1/graphql/storefront', router: storefront },
  ],
  close: (platform) => flushRefunds(platform),
};
