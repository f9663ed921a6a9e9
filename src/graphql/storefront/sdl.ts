/**
 * The storefront schema (docs/graphql.md, The storefront schema): what the public storefront REST
 * API shows, by the same allow-list (published products only, no stock counts, SKUs or internal
 * fields), the cart through its token, and the signed-in customer's own account.
 */
export const STOREFRONT_SDL = /* GraphQL */ `
  """
  The Emporium Storefront API, public. The store is named by the X-Store-Subdomain header. Cart
  mutations stay on REST (POST, PATCH and DELETE /v1/storefront/:subdomain/cart): the cart query
  reads the same persisted cart, through its token. A customer's token (Authorization: Bearer)
  adds the customer query.
  """
  schema {
    query: QueryRoot
  }

  scalar DateTime
  scalar Decimal

  interface Node {
    id: ID!
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type MoneyV2 {
    amount: Decimal!
    currencyCode: String!
    minorUnits: Int!
  }

  type Shop {
    name: String!
    subdomain: String!
    currencyCode: String!
    locale: String!
  }

  type ProductOption {
    name: String!
    values: [String!]!
  }

  type SelectedOption {
    name: String!
    value: String!
  }

  type ProductPriceRange {
    minVariantPrice: MoneyV2!
    maxVariantPrice: MoneyV2!
  }

  type Product implements Node {
    id: ID!
    title: String!
    handle: String!
    descriptionHtml: String!
    vendor: String
    productType: String
    tags: [String!]!
    options: [ProductOption!]!
    availableForSale: Boolean!
    priceRange: ProductPriceRange!
    variants(first: Int, after: String, last: Int, before: String): ProductVariantConnection!
  }

  type ProductVariant implements Node {
    id: ID!
    title: String!
    price: MoneyV2!
    compareAtPrice: MoneyV2
    selectedOptions: [SelectedOption!]!
    availableForSale: Boolean!
  }

  type ProductEdge {
    cursor: String!
    node: Product!
  }

  type ProductConnection {
    edges: [ProductEdge!]!
    nodes: [Product!]!
    pageInfo: PageInfo!
  }

  type ProductVariantEdge {
    cursor: String!
    node: ProductVariant!
  }

  type ProductVariantConnection {
    edges: [ProductVariantEdge!]!
    nodes: [ProductVariant!]!
    pageInfo: PageInfo!
  }

  type Collection implements Node {
    id: ID!
    title: String!
    handle: String!
    descriptionHtml: String!
    products(first: Int, after: String, last: Int, before: String): ProductConnection!
  }

  type CollectionEdge {
    cursor: String!
    node: Collection!
  }

  type CollectionConnection {
    edges: [CollectionEdge!]!
    nodes: [Collection!]!
    pageInfo: PageInfo!
  }

  enum CartLineProblem {
    DELETED
    UNPUBLISHED
    OUT_OF_STOCK
  }

  """
  One line of a cart, priced now from the catalog (as GET /v1/storefront/:subdomain/cart answers it).
  """
  type CartLine {
    variantId: ID!
    productId: ID
    productTitle: String
    variantTitle: String
    quantity: Int!
    unitPrice: MoneyV2
    lineTotal: MoneyV2!
    problem: CartLineProblem
  }

  type CartCoupon {
    code: String!
    applicable: Boolean!
    discount: MoneyV2!
    reason: String
  }

  """
  A persisted cart, read through its token. Cart mutations stay on REST.
  """
  type Cart {
    id: ID!
    version: Int!
    lines: [CartLine!]!
    itemCount: Int!
    coupon: CartCoupon
    subtotal: MoneyV2!
    discount: MoneyV2!
    total: MoneyV2!
    purchasable: Boolean!
    expiresAt: DateTime!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type MailingAddress {
    id: ID
    firstName: String
    lastName: String
    company: String
    address1: String!
    address2: String
    city: String!
    province: String
    provinceCode: String
    countryCode: String!
    zip: String
    phone: String
  }

  type MailingAddressEdge {
    cursor: String!
    node: MailingAddress!
  }

  type MailingAddressConnection {
    edges: [MailingAddressEdge!]!
    nodes: [MailingAddress!]!
    pageInfo: PageInfo!
  }

  type OrderLineItem {
    title: String!
    variantTitle: String
    quantity: Int!
    unitPrice: MoneyV2!
    total: MoneyV2!
  }

  type Order implements Node {
    id: ID!
    name: String!
    number: Int!
    lineItems: [OrderLineItem!]!
    subtotal: MoneyV2!
    totalShipping: MoneyV2!
    totalTax: MoneyV2!
    total: MoneyV2!
    financialStatus: String!
    fulfillmentStatus: String!
    createdAt: DateTime!
  }

  type OrderEdge {
    cursor: String!
    node: Order!
  }

  type OrderConnection {
    edges: [OrderEdge!]!
    nodes: [Order!]!
    pageInfo: PageInfo!
  }

  """
  The signed-in customer's own account.
  """
  type Customer {
    id: ID!
    email: String
    firstName: String
    lastName: String
    phone: String
    acceptsMarketing: Boolean!
    defaultAddress: MailingAddress
    addresses(first: Int, after: String, last: Int, before: String): MailingAddressConnection!
    orders(first: Int, after: String, last: Int, before: String): OrderConnection!
    createdAt: DateTime!
  }

  type QueryRoot {
    shop: Shop!
    """
    A published product by handle, or null.
    """
    product(handle: String!): Product
    """
    Published products, oldest first.
    """
    products(first: Int, after: String, last: Int, before: String): ProductConnection!
    collection(handle: String!): Collection
    collections(first: Int, after: String, last: Int, before: String): CollectionConnection!
    """
    The cart of a token (the argument, else the X-Cart-Token header), priced now; null for an unknown, expired or checked-out one.
    """
    cart(token: String): Cart
    """
    The customer whose token the request carries (Authorization: Bearer), or null without one.
    """
    customer: Customer
  }
`;
