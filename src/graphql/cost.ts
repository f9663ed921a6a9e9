import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ownValue } from '../own-keys.js';
import { MAX_PAGE } from './connections.js';

/**
 * Calculated query cost, Shopify's published model (docs/graphql.md, Query cost):
 * - a scalar or enum field costs 0, and so do `__typename`, introspection and `pageInfo`;
 * - an object field costs 1 plus its selections (a list that is not a connection counts as one
 *   object, except a list of the objects its `ids` argument names: `nodes(ids:)` costs that per id);
 * - a connection field (its type's name ends in `Connection`) costs 2 + `first` (or `last`) × the
 *   cost of one of its items (what `edges { node }` and `nodes` select on an item);
 * - a field of an interface or union type costs what its most expensive member would;
 * - a mutation's root field costs 10 plus what its payload selects.
 *
 * The requested cost is computed from the query before it runs; the actual cost is counted by
 * the resolvers as they answer, in the same units (work.ts).
 */
export const MUTATION_COST = 10;
export const CONNECTION_BASE_COST = 2;
export const OBJECT_COST = 1;

/** One field's share of a cost, for the breakdown a client asks for (`X-GraphQL-Cost-Include-Fields: true`). */
export type FieldCost = { path: string[]; requestedTotalCost: number };

/** Per selection set and object type, a sum over its fields (sumFields). */
type Sums = Map<SelectionSetNode, Map<GraphQLObjectType, number>>;

type Walk = {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  errors: GraphQLError[];
  fields: FieldCost[] | null;
  /** What each selection set costs on a type; what one item of a connection costs; what an edge's node costs. */
  costs: Sums;
  items: Sums;
  edges: Sums;
};

const MAX_BREAKDOWN = 500;

/** The operation a request runs: the named one, or the only one. */
export function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (operationName) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? operations[0]! : null;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === 'FragmentDefinition').map((f) => [f.name.value, f]));
}

const included = (walk: Walk, node: FieldNode | SelectionSetNode['selections'][number]) =>
  !getDirectiveValues(GraphQLSkipDirective, node, walk.variables)?.if && getDirectiveValues(GraphQLIncludeDirective, node, walk.variables)?.if !== false;

/** Whether a fragment on `condition` applies to an object of `type`. */
function applies(schema: GraphQLSchema, condition: string | undefined, type: GraphQLObjectType): boolean {
  if (!condition || condition === type.name) return true;
  const target = schema.getType(condition);
  return (isInterfaceType(target) || isUnionType(target)) && schema.isSubType(target, type);
}

/**
 * Σ `each(field)` over the fields a selection set selects on an object of `type`, collected as
 * graphql-js collects them: skipped fields and fragments that do not apply left out, a named
 * fragment counted once however many times the set spreads it. Each (selection set, type) is
 * summed once per walk, so a fragment spread from many places is walked once: the walk is linear
 * in the document, however its fragments spread one another.
 */
function sumFields(walk: Walk, sums: Sums, selections: SelectionSetNode, type: GraphQLObjectType, each: (field: FieldNode) => number): number {
  let byType = sums.get(selections);
  if (!byType) sums.set(selections, (byType = new Map()));
  const known = byType.get(type);
  if (known !== undefined) return known;
  byType.set(type, 0); // where a fragment spreads itself (validation refuses it), it adds nothing
  let sum = 0;
  const spread = new Set<string>();
  for (const s of selections.selections) {
    if (!included(walk, s)) continue;
    if (s.kind === 'Field') sum += each(s);
    else if (s.kind === 'InlineFragment') {
      if (applies(walk.schema, s.typeCondition?.name.value, type)) sum += sumFields(walk, sums, s.selectionSet, type, each);
    } else if (!spread.has(s.name.value)) {
      spread.add(s.name.value);
      const fragment = walk.fragments.get(s.name.value);
      if (fragment && applies(walk.schema, fragment.typeCondition.name.value, type)) sum += sumFields(walk, sums, fragment.selectionSet, type, each);
    }
  }
  byType.set(type, sum);
  return sum;
}

const concreteTypes = (schema: GraphQLSchema, type: GraphQLCompositeType): readonly GraphQLObjectType[] =>
  isAbstractType(type) ? schema.getPossibleTypes(type) : [type as GraphQLObjectType];

/** The requested cost of a selection set on `type` (the most expensive member for an interface or union). */
function selectionCost(walk: Walk, selections: SelectionSetNode, type: GraphQLCompositeType, path: string[]): number {
  let most = 0;
  for (const concrete of concreteTypes(walk.schema, type))
    most = Math.max(
      most,
      sumFields(walk, walk.costs, selections, concrete, (field) => fieldCost(walk, field, concrete, path)),
    );
  return most;
}

/** A connection is an object type whose name ends in `Connection` (Relay's convention, Shopify's cost rule). */
export const isConnectionType = (type: GraphQLNamedType) => isObjectType(type) && type.name.endsWith('Connection');

