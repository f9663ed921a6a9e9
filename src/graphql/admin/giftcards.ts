import { getGiftCard, listGiftCards, ListGiftCardsQuery } from '../../giftcards/index.js';
import { listedTypeDefs } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { orNull, restQuery } from '../resolving.js';
import { enumValue, money } from '../shared.js';
import { byId, listField, resourceFields } from './context.js';
import { tagged, type NodeLoaders } from './nodes.js';
import type { Resolvers } from './types.generated.js';

/** Gift cards (read_gift_cards). */
export const typeDefs = /* GraphQL */ `
  enum GiftCardStatus {
    ACTIVE
    DISABLED
  }

  """
  A gift card: its code is never shown, only its last characters (as in REST).
  """
  type GiftCard implements Node {
    id: ID!
    legacyResourceId: String!
    lastCharacters: String!
    initialValue: MoneyV2!
    balance: MoneyV2!
    status: GiftCardStatus!
    expiresOn: String
    note: String
    customerId: ID
    disabledAt: DateTime
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  ${listedTypeDefs('GiftCard', 'giftCard', 'giftCards', { filters: 'status: GiftCardStatus' })}
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    giftCard: (_, { id }, ctx) => byId(ctx, id, 'GiftCard', 'giftCard', getGiftCard),
    giftCards: (_, args, ctx) =>
      listField(ctx, 'GiftCard', 'giftCards', args, ({ limit, cursor, backwards }) =>
        listGiftCards(ctx.platform, ctx.store.id, { ...restQuery(ListGiftCardsQuery, { limit, cursor, status: args.status?.toLowerCase() }), backwards }),
      ),
  },
  GiftCard: {
    ...resourceFields('GiftCard'),
    lastCharacters: (g) => g.last_characters,
    initialValue: (g) => money(g.initial_value, g.currency),
    balance: (g) => money(g.balance, g.currency),
    status: (g) => enumValue(g.status),
    expiresOn: (g) => g.expires_on,
    customerId: (g) => (g.customer_id ? toGlobalId('Customer', g.customer_id) : null),
    disabledAt: (g) => g.disabled_at,
  },
};

export const nodes: NodeLoaders = {
  GiftCard: async (ctx, id) => tagged('GiftCard', await orNull(getGiftCard(ctx.platform, ctx.store.id, id))),
};
