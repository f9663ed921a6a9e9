import { GraphQLError, type ASTVisitor, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

/**
 * Bounds on a query's shape, checked before it runs (docs/graphql.md, Limits): the parser stops
 * past MAX_TOKENS; validation refuses a selection nested deeper than MAX_DEPTH (fragments
 * followed), an operation with more than MAX_ALIASES aliases and a document that asks for the
 * schema (`__schema`) more than once. The cost limit bounds the rest.
 */
export const MAX_TOKENS = 10_000;
export const MAX_DEPTH = 15;
export const MAX_ALIASES = 30;
export const MAX_SCHEMA_INTROSPECTIONS = 1;

/**
 * The depth of a selection set, fragments followed. Each fragment's depth is computed once per
 * document (a fragment's depth does not depend on where it is spread), so a document whose
 * fragments spread each other many times is walked in time linear in its size, not in the
 * number of paths through it. A fragment being walked counts 0 where it spreads itself
 * (validation reports the cycle).
 */
function depthOf(context: ValidationContext, selections: SelectionSetNode, fragments: Map<string, number>): number {
  let deepest = 0;
  for (const s of selections.selections) {
    if (s.kind === 'Field') deepest = Math.max(deepest, s.selectionSet ? 1 + depthOf(context, s.selectionSet, fragments) : 1);
    else if (s.kind === 'InlineFragment') deepest = Math.max(deepest, depthOf(context, s.selectionSet, fragments));
    else deepest = Math.max(deepest, fragmentDepth(context, s.name.value, fragments));
    if (deepest > MAX_DEPTH) return deepest; // enough to refuse: no need to walk a bomb to its end
  }
  return deepest;
}

function fragmentDepth(context: ValidationContext, name: string, fragments: Map<string, number>): number {
  const known = fragments.get(name);
  if (known !== undefined) return known;
  const fragment = context.getFragment(name);
  if (!fragment) return 0; // validation reports the unknown fragment
  fragments.set(name, 0);
  const depth = depthOf(context, fragment.selectionSet, fragments);
  fragments.set(name, depth);
  return depth;
}

/** An operation nested more than MAX_DEPTH fields deep is refused. */
export const MaxDepthRule: ValidationRule = (context): ASTVisitor => {
  const fragments = new Map<string, number>();
  return {
    OperationDefinition(node) {
      const depth = depthOf(context, node.selectionSet, fragments);
      if (depth > MAX_DEPTH)
        context.reportError(
          new GraphQLError(`The query is nested more than ${MAX_DEPTH} fields deep`, {
            nodes: [node],
            extensions: { code: 'MAX_DEPTH_EXCEEDED', maxDepth: MAX_DEPTH },
          }),
        );
    },
  };
};

/** More than MAX_ALIASES aliases in one document is refused. */
export const MaxAliasesRule: ValidationRule = (context): ASTVisitor => {
  let aliases = 0;
  return {
    Field(node) {
      if (node.alias) aliases++;
    },
    Document: {
      leave(node) {
        if (aliases > MAX_ALIASES)
          context.reportError(
            new GraphQLError(`The query has ${aliases} aliases; at most ${MAX_ALIASES}`, {
              nodes: [node],
              extensions: { code: 'MAX_ALIASES_EXCEEDED', maxAliases: MAX_ALIASES },
            }),
          );
      },
    },
  };
};

/**
 * A document that asks for the whole schema (`__schema`) more than MAX_SCHEMA_INTROSPECTIONS
 * times is refused: one answer is a few hundred kilobytes, and the same answer twice is no
 * more information.
 */
export const MaxSchemaIntrospectionRule: ValidationRule = (context): ASTVisitor => {
  let count = 0;
  return {
    Field(node) {
      if (node.name.value === '__schema') count++;
    },
    Document: {
      leave(node) {
        if (count > MAX_SCHEMA_INTROSPECTIONS)
          context.reportError(
            new GraphQLError(`The query asks for __schema ${count} times; at most ${MAX_SCHEMA_INTROSPECTIONS}`, {
              nodes: [node],
              extensions: { code: 'MAX_INTROSPECTION_EXCEEDED', maxSchemaIntrospections: MAX_SCHEMA_INTROSPECTIONS },
            }),
          );
      },
    },
  };
};