/** `first` or `last` of a connection field, checked: one of them, 0 to MAX_PAGE. */
function connectionSize(walk: Walk, field: FieldNode, parent: GraphQLObjectType): number {
  const definition = ownValue(parent.getFields(), field.name.value);
  let args: Record<string, unknown> = {};
  try {
    if (definition) args = getArgumentValues(definition, field, walk.variables);
  } catch {
    return 0; // validation (or execution) reports bad arguments
  }
  const { first, last, after, before } = args as { first?: number | null; last?: number | null; after?: string | null; before?: string | null };
  const name = field.alias?.value ?? field.name.value;
  const refuse = (message: string) => {
    walk.errors.push(new GraphQLError(message, { nodes: [field], extensions: { code: 'BAD_USER_INPUT', field: name } }));
    return 0;
  };
  const hasFirst = typeof first === 'number';
  const hasLast = typeof last === 'number';
  if (hasFirst === hasLast) return refuse(`${name}: give exactly one of first and last`);
  const size = (hasFirst ? first : last)!;
  if (size < 0 || size > MAX_PAGE) return refuse(`${name}: ${hasFirst ? 'first' : 'last'} must be from 0 to ${MAX_PAGE}`);
  if (hasFirst && before != null) return refuse(`${name}: before goes with last`);
  if (hasLast && after != null) return refuse(`${name}: after goes with first`);
  return size;
}

/** The cost of one item of a connection: what `edges { node }` and `nodes` select on it. */
function itemCost(walk: Walk, field: FieldNode, connection: GraphQLObjectType, path: string[]): number {
  return sumFields(walk, walk.items, field.selectionSet!, connection, (inner) => {
    const innerType = ownValue(connection.getFields(), inner.name.value)?.type;
    if (!innerType || !inner.selectionSet) return 0;
    const named = getNamedType(innerType);
    if (inner.name.value === 'nodes' && isCompositeType(named)) return OBJECT_COST + selectionCost(walk, inner.selectionSet, named, [...path, 'nodes']);
    if (inner.name.value !== 'edges' || !isObjectType(named)) return 0;
    return sumFields(walk, walk.edges, inner.selectionSet, named, (edgeField) => {
      const nodeType = ownValue(named.getFields(), edgeField.name.value)?.type;
      if (edgeField.name.value !== 'node' || !edgeField.selectionSet || !nodeType || !isCompositeType(getNamedType(nodeType))) return 0;
      return OBJECT_COST + selectionCost(walk, edgeField.selectionSet, getNamedType(nodeType) as GraphQLCompositeType, [...path, 'edges', 'node']);
    });
  });
}

/** How many objects a list that is no connection answers when an argument names them (`nodes(ids:)`: one per id, at most MAX_PAGE); any other counts as one. */
function listSize(walk: Walk, field: FieldNode, definition: GraphQLField<unknown, unknown>): number {
  if (!definition.args.some((a) => a.name === 'ids')) return 1;
  let ids: unknown;
  try {
    ids = getArgumentValues(definition, field, walk.variables).ids;
  } catch {
    return 0; // validation (or execution) reports bad arguments
  }
  const count = Array.isArray(ids) ? ids.length : 0;
  if (count <= MAX_PAGE) return count;
  const name = field.alias?.value ?? field.name.value;
  walk.errors.push(new GraphQLError(`${name}: at most ${MAX_PAGE} ids`, { nodes: [field], extensions: { code: 'BAD_USER_INPUT', field: name } }));
  return 0;
}

function fieldCost(walk: Walk, field: FieldNode, parent: GraphQLObjectType, path: string[]): number {
  const name = field.name.value;
  if (name.startsWith('__') || name === 'pageInfo') return 0;
  const definition = ownValue(parent.getFields(), name);
  if (!definition) return 0;
  const type = getNamedType(definition.type);
  const selected = field.selectionSet && isCompositeType(type) ? field.selectionSet : null;
  const mutation = parent === walk.schema.getMutationType();
  if (!selected && !mutation) return 0;
  const here = [...path, field.alias?.value ?? name];
  let cost: number;
  if (mutation) cost = MUTATION_COST + (selected ? selectionCost(walk, selected, type as GraphQLCompositeType, here) : 0);
  else if (isConnectionType(type)) cost = CONNECTION_BASE_COST + connectionSize(walk, field, parent) * itemCost(walk, field, type as GraphQLObjectType, here);
  else cost = listSize(walk, field, definition) * (OBJECT_COST + selectionCost(walk, selected!, type as GraphQLCompositeType, here));
  if (walk.fields && walk.fields.length < MAX_BREAKDOWN) walk.fields.push({ path: here, requestedTotalCost: cost });
  return cost;
}

/**
 * The requested cost of a request's operation, before it runs; with `breakdown`, each field's.
 * `errors` holds the arguments that cannot be costed (a connection's size missing or over
 * MAX_PAGE, more than MAX_PAGE ids): the request is refused with them, before it runs.
 */
export function requestedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
  breakdown = false,
): { cost: number; errors: GraphQLError[]; fields: FieldCost[] | null } {
  const walk: Walk = {
    schema,
    fragments: fragmentsOf(document),
    variables,
    errors: [],
    fields: breakdown ? [] : null,
    costs: new Map(),
    items: new Map(),
    edges: new Map(),
  };
  const operation = operationOf(document, operationName);
  if (!operation) return { cost: 0, errors: [], fields: walk.fields };
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return { cost: 0, errors: [], fields: walk.fields }; // a mutation of the storefront: execution refuses it
  const cost = selectionCost(walk, operation.selectionSet, root, []);
  return { cost, errors: walk.errors, fields: walk.fields };
}
