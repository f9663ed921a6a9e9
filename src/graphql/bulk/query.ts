import {
  GraphQLError,
  Kind,
  getNamedType,
  isObjectType,
  parse,
  specifiedRules,
  validate,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { ownValue } from '../../own-keys.js';
import { MAX_TOKENS, MaxAliasesRule, MaxDepthRule } from '../limits.js';

/**
 * What a bulk query may be (docs/bulk.md, The query): one admin query, no variables or named
 * fragments, whose one root field is a connection of BULK_ROOTS; 1 to MAX_CONNECTIONS connections
 * in all, nested at most MAX_NESTING deep (the root's items may have connections; theirs may not),
 * each selected once (aliases of one connection would read its objects once each).
 * The plan rewrites it for the export: each connection asks for a page (`first`, `after`) with
 * its items' `id` and its `pageInfo`, whatever the query asked; a page of root objects carries
 * the connections stored in their documents, and the others are read apart (docs/bulk.md, The
 * export).
 */
export const BULK_ROOTS = ['products', 'collections', 'customers', 'orders'] as const;
export type BulkRoot = (typeof BULK_ROOTS)[number];
export const MAX_CONNECTIONS = 5;
export const MAX_NESTING = 2;
const PAGINATION = new Set(['first', 'last', 'after', 'before']);

/** A connection of the query: its field (path names), and its items' selection (with its nested connections, once). */
export type PlannedConnection = {
  /** The field's name as answered (its alias, or its name). */
  key: string;
  field: FieldNode;
  /** The type of its items. */
  itemType: GraphQLObjectType;
  /** The items' own selection, without their nested connections. */
  selection: SelectionSetNode;
  /** The items' connections (only the root's items have any). */
  children: PlannedConnection[];
};

export type BulkPlan = { root: BulkRoot; connection: PlannedConnection; scopes: Set<string> };
export type PlanProblem = { message: string };

const issue = (message: string): { problems: PlanProblem[] } => ({ problems: [{ message }] });

const isConnectionType = (type: GraphQLObjectType): boolean => type.name.endsWith('Connection');

/** The items' type of a connection type (its `nodes` field's). */
function itemTypeOf(connection: GraphQLObjectType): GraphQLObjectType {
  return getNamedType(ownValue(connection.getFields(), 'nodes')!.type) as GraphQLObjectType;
}

/** A connection field's items' selection: what `nodes { … }` or `edges { node { … } }` selects (not both). */
function itemSelection(field: FieldNode): SelectionSetNode | { problem: string } {
  const selections = field.selectionSet?.selections ?? [];
  const nodes = selections.filter((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === 'nodes');
  const edges = selections.filter((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === 'edges');
  const name = field.alias?.value ?? field.name.value;
  if (nodes.length + edges.length !== 1) return { problem: `${name}: select its items once, with nodes { … } or edges { node { … } }` };
  if (nodes[0]) return nodes[0].selectionSet!;
  const node = edges[0]!.selectionSet?.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === 'node');
  return node?.selectionSet ?? { problem: `${name}: edges must select node { … }` };
}

/**
 * The query planned, or its problems (each a user error at `query`). `scopeOf` names the scope an
 * app needs to read a type's objects (the admin resolvers' table).
 */
export function planBulkQuery(
  schema: GraphQLSchema,
  query: string,
  scopeOf: (type: string) => string | null,
): { plan: BulkPlan } | { problems: PlanProblem[] } {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: MAX_TOKENS });
  } catch (err) {
    return issue(err instanceof GraphQLError ? err.message : 'The query could not be parsed');
  }
  const invalid = validate(schema, document, [...specifiedRules, MaxDepthRule, MaxAliasesRule]);
  if (invalid.length) return { problems: invalid.map((e) => ({ message: e.message })) };
  if (document.definitions.length !== 1 || document.definitions[0]!.kind !== Kind.OPERATION_DEFINITION)
    return issue('A bulk query is one query operation, without named fragments');
  const operation = document.definitions[0]!;
  if (operation.operation !== 'query') return issue('A bulk operation runs a query, not a mutation');
  if (operation.variableDefinitions?.length) return issue('A bulk query takes no variables: write the values in the query');
  const roots = operation.selectionSet.selections;
  if (roots.length !== 1 || roots[0]!.kind !== Kind.FIELD) return issue('A bulk query has exactly one root field, a connection');
  const rootField = roots[0] as FieldNode;
  if (rootField.name.value === 'node' || rootField.name.value === 'nodes')
    return issue('node and nodes cannot be the root of a bulk query: start from a connection');
  if (!(BULK_ROOTS as readonly string[]).includes(rootField.name.value))
    return issue(`The root field must be one of the connections ${BULK_ROOTS.join(', ')} (it is ${rootField.name.value})`);

  const scopes = new Set<string>();
  const problems: string[] = [];
  let connections = 0;
  const queryType = schema.getQueryType()!;

  /**
   * Scopes of every object field under a selection on `type`, and the connections that are its
   * own fields (`direct`: the selection is a connection's items'); a connection anywhere else
   * (under an object field, in an inline fragment) is a problem: its lines would have no parent.
   */
  const walk = (selection: SelectionSetNode, type: GraphQLObjectType, depth: number, direct: boolean): PlannedConnection[] => {
    const found: PlannedConnection[] = [];
    /** The answer keys of each connection field of these items: one connection selected twice would read its objects twice. */
    const keysOf = new Map<string, string[]>();
    for (const s of selection.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        problems.push('named fragments cannot be used in a bulk query');
        continue;
      }
      if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet, type, depth, false);
        continue;
      }
      const definition = ownValue(type.getFields(), s.name.value);
      if (!definition || !s.selectionSet) continue;
      const named = getNamedType(definition.type);
      if (!isObjectType(named)) continue;
      if (isConnectionType(named)) {
        connections++;
        if (!direct) {
          problems.push(
            `${s.alias?.value ?? s.name.value}: a connection in a bulk query must be a field of a connection's items, not under another field or in a fragment`,
          );
          continue;
        }
        keysOf.set(s.name.value, [...(keysOf.get(s.name.value) ?? []), s.alias?.value ?? s.name.value]);
        const planned = plan(s, named, depth + 1);
        if (planned) found.push(planned);
      } else {
        const scope = scopeOf(named.name);
        if (scope) scopes.add(scope);
        walk(s.selectionSet, named, depth, false);
      }
    }
    for (const [name, keys] of keysOf)
      if (keys.length > 1) problems.push(`${name} is selected ${keys.length} times (as ${keys.join(', ')}): a bulk query selects a connection once`);
    return found;
  };

  const plan = (field: FieldNode, connection: GraphQLObjectType, depth: number): PlannedConnection | null => {
    const name = field.alias?.value ?? field.name.value;
    if (depth > MAX_NESTING) {
      problems.push(`${name}: connections nest at most ${MAX_NESTING} deep in a bulk query`);
      return null;
    }
    const items = itemSelection(field);
    if ('problem' in items) {
      problems.push(items.problem);
      return null;
    }
    const itemType = itemTypeOf(connection);
    const scope = scopeOf(itemType.name);
    if (scope) scopes.add(scope);
    const children = walk(items, itemType, depth, true);
    const own = { ...items, selections: items.selections.filter((s) => !(s.kind === Kind.FIELD && children.some((c) => c.field === s))) };
    return { key: name, field, itemType, selection: own, children };
  };

  const rootType = getNamedType(ownValue(queryType.getFields(), rootField.name.value)!.type) as GraphQLObjectType;
  connections++;
  const connection = plan(rootField, rootType, 1);
  if (connections > MAX_CONNECTIONS) problems.push(`A bulk query has at most ${MAX_CONNECTIONS} connections (it has ${connections})`);
  if (problems.length || !connection) return { problems: [...new Set(problems)].map((message) => ({ message })) };
  return { plan: { root: rootField.name.value as BulkRoot, connection, scopes } };
}

