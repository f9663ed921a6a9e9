import { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType, type GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import {
  CreateCollectionBody,
  CreateProductBody,
  UpdateCollectionBody,
  UpdateProductBody,
  createCollection,
  createProduct,
  deleteCollection,
  deleteProduct,
  updateCollection,
  updateProduct,
} from '../../catalog/index.js';
import { CreateCustomerBody, UpdateCustomerBody, createCustomer, updateCustomer } from '../../customers/index.js';
import { sha256 } from '../../digest.js';
import { PlatformError } from '../../errors.js';
import { principalKey } from '../../http/context.js';
import { AdjustLevelBody, adjustInventory } from '../../inventory/index.js';
import { CreateOrderBody, FulfillBody, RefundBody, createOrder, fulfillOrder, refundOrder, type RequestRef } from '../../orders/index.js';
import { ownValue } from '../../own-keys.js';
import { createSubscription, subscriptionSchemas } from '../../webhooks/index.js';
import { fromGlobalId, idOf } from '../ids.js';
import type { Resolvers } from '../schema.js';
import { need, type AdminContext } from './resolvers.js';

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

/** Run a mutation's service call: its result under `key`, or its refusal as user errors (and `key` null). */
async function mutate<K extends string, T>(key: K, run: () => Promise<T>): Promise<Record<K, T | null> & { userErrors: UserError[] }> {
  try {
    return { [key]: await run(), userErrors: [] } as Record<K, T | null> & { userErrors: UserError[] };
  } catch (err) {
    return { [key]: null, userErrors: userErrorsOf(err) } as Record<K, T | null> & { userErrors: UserError[] };
  }
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
function requestOf(ctx: AdminContext, mutation: string, input: unknown): RequestRef | null {
  const key = ctx.koa?.get('Idempotency-Key');
  if (!key) return null;
  return { id: sha256(`${principalKey(ctx.principal)}|${ctx.store.id}|graphql ${mutation}|${key}`), hash: sha256(JSON.stringify(input ?? null)) };
}

type Args = { id?: string; input?: unknown };
type Mutation = (_: never, args: Args, ctx: AdminContext, info: GraphQLResolveInfo) => Promise<unknown>;

/**
 * A mutation: its scope checked, its `input` turned into the REST body and checked by the REST
 * schema, then `run` with the body (and the REST id of `id` of `idType`, when it takes one).
 */
function mutation<S extends z.ZodType, K extends string>(
  scope: string,
  schema: S | null,
  key: K,
  run: (ctx: AdminContext, body: z.output<S>, id: string | null, args: Args) => Promise<unknown>,
  idType: string | null = null,
): Mutation {
  return async (_, args, ctx, info) => {
    need(ctx, scope, info.fieldName);
    let id: string | null = null;
    if (idType) {
      const parsed = restId(args.id!, idType);
      if ('userErrors' in parsed) return { [key]: null, ...parsed };
      id = parsed.id;
    }
    let body = undefined as z.output<S>;
    if (schema) {
      const parsed = bodyOf(schema, args.input, info);
      if ('userErrors' in parsed) return { [key]: null, ...parsed };
      body = parsed.body;
    }
    return mutate(key, () => run(ctx, body, id, args));
  };
}

const DELETED = 'deletedId';

/** collectionCreate makes manual collections (rule collections are made through REST): REST's body with its type. */
const ManualCollectionBody = z.preprocess(
  (input) => (input !== null && typeof input === 'object' ? { ...input, type: 'manual' } : input),
  CreateCollectionBody,
);

export const adminMutations: Resolvers<AdminContext> = {
  Mutation: {
    productCreate: mutation('write_products', CreateProductBody, 'product', (ctx, body) => createProduct(ctx.platform, ctx.store, body)),
    productUpdate: mutation('write_products', UpdateProductBody, 'product', (ctx, body, id) => updateProduct(ctx.platform, ctx.store.id, id!, body), 'Product'),
    productDelete: mutation(
      'write_products',
      null,
      DELETED,
      async (ctx, _, id, args) => {
        await deleteProduct(ctx.platform, ctx.store.id, id!);
        return args.id;
      },
      'Product',
    ),
    collectionCreate: mutation('write_products', ManualCollectionBody, 'collection', (ctx, body) => createCollection(ctx.platform, ctx.store.id, body)),
    collectionUpdate: mutation(
      'write_products',
      UpdateCollectionBody,
      'collection',
      (ctx, body, id) => updateCollection(ctx.platform, ctx.store.id, id!, body),
      'Collection',
    ),
    collectionDelete: mutation(
      'write_products',
      null,
      DELETED,
      async (ctx, _, id, args) => {
        await deleteCollection(ctx.platform, ctx.store.id, id!);
        return args.id;
      },
      'Collection',
    ),
    inventoryAdjustQuantity: mutation('write_inventory', AdjustLevelBody, 'inventoryLevel', (ctx, body) => adjustInventory(ctx.platform, ctx.store.id, body)),
    orderCreate: mutation('write_orders', CreateOrderBody, 'order', (ctx, body, _, args) =>
      createOrder(ctx.platform, ctx.store, body, requestOf(ctx, 'orderCreate', args.input)),
    ),
    orderFulfill: mutation(
      'write_orders',
      FulfillBody,
      'order',
      (ctx, body, id, args) => fulfillOrder(ctx.platform, ctx.store.id, id!, body, requestOf(ctx, `orderFulfill ${id}`, args.input)),
      'Order',
    ),
    orderRefund: mutation(
      'write_orders',
      RefundBody,
      'order',
      (ctx, body, id, args) => refundOrder(ctx.platform, ctx.store.id, id!, body, requestOf(ctx, `orderRefund ${id}`, args.input)),
      'Order',
    ),
    customerCreate: mutation('write_customers', CreateCustomerBody, 'customer', (ctx, body) => createCustomer(ctx.platform, ctx.store, body)),
    customerUpdate: mutation(
      'write_customers',
      UpdateCustomerBody,
      'customer',
      (ctx, body, id) => updateCustomer(ctx.platform, ctx.store.id, id!, body),
      'Customer',
    ),
    webhookSubscriptionCreate: async (_: never, args: Args, ctx: AdminContext, info: GraphQLResolveInfo) => {
      need(ctx, 'merchant', info.fieldName);
      const parsed = bodyOf(subscriptionSchemas(ctx.platform.events).CreateSubscriptionBody, args.input, info);
      if ('userErrors' in parsed) return { webhookSubscription: null, secret: null, ...parsed };
      const merchantId = ctx.principal.kind === 'merchant' ? ctx.principal.merchantId : '';
      const made = await mutate('webhookSubscription', () => createSubscription(ctx.platform, ctx.store.id, { type: 'merchant', id: merchantId }, parsed.body));
      return { ...made, secret: made.webhookSubscription?.secret ?? null };
    },
  },
} as unknown as Resolvers<AdminContext>;
