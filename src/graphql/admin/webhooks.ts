import { createSubscription, getSubscription, listSubscriptions, subscriptionSchemas } from '../../webhooks/index.js';
import { connectionTypeDefs, cursorObjectId } from '../connections.js';
import { orNull } from '../resolving.js';
import { byId, listField, resourceFields, type AdminContext } from './context.js';
import { mutation } from './mutation.js';
import { tagged, type NodeLoaders } from './nodes.js';
import { MERCHANTS_ONLY } from './scopes.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';

/** The merchant's webhook subscriptions (the merchant only: an app's are in its manifest). */
export const typeDefs = /* GraphQL */ `
  """
  A merchant's webhook subscription of the store (never its secret). Apps subscribe through their manifest.
  """
  type WebhookSubscription implements Node {
    id: ID!
    legacyResourceId: String!
    targetUrl: String!
    eventTypes: [String!]!
    active: Boolean!
    description: String
    disabledReason: String
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  ${connectionTypeDefs('WebhookSubscription')}

  extend type QueryRoot {
    """
    The merchant's webhook subscriptions (merchants only: an app's are in its manifest).
    """
    webhookSubscription(id: ID!): WebhookSubscription
    webhookSubscriptions(first: Int, after: String, last: Int, before: String): WebhookSubscriptionConnection
  }

  input WebhookSubscriptionCreateInput {
    targetUrl: String!
    eventTypes: [String!]!
    active: Boolean
    description: String
  }

  type WebhookSubscriptionPayload {
    webhookSubscription: WebhookSubscription
    """
    The signing secret, shown once (as REST's create answers it).
    """
    secret: String
    userErrors: [UserError!]!
  }

  extend type Mutation {
    webhookSubscriptionCreate(input: WebhookSubscriptionCreateInput!): WebhookSubscriptionPayload
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    webhookSubscription: (_, { id }, ctx) => byId(ctx, id, 'WebhookSubscription', 'webhookSubscription', getSubscription),
    webhookSubscriptions: (_, args, ctx) =>
      listField(ctx, 'WebhookSubscription', 'webhookSubscriptions', args, ({ limit, cursor, backwards }) =>
        listSubscriptions(ctx.platform, ctx.store.id, { limit, cursor: cursorObjectId(cursor), backwards }),
      ),
  },
  WebhookSubscription: {
    ...resourceFields('WebhookSubscription'),
    targetUrl: (w) => w.target_url,
    eventTypes: (w) => w.event_types,
    disabledReason: (w) => w.disabled_reason,
  },
  WebhookSubscriptionPayload: {
    // The subscription just made carries its secret, this once.
    secret: (p) => p.webhookSubscription?.secret ?? null,
  },
};

export const mutations: MutationResolvers = {
  webhookSubscriptionCreate: mutation({
    scope: MERCHANTS_ONLY,
    // The event types a subscription may name are the platform's (its event registry).
    input: (ctx: AdminContext) => subscriptionSchemas(ctx.platform.events).CreateSubscriptionBody,
    payloadKey: 'webhookSubscription',
    run: (ctx, { body }) =>
      createSubscription(ctx.platform, ctx.store.id, { type: 'merchant', id: ctx.principal.kind === 'merchant' ? ctx.principal.merchantId : '' }, body),
  }),
};

export const nodes: NodeLoaders = {
  WebhookSubscription: async (ctx, id) => tagged('WebhookSubscription', await orNull(getSubscription(ctx.platform, ctx.store.id, id))),
};