const intArg = (name: string, value: number): ArgumentNode => ({
  kind: Kind.ARGUMENT,
  name: { kind: Kind.NAME, value: name },
  value: { kind: Kind.INT, value: String(value) },
});
const stringArg = (name: string, value: string): ArgumentNode => ({
  kind: Kind.ARGUMENT,
  name: { kind: Kind.NAME, value: name },
  value: { kind: Kind.STRING, value },
});
const field = (name: string, selections?: SelectionSetNode['selections']): FieldNode => ({
  kind: Kind.FIELD,
  name: { kind: Kind.NAME, value: name },
  ...(selections ? { selectionSet: { kind: Kind.SELECTION_SET, selections } } : {}),
});

/** Nested connections to read with their parents, each with how many of its items a page. */
export type ChildPages = readonly (readonly [PlannedConnection, number])[];

/**
 * A connection field asking for a page: its own arguments but the pagination ones, then `first`
 * (and `after`); its items with `id`, their own selection and the first pages of `children`;
 * and its `pageInfo`.
 */
function pageField(c: PlannedConnection, first: number, after: string | null, children: ChildPages = []): FieldNode {
  const args = (c.field.arguments ?? []).filter((a) => !PAGINATION.has(a.name.value));
  const items = [field('id'), ...c.selection.selections, ...children.map(([child, size]) => pageField(child, size, null))];
  return {
    kind: Kind.FIELD,
    ...(c.field.alias ? { alias: c.field.alias } : {}),
    name: c.field.name,
    arguments: [...args, intArg('first', first), ...(after ? [stringArg('after', after)] : [])],
    selectionSet: { kind: Kind.SELECTION_SET, selections: [field('nodes', items), field('pageInfo', [field('hasNextPage'), field('endCursor')])] },
  };
}

