/** What only a merchant reads (its webhook subscriptions: an app's are in its manifest). */
export const MERCHANTS_ONLY = 'merchant';

/** The scopes an app token needs to read each kind of object (a merchant reads everything of its store). */
export const TYPE_SCOPES: Record<string, string | null> = {
  Shop: null,
  Product: 'read_products',
  ProductVariant: 'read_products',
  Collection: 'read_products',
  Customer: 'read_customers',
  Order: 'read_orders',
  Location: 'read_inventory',
  GiftCard: 'read_gift_cards',
  Coupon: 'read_discounts',
  WebhookSubscription: MERCHANTS_ONLY,
};
