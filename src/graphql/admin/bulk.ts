import { PlatformError } from '../../errors.js';
import { cancelBulkOperation, currentBulkOperation, getBulkOperation, listBulkOperations, startBulkOperation } from '../bulk/service.js';
import { connectionTypeDefs, cursorObjectId, pagedConnection } from '../connections.js';
import { idOf, toGlobalId } from '../ids.js';
import { orNull } from '../resolving.js';
import { enumValue } from '../shared.js';
import { payloadTypeDefs, type UserError } from './mutation.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';

/** Bulk operations: admin queries exported as JSONL by the bulk worker (docs/bulk.md, GraphQL). */
export const typeDefs = /* GraphQL */ `
  """
  A whole number from 0 to 2^64 - 1 as a string (Shopify's UnsignedInt64): "400000".
  """
  scalar UnsignedInt64

  enum BulkOperationStatus {
    CREATED
    RUNNING
    COMPLETED
    FAILED
    CANCELING
    CANCELED
    EXPIRED
  }

  """
  An admin query exported as a JSONL file by the bulk worker (docs/bulk.md).
  """
  type BulkOperation implements Node {
    id: ID!
    status: BulkOperationStatus!
    query: String!
    """
    Lines written: every object, root and nested.
    """
    objectCount: UnsignedInt64!
    rootObjectCount: UnsignedInt64!
    """
    The root connection's objects in the store when it started.
    """
    estimatedRootObjectCount: UnsignedInt64!
    """
    rootObjectCount over estimatedRootObjectCount, 0 to 1 (1 once completed).
    """
    progress: Float!
    fileSize: UnsignedInt64
    """
    The completed file, presigned until urlExpiresAt.
    """
    url: String
    """
    What a failed or canceled export wrote.
    """
    partialDataUrl: String
    urlExpiresAt: DateTime
    errorCode: String
    createdAt: DateTime!
    completedAt: DateTime
  }
  ${connectionTypeDefs('BulkOperation')}

  ${payloadTypeDefs('BulkOperation')}
  extend type QueryRoot {
    """
    The caller's running bulk operation in the store, else its newest one.
    """
    currentBulkOperation: BulkOperation
    bulkOperation(id: ID!): BulkOperation
    """
    The bulk operations the caller sees (a merchant the store's, an app its own), newest first.
    """
    bulkOperations(first: Int, after: String, last: Int, before: String): BulkOperationConnection!
  }

  extend type Mutation {
    """
    Start exporting an admin query as JSONL (docs/bulk.md); one running per caller in the store.
    """
    bulkOperationRunQuery(query: String!): BulkOperationPayload!
    bulkOperationCancel(id: ID!): BulkOperationPayload!
  }
`;

/** A refusal as Shopify's user errors: the field it is about, the message, the code. */
const userError = (field: string[] | null, message: string, code: string): UserError => ({ field, message, code });

export const resolvers: Resolvers = {
  QueryRoot: {
    currentBulkOperation: (_, __, ctx) => currentBulkOperation(ctx.platform, ctx.store.id, ctx.principal),
    bulkOperation: (_, { id }, ctx) => {
      const restId = idOf(id, 'BulkOperation');
      return restId ? orNull(getBulkOperation(ctx.platform, ctx.store.id, ctx.principal, restId)) : null;
    },
    bulkOperations: (_, args, ctx) =>
      pagedConnection(
        args,
        ({ limit, cursor, backwards }) => listBulkOperations(ctx.platform, ctx.store.id, ctx.principal, { limit, cursor: cursorObjectId(cursor), backwards }),
        (op) => op,
      ),
  },
  BulkOperation: {
    id: (op) => toGlobalId('BulkOperation', op.id),
    status: (op) => enumValue(op.status),
    objectCount: (op) => String(op.object_count),
    rootObjectCount: (op) => String(op.root_object_count),
    estimatedRootObjectCount: (op) => String(op.estimated_root_count),
    fileSize: (op) => (op.file_size === null ? null : String(op.file_size)),
    partialDataUrl: (op) => op.partial_data_url,
    urlExpiresAt: (op) => op.url_expires_at,
    errorCode: (op) => op.error_code,
    createdAt: (op) => op.created_at,
    completedAt: (op) => op.completed_at,
  },
};

// The bulk service refuses what it cannot start or cancel itself (no REST body to check): these answer its refusals as user errors.
export const mutations: MutationResolvers = {
  bulkOperationRunQuery: async (_, { query }, ctx, info) => {
    const started = await startBulkOperation(ctx.platform, ctx.store.id, ctx.principal, query, info.schema);
    if ('operation' in started) return { bulkOperation: started.operation, userErrors: [] };
    return { bulkOperation: null, userErrors: started.refused.map((r) => userError(['query'], r.message, r.code.toUpperCase())) };
  },
  bulkOperationCancel: async (_, { id }, ctx) => {
    const restId = idOf(id, 'BulkOperation');
    if (!restId) return { bulkOperation: null, userErrors: [userError(['id'], 'must be the id of a BulkOperation', 'INVALID')] };
    try {
      return { bulkOperation: await cancelBulkOperation(ctx.platform, ctx.store.id, ctx.principal, restId), userErrors: [] };
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      return { bulkOperation: null, userErrors: [userError(null, err.message, err.code.toUpperCase())] };
    }
  },
};
