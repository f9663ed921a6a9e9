import { GraphQLError, GraphQLScalarType, Kind, buildSchema, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { decimalAmount } from '../money.js';
import { countWork } from './work.js';

/** A type's resolvers by field, and for an interface its `__resolveType`. */
export type Resolvers<C> = Record<string, Record<string, GraphQLFieldResolver<never, C, never>> | undefined>;

/**
 * A schema from its SDL and resolvers: each resolver set on its field (a field without one reads
 * the parent's property of its name), each composite field's counting what it produced for the
 * request's actual cost (work.ts). A resolver for a field the SDL does not have is a programming
 * error, thrown at start-up.
 */
export function schemaOf<C>(sdl: string, resolvers: Resolvers<C>, interfaces: Record<string, (value: { __typename?: string }) => string>): GraphQLSchema {
  const schema = buildSchema(sdl);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`resolvers for ${typeName}, which is no object type of the schema`);
    const defined = type.getFields();
    for (const [field, resolve] of Object.entries(fields ?? {})) {
      const definition = Object.hasOwn(defined, field) ? defined[field] : undefined;
      if (!definition) throw new Error(`a resolver for ${typeName}.${field}, which the schema does not have`);
      definition.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  for (const [name, resolveType] of Object.entries(interfaces)) {
    const type = schema.getType(name);
    if (!type || !('resolveType' in type)) throw new Error(`${name} is no interface or union of the schema`);
    type.resolveType = (value) => resolveType(value as { __typename?: string });
  }
  setScalar(schema, 'DateTime', (v) => v);
  setScalar(schema, 'Decimal', (v) => v);
  setScalar(schema, 'UnsignedInt64', (v) => v);
  countWork(schema);
  return schema;
}

/** Output-only string scalars (DateTime, Decimal, UnsignedInt64): served as strings, refused as input (no field takes one). */
function setScalar(schema: GraphQLSchema, name: string, serialize: (value: string) => string): void {
  const type = schema.getType(name);
  if (!(type instanceof GraphQLScalarType)) return;
  type.serialize = (value) => {
    if (typeof value !== 'string') throw new GraphQLError(`${name} cannot represent ${typeof value}`);
    return serialize(value);
  };
  type.parseValue = () => {
    throw new GraphQLError(`${name} is not taken as input`);
  };
  type.parseLiteral = (ast) => {
    throw new GraphQLError(`${name} is not taken as input${ast.kind === Kind.STRING ? '' : ''}`);
  };
}

/** Several sets of resolvers as one, type by type (a type's fields from every set). */
export function mergeResolvers<C>(...sets: Resolvers<C>[]): Resolvers<C> {
  const out = new Map<string, Record<string, unknown>>();
  for (const set of sets) for (const [type, fields] of Object.entries(set)) out.set(type, { ...out.get(type), ...fields });
  return Object.fromEntries(out) as Resolvers<C>;
}

/** Minor units as MoneyV2 (docs/graphql.md, Money). */
export const money = (minor: number, currency: string) => ({ amount: decimalAmount(minor, currency), currencyCode: currency, minorUnits: minor });

/** REST's lowercase enum values as GraphQL's (`partially_refunded` → `PARTIALLY_REFUNDED`). */
export const enumValue = (value: string) => value.toUpperCase();
