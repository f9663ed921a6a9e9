import { makeExecutableSchema, type IExecutableSchemaDefinition } from '@graphql-tools/schema';
import { GraphQLError, GraphQLScalarType, type GraphQLSchema } from 'graphql';
import { countWork } from './work.js';

/**
 * A schema from its SDL fragments and resolvers, merged by @graphql-tools/schema: a type declared
 * or extended in several fragments gets every fragment's fields, in their order, and a
 * description wherever one fragment gives it. A resolver for a type or a field the SDL does not
 * have is a programming error, thrown at start-up. Then the output scalars, and every composite
 * field counting what it produced for the request's actual cost and limits (work.ts).
 */
export function executableSchema(typeDefs: string[], resolvers: NonNullable<IExecutableSchemaDefinition['resolvers']>): GraphQLSchema {
  const schema = makeExecutableSchema({ typeDefs, resolvers, resolverValidationOptions: { requireResolversToMatchSchema: 'error' } });
  for (const name of OUTPUT_SCALARS) outputOnly(schema, name);
  countWork(schema);
  return schema;
}

/** The string scalars the schemas answer (an ISO time, an exact decimal, a 64-bit count) and no field takes. */
const OUTPUT_SCALARS = ['DateTime', 'Decimal', 'UnsignedInt64'];

/**
 * Served as the strings the resolvers answer, refused as input. Set on the built type: a scalar
 * given to makeExecutableSchema's resolvers replaces the description its SDL gave.
 */
function outputOnly(schema: GraphQLSchema, name: string): void {
  const type = schema.getType(name);
  if (!(type instanceof GraphQLScalarType)) return;
  type.serialize = (value) => {
    if (typeof value !== 'string') throw new GraphQLError(`${name} cannot represent ${typeof value}`);
    return value;
  };
  type.parseValue = type.parseLiteral = () => {
    throw new GraphQLError(`${name} is not taken as input`);
  };
}
