import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  execute,
  getVariableValues,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { createHandler, type Request as GraphQLRequest, type Response as GraphQLResponse } from 'graphql-http';
import type { Middleware } from 'koa';
import { PlatformError, issueDetails } from '../errors.js';
import type { AppContext, AppCustom, AppState } from '../http/context.js';
import type { Platform } from '../platform.js';
import { operationOf, requestedCost, type FieldCost } from './cost.js';
import { MAX_TOKENS, MaxAliasesRule, MaxDepthRule, MaxSchemaIntrospectionRule } from './limits.js';
import { STOPPED, startWork, type Work } from './work.js';

/** The most a single query may cost (docs/graphql.md, Query cost): Shopify's figure. */
export const MAX_QUERY_COST = 1000;
/** What every request spends at least, a document refused before it runs included (Shopify charges those too). */
export const FLOOR_COST = 1;
/**
 * A document this process has not checked costs a point per this many bytes (at least the floor)
 * before it is parsed and validated: graphql-js's validation of a large document (thousands of
 * sibling fields) takes ten times its parsing, so a new document pays for the work its size buys.
 * A known document is not checked again and pays only its query cost.
 */
export const CHECK_BYTES_PER_POINT = 200;
export const checkCost = (query: string) => Math.max(FLOOR_COST, Math.ceil(query.length / CHECK_BYTES_PER_POINT));
/** Documents kept parsed and validated per edge (the oldest dropped first), and the longest query kept. */
const MAX_CACHED_DOCUMENTS = 500;
const MAX_CACHED_QUERY = 20_000;
/** Introspection answers kept per edge: a few documents ask (GraphiQL's, a code generator's), a few hundred kilobytes each. */
const MAX_CACHED_INTROSPECTIONS = 20;
/** The header with which a client asks for each field's cost in `extensions.cost.fields` (Shopify's name). */
export const COST_FIELDS_HEADER = 'x-graphql-cost-include-fields';

/** Shopify's throttleStatus: what the caller's bucket holds after this request. */
export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
export type Spend = ThrottleStatus & { allowed: boolean; retryAfterSeconds: number };

/** How a schema's queries are metered: spend the requested cost before running, refund the unused part after. */
export type Meter = {
  spend(ctx: AppContext, cost: number): Promise<Spend>;
  /** Give `points` back (now or soon); answers the bucket as the caller should see it, from its status after the spend. */
  refund(ctx: AppContext, points: number, after: ThrottleStatus): ThrottleStatus;
};

export type GraphQLEdge<C> = {
  schema: GraphQLSchema;
  /** The resolvers' context for this request (its caller, store, loaders). */
  contextOf(ctx: AppContext): Promise<C> | C;
  meter: Meter;
  /** Whether this request may introspect the schema. */
  introspection(ctx: AppContext): boolean;
};

type Cost = {
  requested: number;
  /** What was spent before the document was parsed: its check cost, for a document this process had not checked yet. */
  paid: number;
  fields: FieldCost[] | null;
  spend: Spend | null;
  /** The key of this query's answer among the introspection answers, when it asks for nothing else. */
  introspection: string | null;
};
/** `work`: what the resolvers did, from when the query starts to run. */
type Ctx<C> = C & { koa: AppContext; cost: Cost; work: Work | null };
type CostExtension = { requestedQueryCost: number; actualQueryCost: number | null; throttleStatus: ThrottleStatus };
/** `refused`: the cost of a request answered before it ran, added to graphql-http's answer of its errors. */
type RequestContext = { koa: AppContext; refused: CostExtension | null };

const json = (body: unknown) => JSON.stringify(body);

const status = ({ maximumAvailable, currentlyAvailable, restoreRate }: ThrottleStatus): ThrottleStatus => ({
  maximumAvailable,
  currentlyAvailable,
  restoreRate,
});

/** 429 THROTTLED with Retry-After: `requested` is not in the caller's bucket, and nothing ran. */
function throttled(requested: number, spend: Spend): GraphQLResponse {
  const body = {
    errors: [new GraphQLError('Throttled', { extensions: { code: 'THROTTLED', requestedQueryCost: requested, retryAfterSeconds: spend.retryAfterSeconds } })],
    extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: status(spend) } },
  };
  return [
    json(body),
    {
      status: 429,
      statusText: 'Too Many Requests',
      headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(spend.retryAfterSeconds) },
    },
  ];
}

/** An operation that asks for nothing but introspection (`__schema`, `__type`, `__typename`): its answer is the schema's, whoever asks. */
const onlyIntrospection = (operation: OperationDefinitionNode) =>
  operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));

