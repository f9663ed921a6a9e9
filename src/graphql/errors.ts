/**
 * The graphql domain's public error codes (its REST twins' answers; GraphQL answers carry
 * extension codes of their own, docs/graphql.md): added to the registry in src/errors.ts.
 */
export const GRAPHQL_ERROR_CODES = ['bulk_operation_finished', 'bulk_operation_in_progress', 'invalid_bulk_query'] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof GRAPHQL_ERROR_CODES)[number], true> {}
}
