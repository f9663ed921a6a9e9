import { defaultFieldResolver, getNamedType, isCompositeType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { CONNECTION_BASE_COST, MUTATION_COST, OBJECT_COST, isConnectionType } from './cost.js';

/**
 * What one request's resolvers produced (docs/graphql.md, Query cost), counted as each resolver
 * answers, in the cost model's units: a connection 2, each object 1 (each of a list's), a
 * mutation 10. An error that later nulls part of `data` does not undo the count: the objects
 * were read. The actual cost is the smaller of this and the requested cost.
 */
export type Work = { objects: number };

type Counted = 'connection' | 'objects' | 'mutation';
type WorkContext = { work?: Work };

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

function tally(work: Work, counted: Counted, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (counted === 'connection') work.objects += CONNECTION_BASE_COST;
  else if (counted === 'objects') {
    if (!Array.isArray(value)) work.objects += OBJECT_COST;
    // A list's items may still be on their way (nodes(ids:)): each counts once it is an object.
    else
      for (const item of value) {
        if (isPromise(item))
          void item.then(
            (v) => (work.objects += v === null || v === undefined ? 0 : OBJECT_COST),
            () => {},
          );
        else if (item !== null && item !== undefined) work.objects += OBJECT_COST;
      }
  }
  return value;
}

function counting(resolve: GraphQLFieldResolver<unknown, WorkContext>, counted: Counted): GraphQLFieldResolver<unknown, WorkContext> {
  return (source, args, context, info) => {
    const work = context?.work;
    if (!work) return resolve(source, args, context, info);
    // A mutation ran once it was called, whatever it answers.
    if (counted === 'mutation') work.objects += MUTATION_COST;
    const result = resolve(source, args, context, info);
    return isPromise(result) ? result.then((value) => tally(work, counted, value)) : tally(work, counted, result);
  };
}

/**
 * Make every resolver of a composite field of `schema` count what it produced on its request's
 * Work (a context without one, as the bulk export's, runs them as they are). A connection's
 * `edges` count nothing (their `node`s do), and `pageInfo` nothing.
 */
export function countWork(schema: GraphQLSchema): void {
  const mutation = schema.getMutationType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (!isCompositeType(named) || field.name === 'pageInfo' || (isConnectionType(type) && field.name === 'edges')) continue;
      const counted: Counted = type === mutation ? 'mutation' : isConnectionType(named) ? 'connection' : 'objects';
      field.resolve = counting((field.resolve ?? defaultFieldResolver) as GraphQLFieldResolver<unknown, WorkContext>, counted);
    }
  }
}
