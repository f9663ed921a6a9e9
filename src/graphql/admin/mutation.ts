import { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType, type GraphQLResolveInfo } from 'graphql';
import type { z } from 'zod';
import { sha256 } from '../../digest.js';
import { PlatformError } from '../../errors.js';
import { principalKey } from '../../http/context.js';
import type { RequestRef } from '../../orders/index.js';
import { ownValue } from '../../own-keys.js';
import { fromGlobalId, idOf } from '../ids.js';
import { need, type AdminContext } from './context.js';

/** The SDL of the payload a mutation of `type` answers (Shopify's): what it made or changed, under the type's name in camelCase, and its user errors. */
export const payloadTypeDefs = (type: string) => /* GraphQL */ `
  type ${type}Payload {
    ${type.charAt(0).toLowerCase()}${type.slice(1)}: ${type}
    userErrors: [UserError!]!
  }
`;

/** One problem of a mutation, Shopify's shape: the input path in GraphQL's names, the message, a code. */
export type UserError = { field: string[] | null; message: string; code: string | null };

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const snake = (camelCase: string) => camelCase.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A GraphQL input as its REST body: field names in snake_case, enum values in lowercase, global
 * ids as the REST ids they name. The REST schema then checks it, so both edges refuse the same
 * input with the same messages.
 */
export function restInput(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return Array.isArray(value) ? value.map((v) => restInput(v, inner.ofType)) : value;
  if (isEnumType(inner)) return typeof value === 'string' ? value.toLowerCase() : value;
  if (isInputObjectType(inner)) {
    const fields = inner.getFields();
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
        const field = ownValue(fields, key);
        return field ? [[snake(key), restInput(v, field.type)]] : [];
      }),
    );
  }
  if (getNamedType(inner).name === 'ID' && typeof value === 'string') return fromGlobalId(value)?.id ?? value;
  return value;
}

const pathOf = (root: string, path: readonly PropertyKey[]) => [root, ...path.map((p) => camel(String(p)))];

/** The REST body of a mutation's `input`, or its problems as user errors. */
function bodyOf<S extends z.ZodType>(schema: S, input: unknown, info: GraphQLResolveInfo): { body: z.output<S> } | { userErrors: UserError[] } {
  const definition = ownValue(info.parentType.getFields(), info.fieldName)!;
  const type = definition.args.find((a) => a.name === 'input')!.type;
  const parsed = schema.safeParse(restInput(input, type));
  if (parsed.success) return { body: parsed.data };
  return { userErrors: parsed.error.issues.map((i) => ({ field: pathOf('input', i.path), message: i.message, code: 'INVALID' })) };
}

/** A service's refusal as user errors: each input issue at its path, or the rule it broke (`HANDLE_TAKEN`, `NOT_FOUND`). */
function userErrorsOf(err: unknown): UserError[] {
  if (!(err instanceof PlatformError)) throw err;
  if (err.extra.issues?.length)
    return err.extra.issues.map((i) => ({ field: i.path ? pathOf('input', i.path.split('.')) : ['input'], message: i.message, code: err.code.toUpperCase() }));
  return [{ field: null, message: err.message, code: err.code.toUpperCase() }];
}

/** A global id of `type` as its REST id, or a user error at `id`. */
function restId(gid: string, type: string): { id: string } | { userErrors: UserError[] } {
  const id = idOf(gid, type);
  return id ? { id } : { userErrors: [{ field: ['id'], message: `must be the id of a ${type} (gid://emporium/${type}/…)`, code: 'INVALID' }] };
}

/**
 * The request an order change remembers with an Idempotency-Key (as REST's, docs/orders.md "Safe
 * retries"): the key as the caller, the store and the mutation scope it, and a hash of the input.
 */
export function requestOf(ctx: AdminContext, mutation: string, input: unknown): RequestRef | null {
  const key = ctx.koa?.get('Idempotency-Key');
  if (!key) return null;
  return { id: sha256(`${principalKey(ctx.principal)}|${ctx.store.id}|graphql ${mutation}|${key}`), hash: sha256(JSON.stringify(input ?? null)) };
}

/** The arguments of a mutation, as sent: the global id of the object it changes, and its input. */
export type MutationArgs = { id?: string; input?: unknown };
/** A mutation's answer: what it made or changed under its key (null when refused), and its user errors. */
export type Payload<K extends string, T> = { [P in K]: T | null } & { userErrors: UserError[] };

/** A mutation (docs/graphql.md, Mutations), declared in one object as `endpoint()` declares a route. */
export type MutationSpec<K extends string, T, S extends z.ZodType, I extends string> = {
  /** What an app's token needs (MERCHANTS_ONLY: the store's merchant only). */
  scope: string;
  /** The REST body schema that checks `input` (turned into REST's names first), or the function of the request that gives it; none, no input. */
  input?: S | ((ctx: AdminContext) => S);
  /** The type `id` is a global id of, for a mutation of one object: its REST id is handed to `run`. */
  idType?: I;
  /** The payload's field for what `run` answers. */
  payloadKey: K;
  /** The service call, with the checked body and the REST id; a PlatformError it throws is answered as user errors. */
  run(ctx: AdminContext, call: { body: z.output<S>; id: [I] extends [never] ? null : string; args: MutationArgs }): Promise<T>;
};

/**
 * A mutation's resolver: its scope checked, its `id` turned into a REST id of `idType` and its
 * `input` into the REST body and checked by the REST schema, then `run`: its result under
 * `payloadKey`, or every refusal (of the id, the input or the service) as user errors, never a
 * GraphQL error.
 */
export function mutation<const K extends string, T, S extends z.ZodType = z.ZodUndefined, I extends string = never>(spec: MutationSpec<K, T, S, I>) {
  const refused = (userErrors: UserError[]) => ({ [spec.payloadKey]: null, userErrors }) as Payload<K, T>;
  return async (_: unknown, args: MutationArgs, ctx: AdminContext, info: GraphQLResolveInfo): Promise<Payload<K, T>> => {
    need(ctx, spec.scope, info.fieldName);
    let id: string | null = null;
    if (spec.idType) {
      const parsed = restId(args.id!, spec.idType);
      if ('userErrors' in parsed) return refused(parsed.userErrors);
      id = parsed.id;
    }
    let body: z.output<S> = undefined as z.output<S>;
    if (spec.input) {
      const parsed = bodyOf(typeof spec.input === 'function' ? spec.input(ctx) : spec.input, args.input, info);
      if ('userErrors' in parsed) return refused(parsed.userErrors);
      body = parsed.body;
    }
    try {
      return { [spec.payloadKey]: await spec.run(ctx, { body, id: id as [I] extends [never] ? null : string, args }), userErrors: [] } as Payload<K, T>;
    } catch (err) {
      return refused(userErrorsOf(err));
    }
  };
}

/** A mutation that deletes one object of `idType` through its service (`remove`, with the REST id): the deleted object's global id under `deletedId` (DeletePayload). */
export const deletion = (scope: string, idType: string, remove: (ctx: AdminContext, id: string) => Promise<void>) =>
  mutation({
    scope,
    idType,
    payloadKey: 'deletedId',
    run: async (ctx, { id, args }) => {
      await remove(ctx, id);
      return args.id;
    },
  });
