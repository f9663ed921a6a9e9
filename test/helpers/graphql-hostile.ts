/**
 * Hostile GraphQL documents (issue 36), built in one place: the GraphQL tests, the route fuzzer
 * and `bench/graphql-hostile.ts` send them. Each is small on the wire and expensive to a server
 * that expands, costs or answers it naively.
 */

export type GraphQLBody = { query: string; variables?: Record<string, unknown> };

/**
 * A fragment DAG: `k` fragments on `type`, each spreading the next one twice, the last selecting
 * `leaf`. 2^(k-1) expansions for a walk that follows every spread; k = 20 is about 800 bytes. The
 * default leaf is skipped, so the document costs nothing once it is walked.
 */
export function fragmentDag(k: number, options: { type?: string; leaf?: string } = {}): string {
  const type = options.type ?? 'Shop';
  const leaf = options.leaf ?? 'name @skip(if: true)';
  const root = type === 'Shop' ? 'shop' : type.charAt(0).toLowerCase() + type.slice(1);
  const fragments = Array.from({ length: k }, (_, i) =>
    i === k - 1 ? `fragment F${i} on ${type} { ${leaf} }` : `fragment F${i} on ${type} { ...F${i + 1} ...F${i + 1} }`,
  );
  return `{ ${root} { ...F0 } } ${fragments.join(' ')}`;
}

/** `nodes(ids:)` of the admin schema, `selection` asked of each id (250 ids is the most it takes). */
export const nodesQuery = (ids: string[], selection: string): GraphQLBody => ({
  query: `query($ids: [ID!]!) { nodes(ids: $ids) { ${selection} } }`,
  variables: { ids },
});

/** The full introspection of the schema, `copies` times in one document (aliased). */
export function introspectionFlood(copies: number): string {
  const full = '__schema { types { name kind fields { name args { name type { name kind ofType { name kind } } } type { name kind ofType { name kind } } } } }';
  return `{ ${Array.from({ length: copies }, (_, i) => `s${i}: ${full}`).join(' ')} }`;
}

/**
 * An operation whose one field is included by a variable with a default that the request leaves
 * out: the field runs (the default applies), so whatever looks at `@include` after it ran must
 * use the coerced variables, not the request's.
 */
export const omittedDefault = (operation: 'query' | 'mutation', field: string, selection: string): GraphQLBody => ({
  query: `${operation}($s: Boolean = true) { ${field} @include(if: $s) { ${selection} } }`,
  variables: {},
});

/**
 * `productUpdate` of `productGid` changing nothing, with a payload selection of 250 × 250 × 250
 * variants: refused as a query, and as a mutation once its payload is costed.
 */
export function heavyMutation(productGid: string): GraphQLBody {
  let selection = 'id';
  for (let i = 0; i < 3; i++) selection = `variants(first: 250) { nodes { ${i === 0 ? selection : `product { ${selection} }`} } }`;
  return {
    query: `mutation($id: ID!) { productUpdate(id: $id, input: {}) { product { ${selection} } userErrors { code } } }`,
    variables: { id: productGid },
  };
}

/**
 * Hostile bodies for a GraphQL endpoint of either schema (the route fuzzer's list): fragment DAGs
 * with and without a skipped leaf, an introspection flood, an omitted defaulted variable; for the
 * admin, `nodes` with 250 of `ids` (global ids of the store, repeated to 250) and a mutation
 * with a payload selection heavier than any query may be (of a product that does not exist).
 */
export function hostileGraphqlBodies(schema: 'admin' | 'storefront', ids: string[] = []): GraphQLBody[] {
  const bodies: GraphQLBody[] = [
    { query: fragmentDag(20) },
    { query: fragmentDag(24, { leaf: 'name' }) },
    { query: introspectionFlood(30) },
    omittedDefault('query', 'shop', 'name'),
  ];
  if (schema === 'admin') {
    const many = ids.length ? Array.from({ length: 250 }, (_, i) => ids[i % ids.length]!) : [];
    bodies.push(
      nodesQuery(many, '... on Collection { products(first: 250) { nodes { id variants(first: 3) { nodes { id } } } } } ... on Product { id }'),
      heavyMutation(`gid://emporium/Product/${'f'.repeat(24)}`),
      omittedDefault('mutation', `productDelete(id: "gid://emporium/Product/${'d'.repeat(24)}")`, 'deletedId userErrors { code }'),
    );
  }
  return bodies;
}

/**
 * Hostile bulk queries (the route fuzzer's): one nested connection under four aliases over the
 * root page (the audit's worker killer), the same connection twice unaliased, a fragment DAG and
 * the schema's introspection, each of which a bulk operation refuses at submission.
 */
export const HOSTILE_BULK_QUERIES: readonly string[] = [
  `{ collections { nodes { id ${Array.from({ length: 4 }, (_, i) => `a${i}: products { nodes { id title description } }`).join(' ')} } } }`,
  '{ products { nodes { id variants { nodes { id } } variants { nodes { sku } } } } }',
  `{ ...F0 } ${Array.from({ length: 20 }, (_, i) => (i === 19 ? `fragment F${i} on QueryRoot { products { nodes { id } } }` : `fragment F${i} on QueryRoot { ...F${i + 1} ...F${i + 1} }`)).join(' ')}`,
  introspectionFlood(2),
];
