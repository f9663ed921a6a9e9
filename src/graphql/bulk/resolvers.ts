import type { GraphQLResolveInfo } from 'graphql';
import type { AdminContext } from '../admin/resolvers.js';
import { pagedConnection, cursorId, type ConnectionArgs } from '../connections.js';
import { idOf, toGlobalId } from '../ids.js';
import { orNull } from '../resolving.js';
import { enumValue, type Resolvers } from '../schema.js';
import { ObjectId } from 'mongodb';
import { cancelBulkOperation, currentBulkOperation, getBulkOperation, listBulkOperations, startBulkOperation, type BulkOperationView } from './service.js';

const principalOf = (ctx: AdminContext) => ctx.principal;

/** A refusal as Shopify's user errors: the field it is about, the message, the code. */
const userError = (field: string[] | null, message: string, code: string) => ({ field, message, code });

/** The bulk operations' fields of the admin schema (docs/bulk.md, GraphQL). */
export const bulkResolvers: Resolvers<AdminContext> = {
  QueryRoot: {
    currentBulkOperation: (_: never, __: never, ctx: AdminContext) => currentBulkOperation(ctx.platform, ctx.store.id, principalOf(ctx)),
    bulkOperation: (_: never, { id }: { id: string }, ctx: AdminContext) => {
      const restId = idOf(id, 'BulkOperation');
      return restId ? orNull(getBulkOperation(ctx.platform, ctx.store.id, principalOf(ctx), restId)) : null;
    },
    bulkOperations: (_: never, args: ConnectionArgs, ctx: AdminContext) =>
      pagedConnection(
        args,
        ({ limit, cursor, backwards }) =>
          listBulkOperations(ctx.platform, ctx.store.id, principalOf(ctx), { limit, cursor: cursor ? new ObjectId(cursorId(cursor)) : undefined, backwards }),
        (op) => op,
      ),
  },
  Mutation: {
    bulkOperationRunQuery: async (_: never, { query }: { query: string }, ctx: AdminContext, info: GraphQLResolveInfo) => {
      const started = await startBulkOperation(ctx.platform, ctx.store.id, principalOf(ctx), query, info.schema);
      if ('operation' in started) return { bulkOperation: started.operation, userErrors: [] };
      return { bulkOperation: null, userErrors: started.refused.map((r) => userError(['query'], r.message, r.code.toUpperCase())) };
    },
    bulkOperationCancel: async (_: never, { id }: { id: string }, ctx: AdminContext, __: GraphQLResolveInfo) => {
      const restId = idOf(id, 'BulkOperation');
      if (!restId) return { bulkOperation: null, userErrors: [userError(['id'], 'must be the id of a BulkOperation', 'INVALID')] };
      try {
        return { bulkOperation: await cancelBulkOperation(ctx.platform, ctx.store.id, principalOf(ctx), restId), userErrors: [] };
      } catch (err) {
        const e = err as { code?: string; message: string };
        if (!e.code) throw err;
        return { bulkOperation: null, userErrors: [userError(null, e.message, e.code.toUpperCase())] };
      }
    },
  },
  BulkOperation: {
    id: (op: BulkOperationView) => toGlobalId('BulkOperation', op.id),
    status: (op: BulkOperationView) => enumValue(op.status),
    objectCount: (op: BulkOperationView) => String(op.object_count),
    rootObjectCount: (op: BulkOperationView) => String(op.root_object_count),
    estimatedRootObjectCount: (op: BulkOperationView) => String(op.estimated_root_count),
    fileSize: (op: BulkOperationView) => (op.file_size === null ? null : String(op.file_size)),
    partialDataUrl: (op: BulkOperationView) => op.partial_data_url,
    urlExpiresAt: (op: BulkOperationView) => op.url_expires_at,
    errorCode: (op: BulkOperationView) => op.error_code,
    createdAt: (op: BulkOperationView) => op.created_at,
    completedAt: (op: BulkOperationView) => op.completed_at,
  },
} as unknown as Resolvers<AdminContext>;
