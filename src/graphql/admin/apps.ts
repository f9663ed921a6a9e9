import { getInstallation } from '../../apps/index.js';
import { toGlobalId } from '../ids.js';
import { enumValue } from '../shared.js';
import type { Resolvers } from './types.generated.js';

/** The calling app's own installation (an app's token only). */
export const typeDefs = /* GraphQL */ `
  """
  The app's own installation in this store (an app's token only).
  """
  type AppInstallation implements Node {
    id: ID!
    status: String!
    accessScopes: [String!]!
    installedAt: DateTime!
  }

  extend type QueryRoot {
    """
    The app's own installation in this store: for an app's token; null for a merchant.
    """
    currentAppInstallation: AppInstallation
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    currentAppInstallation: (_, __, ctx) => (ctx.principal.kind === 'app' ? getInstallation(ctx.platform, ctx.store.id, ctx.principal.installationId) : null),
  },
  AppInstallation: {
    id: (i) => toGlobalId('AppInstallation', i.id),
    accessScopes: (i) => i.scopes,
    status: (i) => enumValue(i.status),
    installedAt: (i) => i.installed_at,
  },
};