/** Keep `value` under `key`, the oldest dropped first past `max`. */
function keep<V>(cache: Map<string, V>, key: string, value: V, max: number): void {
  if (cache.size >= max) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

/** A stopped request's fields after the first fail for the same reason: the first says it (work.ts, STOPPED). */
function firstStop(errors: readonly GraphQLError[]): GraphQLError[] {
  const said = new Set<unknown>();
  return errors.filter((e) => {
    const code = e.extensions.code;
    if (!STOPPED.has(code as string)) return true;
    if (said.has(code)) return false;
    said.add(code);
    return true;
  });
}

/** A resolver's error as the client sees it: ours with its code, anything else generic (and logged). */
function formatError(platform: Platform) {
  return (err: Readonly<GraphQLError | Error>): GraphQLError | Error => {
    if (!(err instanceof GraphQLError)) return err;
    const original = err.originalError;
    if (!original || original instanceof GraphQLError) return err;
    if (original instanceof PlatformError) {
      return new GraphQLError(original.message, {
        ...(err.path ? { path: err.path } : {}),
        ...(err.nodes ? { nodes: err.nodes } : {}),
        extensions: {
          code: original.code.toUpperCase(),
          ...(original.extra.issues?.length
            ? { details: issueDetails(original.extra.issues, null) }
            : original.extra.details?.length
              ? { details: original.extra.details }
              : {}),
        },
      });
    }
    platform.log.error({ event: 'graphql.resolver_failed', path: err.path, err: original.message, stack: original.stack });
    return new GraphQLError('Internal error', { ...(err.path ? { path: err.path } : {}), extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
}

/**
 * A GraphQL endpoint (docs/graphql.md): GraphQL over HTTP by graphql-http (GET for queries,
 * POST, `application/json` and `application/graphql-response+json`, its own answers for what is
 * not a GraphQL request), with the platform's limits before anything runs: the parser's token
 * limit, depth and alias limits, the cost of each connection's size, MAX_QUERY_COST, and the
 * caller's bucket (429 THROTTLED with Retry-After when the requested cost is not available).
 * The resolvers count what they produce as they run (work.ts): the actual cost is that count,
 * never more than was requested, and the difference is refunded; every answer carries
 * `extensions.cost`.
 */
export function graphqlMiddleware<C extends object>(platform: Platform, edge: GraphQLEdge<C>): Middleware<AppState, AppCustom> {
  // Clients send the same few queries again and again: each is parsed and validated once (per introspection rule), then reused.
  const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();
  const documentKey = (query: string, introspection: boolean) => `${introspection ? 1 : 0}${query}`;
  const checkDocument = (query: string, introspection: boolean): DocumentNode | readonly GraphQLError[] => {
    let checked: DocumentNode | readonly GraphQLError[];
    try {
      const document = parse(query, { maxTokens: MAX_TOKENS });
      const rules = [...specifiedRules, MaxDepthRule, MaxAliasesRule, MaxSchemaIntrospectionRule, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
      const invalid = validate(edge.schema, document, rules);
      checked = invalid.length ? invalid : document;
    } catch (err) {
      checked = [err instanceof GraphQLError ? err : new GraphQLError('The query could not be parsed')];
    }
    if (query.length <= MAX_CACHED_QUERY) keep(documents, documentKey(query, introspection), checked, MAX_CACHED_DOCUMENTS);
    return checked;
  };
  // The answers of introspection queries (a few hundred kilobytes of the whole schema each): computed once per document.
  const introspections = new Map<string, ExecutionResult>();
  const handler = createHandler<AppContext['req'], RequestContext, Ctx<C>>({
    schema: edge.schema,
    formatError: formatError(platform),
    onSubscribe: async (req, params) => {
      const ctx = req.context.koa;
      const introspection = edge.introspection(ctx);
      let checked = documents.get(documentKey(params.query, introspection));
      let floor: Spend | null = null;
      let paid = 0;
      if (!checked) {
        // A document this process has not checked: its check cost is spent before it is parsed and validated, so the new documents of a throttled caller cost a look at its bucket, and a large one pays for its validation.
        paid = checkCost(params.query);
        floor = await edge.meter.spend(ctx, paid);
        if (!floor.allowed) return throttled(paid, floor);
        checked = checkDocument(params.query, introspection);
      }
      // Refused before it runs: the request costs the floor (spent now, for a document that was known) or its check, and its answer says so.
      const refuse = async (errors: readonly GraphQLError[], requested = FLOOR_COST) => {
        if (!floor) {
          floor = await edge.meter.spend(ctx, FLOOR_COST);
          paid = FLOOR_COST;
        }
        if (!floor.allowed) return throttled(FLOOR_COST, floor);
        req.context.refused = { requestedQueryCost: requested, actualQueryCost: paid, throttleStatus: status(floor) };
        return errors;
      };
      if (Array.isArray(checked)) return refuse(checked);
      const document = checked as DocumentNode;
      const operation = operationOf(document, params.operationName);
      if (!operation)
        return refuse([
          new GraphQLError(params.operationName ? `No operation named "${params.operationName}"` : 'Name the operation to run: the document has several'),
        ]);
      const coerced = getVariableValues(edge.schema, operation.variableDefinitions ?? [], params.variables ?? {});
      if (coerced.errors) return refuse(coerced.errors);
      const breakdown = ctx.get(COST_FIELDS_HEADER).toLowerCase() === 'true';
      const { cost, errors, fields } = requestedCost(edge.schema, document, params.operationName, coerced.coerced, breakdown);
      if (errors.length) return refuse(errors);
      if (cost > MAX_QUERY_COST)
        return refuse(
          [
            new GraphQLError(`Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`, {
              extensions: { code: 'MAX_COST_EXCEEDED', cost, maxCost: MAX_QUERY_COST },
            }),
          ],
          cost,
        );
      const introspectionKey =
        onlyIntrospection(operation) && params.query.length <= MAX_CACHED_QUERY
          ? `${params.operationName ?? ''}\n${json(coerced.coerced)}\n${params.query}`
          : null;
      const contextValue = {
        ...(await edge.contextOf(ctx)),
        koa: ctx,
        cost: { requested: Math.max(FLOOR_COST, cost), paid, fields, spend: floor, introspection: introspectionKey },
        work: null,
      } as Ctx<C>;
      return {
        schema: edge.schema,
        document,
        ...(params.operationName ? { operationName: params.operationName } : {}),
        variableValues: params.variables ?? {},
        contextValue,
      };
    },
    // After graphql-http refused a mutation over GET: only what will run is metered (beyond the floor of a new document).
    execute: async (args): Promise<ExecutionResult> => {
      const context = args.contextValue as Ctx<C>;
      const { cost } = context;
      // The requested cost less what the floor paid: one spend, or none when the floor was all of it.
      if (cost.requested > cost.paid) cost.spend = await edge.meter.spend(context.koa, cost.requested - cost.paid);
      if (!cost.spend!.allowed) return {}; // answered 429 by onOperation
      context.work = startWork(platform.clock);
      if (!cost.introspection) return (await execute(args)) as ExecutionResult;
      const known = introspections.get(cost.introspection);
      if (known) return known;
      const answered = (await execute(args)) as ExecutionResult;
      if (!answered.errors) keep(introspections, cost.introspection, answered, MAX_CACHED_INTROSPECTIONS);
      return answered;
    },
    onOperation: async (req, args, result) => {
      const { cost, work } = args.contextValue as Ctx<C>;
      const spend = cost.spend!;
      if (!spend.allowed) return throttled(cost.requested, spend);
      // What the resolvers produced, whatever an error did to `data` afterwards, within [floor, requested], and never less than the check paid before parsing; nothing here looks at the document again.
      const actual = Math.max(FLOOR_COST, cost.paid, Math.min(cost.requested, work!.objects));
      const charged = Math.max(cost.paid, cost.requested);
      const after = charged > actual ? edge.meter.refund(req.context.koa, charged - actual, spend) : spend;
      return {
        ...result,
        ...(result.errors ? { errors: firstStop(result.errors) } : {}),
        extensions: {
          ...result.extensions,
          cost: {
            requestedQueryCost: cost.requested,
            actualQueryCost: actual,
            throttleStatus: status(after),
            ...(cost.fields ? { fields: cost.fields } : {}),
          },
        },
      };
    },
  });

  return async (ctx) => {
    const request: GraphQLRequest<AppContext['req'], RequestContext> = {
      url: ctx.url,
      method: ctx.method,
      headers: ctx.headers,
      body: () => (ctx.method === 'POST' ? ((ctx.request as { body?: unknown }).body as Record<string, unknown>) : null) as never,
      raw: ctx.req,
      context: { koa: ctx, refused: null },
    };
    const [answered, init] = await handler(request);
    // graphql-http answers the errors of a request refused before it ran; what it cost is added.
    const refused = request.context.refused;
    const body = answered && refused ? json({ ...(JSON.parse(answered) as object), extensions: { cost: refused } }) : answered;
    ctx.status = init.status;
    // graphql-http answers JSON text. With an Idempotency-Key it is kept as the object it is, so the key's replay answers it as JSON again.
    ctx.body = body && ctx.get('Idempotency-Key') ? (JSON.parse(body) as unknown) : (body ?? '');
    if (init.headers) for (const [name, value] of Object.entries(init.headers)) ctx.set(name, String(value));
    ctx.set('Cache-Control', 'no-store');
  };
}