/** An inline fragment on `type` selecting `selections`. */
const on = (type: GraphQLObjectType, selections: SelectionSetNode['selections']) => ({
  kind: Kind.INLINE_FRAGMENT as const,
  typeCondition: { kind: Kind.NAMED_TYPE as const, name: { kind: Kind.NAME as const, value: type.name } },
  selectionSet: { kind: Kind.SELECTION_SET as const, selections },
});

/** A query of one page of the root connection: `first` objects after `after`, their own fields and the first pages of `children`. */
export const rootPageQuery = (plan: BulkPlan, first: number, after: string | null, children: ChildPages): DocumentNode =>
  document([pageField(plan.connection, first, after, children)]);

/** A query of the first pages of `children` of some root objects (`nodes(ids:)`, by global id, at most 250). */
export function nestedPagesQuery(plan: BulkPlan, ids: readonly string[], children: ChildPages): DocumentNode {
  const nodes: FieldNode = {
    kind: Kind.FIELD,
    name: { kind: Kind.NAME, value: 'nodes' },
    arguments: [
      { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'ids' }, value: { kind: Kind.LIST, values: ids.map((id) => ({ kind: Kind.STRING, value: id })) } },
    ],
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: [on(plan.connection.itemType, [field('id'), ...children.map(([child, size]) => pageField(child, size, null))])],
    },
  };
  return document([nodes]);
}

/** A query of the next page of a nested connection of one item (`node(id:)`, the item's type): `first` items after `after`. */
export function childPageQuery(child: PlannedConnection, parentType: GraphQLObjectType, parentId: string, after: string, first: number): DocumentNode {
  const node: FieldNode = {
    kind: Kind.FIELD,
    name: { kind: Kind.NAME, value: 'node' },
    arguments: [stringArg('id', parentId)],
    selectionSet: { kind: Kind.SELECTION_SET, selections: [on(parentType, [pageField(child, first, after)])] },
  };
  return document([node]);
}

function document(selections: FieldNode[]): DocumentNode {
  return {
    kind: Kind.DOCUMENT,
    definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: 'query' as never, selectionSet: { kind: Kind.SELECTION_SET, selections } }],
  };
}
