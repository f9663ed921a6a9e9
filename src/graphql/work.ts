import { GraphQLError, defaultFieldResolver, getNamedType, isCompositeType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Clock } from '../clock.js';
import { CONNECTION_BASE_COST, MUTATION_COST, OBJECT_COST, isConnectionType } from './cost.js';

/**
 * What one request's resolvers produced (docs/graphql.md, Query cost), counted as each resolver
 * answers, in the cost model's units: a connection 2, each object 1 (each of a list's), a
 * mutation 10. An error that later nulls part of `data` does not undo the count: the objects
 * were read. The actual cost is the smaller of this and the requested cost.
 *
 * The count also bounds the request (docs/graphql.md, Limits): the requested cost bounds what
 * connections and `nodes` may answer, not a list that is no connection (a product's 250 media
 * cost 1), so past MAX_OBJECTS objects, or past DEADLINE_MS after it started, a field still to
 * resolve fails (MAX_OBJECTS_EXCEEDED, DEADLINE_EXCEEDED) instead of reading more.
 */
export const MAX_OBJECTS = 10_000;
export const DEADLINE_MS = 2_000;

export type Work = { objects: number; deadline: number; clock: Clock };

/** A request's Work, its deadline from now. */
export const startWork = (clock: Clock): Work => ({ objects: 0, deadline: clock.now().getTime() + DEADLINE_MS, clock });

/** The codes of the errors that stop a request's remaining fields: the answer carries the first only. */
export const STOPPED = new Set(['MAX_OBJECTS_EXCEEDED', 'DEADLINE_EXCEEDED']);

function overBudget(work: Work): void {
  if (work.objects > MAX_OBJECTS)
    throw new GraphQLError(`The request read more than ${MAX_OBJECTS} objects: what it has not read yet is not read`, {
      extensions: { code: 'MAX_OBJECTS_EXCEEDED', maxObjects: MAX_OBJECTS },
    });
}

/** Before a resolver reads: the request is within its objects and its time. */
function mayRead(work: Work): void {
  overBudget(work);
  if (work.clock.now().getTime() > work.deadline)
    throw new GraphQLError(`The request ran longer than ${DEADLINE_MS} ms: what it has not read yet is not read`, {
      extensions: { code: 'DEADLINE_EXCEEDED', deadlineMs: DEADLINE_MS },
    });
}

type Counted = 'connection' | 'objects' | 'mutation';
type WorkContext = { work?: Work | null };

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
  // What took the request past its objects is not handed on either.
  overBudget(work);
  return value;
}

/** The resolvers countWork made: what test/graphql/schema.test.ts checks every composite field has. */
const COUNTING = new WeakSet<object>();
export const countsWork = (resolve: unknown) => typeof resolve === 'function' && COUNTING.has(resolve);

function counting(resolve: GraphQLFieldResolver<unknown, WorkContext>, counted: Counted): GraphQLFieldResolver<unknown, WorkContext> {
  const wrapped: GraphQLFieldResolver<unknown, WorkContext> = (source, args, context, info) => {
    const work = context?.work;
    if (!work) return resolve(source, args, context, info);
    mayRead(work);
    // A mutation ran once it was called, whatever it answers.
    if (counted === 'mutation') work.objects += MUTATION_COST;
    const result = resolve(source, args, context, info);
    return isPromise(result) ? result.then((value) => tally(work, counted, value)) : tally(work, counted, result);
  };
  COUNTING.add(wrapped);
  return wrapped;
}

/**
 * Make every resolver of a composite field of `schema` check its request's Work before it reads
 * and count what it produced after (a context without one, as the bulk export's, runs them as
 * they are). A connection's `edges` count nothing (their `node`s do), and `pageInfo` nothing.
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
