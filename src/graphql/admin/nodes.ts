import { ownValue } from '../../own-keys.js';
import { fromGlobalId } from '../ids.js';
import { need, type AdminContext } from './context.js';
import { TYPE_SCOPES } from './scopes.js';
import type { QueryRootResolvers, ResolversInterfaceTypes, ResolversParentTypes } from './types.generated.js';

/** A member of Node as `node(id:)` answers it: tagged with its type (Node's `__resolveType` reads it). */
type NodeValue = ResolversInterfaceTypes<ResolversParentTypes>['Node'];

/** How a domain loads the objects of its types by REST id for `node(id:)`, by type name (null: not the store's). */
export type NodeLoaders = Record<string, (ctx: AdminContext, id: string) => Promise<NodeValue | null>>;

/** An object as a member of Node: tagged with its type, or null. */
export const tagged = <T extends string, V extends object>(typename: T, value: V | null) => (value ? { ...value, __typename: typename } : null);

/**
 * `node(id:)` and `nodes(ids:)` over the domains' loaders: any object of the store by its global
 * id, or null (another store's, an unknown type, a malformed id). An app needs its type's scope.
 */
export function nodeQueries(loaders: ReadonlyMap<string, NodeLoaders[string]>): QueryRootResolvers {
  const nodeOf = async (ctx: AdminContext, gid: string): Promise<NodeValue | null> => {
    const parsed = fromGlobalId(gid);
    const scope = parsed ? ownValue(TYPE_SCOPES, parsed.type) : undefined;
    const load = parsed ? loaders.get(parsed.type) : undefined;
    if (!parsed || scope === undefined || !load) return null;
    need(ctx, scope, parsed.type);
    return load(ctx, parsed.id);
  };
  return {
    node: (_, { id }, ctx) => nodeOf(ctx, id),
    // Each its own promise: one refused (a scope) is null with its error, the others answered. A
    // list's item may be a promise of null, which the generated types do not say.
    nodes: (_, { ids }, ctx) => ids.slice(0, 250).map((id) => nodeOf(ctx, id) as Promise<NodeValue>),
  };
}
