import { CreateCustomerBody, ListCustomersQuery, UpdateCustomerBody, createCustomer, listCustomers, updateCustomer } from '../../customers/index.js';
import { arrayConnection, listedTypeDefs } from '../connections.js';
import { restQuery } from '../resolving.js';
import { optionalFields } from '../sdl.js';
import { mailingAddress, money } from '../shared.js';
import { listField, loadedById, need, resourceFields } from './context.js';
import { mutation, payloadTypeDefs } from './mutation.js';
import { tagged, type NodeLoaders } from './nodes.js';
import { orderConnection } from './orders.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';

/** What a customer is created with; an update takes the same fields, none required. */
const customerInputFields = `
    email: String!
    firstName: String
    lastName: String
    phone: String
    acceptsMarketing: Boolean
    tags: [String!]
    note: String
`;

/** Customers and their addresses (read_customers); a customer's orders need read_orders too. */
export const typeDefs = /* GraphQL */ `
  type Customer implements Node {
    id: ID!
    legacyResourceId: String!
    email: String
    firstName: String
    lastName: String
    phone: String
    acceptsMarketing: Boolean!
    tags: [String!]!
    note: String
    numberOfOrders: Int!
    amountSpent: MoneyV2!
    defaultAddress: MailingAddress
    addresses(first: Int, after: String, last: Int, before: String): MailingAddressConnection!
    orders(first: Int, after: String, last: Int, before: String): OrderConnection
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  ${listedTypeDefs('Customer', 'customer', 'customers', { filters: 'query: String' })}

  input CustomerCreateInput {${customerInputFields}}

  input CustomerUpdateInput {${optionalFields(customerInputFields)}}

  ${payloadTypeDefs('Customer')}
  extend type Mutation {
    customerCreate(input: CustomerCreateInput!): CustomerPayload
    customerUpdate(id: ID!, input: CustomerUpdateInput!): CustomerPayload
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    customer: (_, { id }, ctx) => loadedById(ctx, id, 'Customer', 'customer', ctx.loaders.customers),
    customers: (_, args, ctx) =>
      listField(ctx, 'Customer', 'customers', args, ({ limit, cursor, backwards }) =>
        listCustomers(ctx.platform, ctx.store.id, { ...restQuery(ListCustomersQuery, { limit, cursor, query: args.query }), backwards }, ctx.reads?.customers),
      ),
  },
  Customer: {
    ...resourceFields('Customer'),
    firstName: (c) => c.first_name,
    lastName: (c) => c.last_name,
    acceptsMarketing: (c) => c.accepts_marketing,
    numberOfOrders: (c) => c.orders_count,
    amountSpent: (c, _, ctx) => money(c.total_spent, c.currency ?? ctx.store.currency),
    defaultAddress: async (c, _, ctx) => {
      const found = (await ctx.loaders.addresses.load(c.id))?.find((a) => a.id === c.default_address_id);
      return found ? mailingAddress(found) : null;
    },
    addresses: async (c, args, ctx) => arrayConnection((await ctx.loaders.addresses.load(c.id)) ?? [], args, mailingAddress),
    orders: (c, args, ctx) => {
      need(ctx, 'read_orders', 'orders');
      return orderConnection(ctx, args, { customer_id: c.id });
    },
  },
};

export const mutations: MutationResolvers = {
  customerCreate: mutation({
    scope: 'write_customers',
    input: CreateCustomerBody,
    payloadKey: 'customer',
    run: (ctx, { body }) => createCustomer(ctx.platform, ctx.store, body),
  }),
  customerUpdate: mutation({
    scope: 'write_customers',
    idType: 'Customer',
    input: UpdateCustomerBody,
    payloadKey: 'customer',
    run: (ctx, { body, id }) => updateCustomer(ctx.platform, ctx.store.id, id, body),
  }),
};

export const nodes: NodeLoaders = {
  Customer: async (ctx, id) => tagged('Customer', await ctx.loaders.customers.load(id)),
};
