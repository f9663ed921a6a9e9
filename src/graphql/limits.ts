import { GraphQLError, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

/**
 * Bounds on a query's shape, checked before it runs (docs/graphql.md, Limits): the parser stops
 * past MAX_TOKENS; validation refuses a selection nested deeper than MAX_DEPTH (fragments
 * followed) and an operation with more than MAX_ALIASES aliases. The cost limit bounds the rest.
 */
export const MAX_TOKENS = 10_000;
export const MAX_DEPTH = 15;
export const MAX_ALIASES = 30;

function depthOf(context: ValidationContext, selections: SelectionSetNode, seen: Set<string>): number {
  let deepest = 0;
  for (const s of selections.selections) {
    if (s.kind === 'Field') deepest = Math.max(deepest, s.selectionSet ? 1 + depthOf(context, s.selectionSet, seen) : 1);
    else if (s.kind === 'InlineFragment') deepest = Math.max(deepest, depthOf(context, s.selectionSet, seen));
    else {
      const fragment: FragmentDefinitionNode | null | undefined = context.getFragment(s.name.value);
      if (fragment && !seen.has(s.name.value)) deepest = Math.max(deepest, depthOf(context, fragment.selectionSet, new Set([...seen, s.name.value])));
    }
    if (deepest > MAX_DEPTH) return deepest; // enough to refuse: no need to walk a bomb to its end
  }
  return deepest;
}

/** An operation nested more than MAX_DEPTH fields deep is refused. */
export const MaxDepthRule: ValidationRule = (context): ASTVisitor => ({
  OperationDefinition(node) {
    const depth = depthOf(context, node.selectionSet, new Set());
    if (depth > MAX_DEPTH)
      context.reportError(
        new GraphQLError(`The query is nested more than ${MAX_DEPTH} fields deep`, {
          nodes: [node],
          extensions: { code: 'MAX_DEPTH_EXCEEDED', maxDepth: MAX_DEPTH },
        }),
      );
  },
});

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
