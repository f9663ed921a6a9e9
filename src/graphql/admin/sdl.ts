/**
 * The admin schema (docs/graphql.md, The admin schema): the data of the REST admin API, read
 * through the same services. Shopify's conventions: global ids, Relay connections, MoneyV2,
 * camelCase, enums in capitals.
 */
export const ADMIN_SDL = /* GraphQL */ `
  """
  The Emporium Admin API: a store's catalog, customers, orders and inventory. A merchant session
  with X-Store-Id, or an app's access token (its store). Each field needs the scope its REST twin
  needs (read_products, read_orders, read_customers, read_inventory, ...).
  """
  schema {
    query: QueryRoot
    mutation: Mutation
  }

  """
  An ISO 8601 date and time in UTC: 2026-11-26T20:01:02.003Z.
  """
  scalar DateTime
  """
  A decimal number as a string, exact: "19.99".
  """
  scalar Decimal
  """
  A whole number from 0 to 2^64 - 1 as a string (Shopify's UnsignedInt64): "400000".
  """
  scalar UnsignedInt64

  """
  An object with a global id: gid://emporium/<Type>/<id>.
  """
  interface Node {
    id: ID!
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  """
  An amount in a currency: amount as a decimal string, and the exact integer in minor units.
  """
  type MoneyV2 {
    amount: Decimal!
    currencyCode: String!
    minorUnits: Int!
  }

  type Shop implements Node {
    id: ID!
    name: String!
    subdomain: String!
    currencyCode: String!
    locale: String!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  enum ProductStatus {
    ACTIVE
    DRAFT
    ARCHIVED
  }

  enum InventoryPolicy {
    DENY
    CONTINUE
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
    legacyResourceId: String!
    title: String!
    handle: String!
    descriptionHtml: String!
    vendor: String
    productType: String
    tags: [String!]!
    status: ProductStatus!
    options: [ProductOption!]!
    variants(first: Int, after: String, last: Int, before: String): ProductVariantConnection!
    priceRange: ProductPriceRange!
    media: [MediaImage!]
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type ProductVariant implements Node {
    id: ID!
    legacyResourceId: String!
    title: String!
    sku: String
    price: MoneyV2!
    compareAtPrice: MoneyV2
    selectedOptions: [SelectedOption!]!
    weightGrams: Int
    inventoryTracked: Boolean!
    inventoryPolicy: InventoryPolicy!
    product: Product!
    inventoryLevels(first: Int, after: String, last: Int, before: String): InventoryLevelConnection
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

  enum CollectionType {
    MANUAL
    RULE
  }

  type Collection implements Node {
    id: ID!
    legacyResourceId: String!
    title: String!
    handle: String!
    descriptionHtml: String!
    type: CollectionType!
    products(first: Int, after: String, last: Int, before: String): ProductConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
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

  """
  A postal address: a customer's saved one (its id), or an order's (id null).
  """
  type MailingAddress {
    id: ID
    firstName: String
    lastName: String
    company: String
    address1: String!
    address2: String
    city: String!
    """
    A customer's free-text province (their own address); null on an order's.
    """
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

  type CustomerEdge {
    cursor: String!
    node: Customer!
  }

  type CustomerConnection {
    edges: [CustomerEdge!]!
    nodes: [Customer!]!
    pageInfo: PageInfo!
  }

  enum OrderFinancialStatus {
    PENDING
    AUTHORIZED
    PAID
    PARTIALLY_REFUNDED
    REFUNDED
    VOIDED
  }

  enum OrderFulfillmentStatus {
    UNFULFILLED
    PARTIAL
    FULFILLED
  }

  type LineItem implements Node {
    id: ID!
    title: String!
    variantTitle: String
    sku: String
    quantity: Int!
    variant: ProductVariant
    product: Product
    unitPrice: MoneyV2!
    totalDiscount: MoneyV2!
    totalTax: MoneyV2!
    total: MoneyV2!
    taxable: Boolean!
    fulfilledQuantity: Int!
    refundedQuantity: Int!
  }

  type LineItemEdge {
    cursor: String!
    node: LineItem!
  }

  type LineItemConnection {
    edges: [LineItemEdge!]!
    nodes: [LineItem!]!
    pageInfo: PageInfo!
  }

  type ShippingLine {
    title: String!
    code: String
    price: MoneyV2!
    discount: MoneyV2!
    tax: MoneyV2!
  }

  type FulfillmentLineItem {
    lineItemId: ID!
    quantity: Int!
  }

  type Fulfillment {
    id: ID!
    locationId: ID!
    lineItems: [FulfillmentLineItem!]!
    trackingCompany: String
    trackingNumber: String
    trackingUrl: String
    createdAt: DateTime!
  }

  type Refund {
    id: ID!
    amount: MoneyV2!
    lineItems: [FulfillmentLineItem!]!
    reason: String
    restock: Boolean!
    createdAt: DateTime!
  }

  type OrderTransaction {
    id: ID!
    kind: String!
    status: String!
    amount: MoneyV2!
    gateway: String!
    providerReference: String
    createdAt: DateTime!
  }

  type Order implements Node {
    id: ID!
    legacyResourceId: String!
    """
    The order's number as the merchant sees it: #1001.
    """
    name: String!
    number: Int!
    email: String
    currencyCode: String!
    customer: Customer
    lineItems(first: Int, after: String, last: Int, before: String): LineItemConnection!
    shippingLine: ShippingLine
    shippingAddress: MailingAddress
    billingAddress: MailingAddress
    subtotal: MoneyV2!
    totalDiscounts: MoneyV2!
    totalShipping: MoneyV2!
    totalTax: MoneyV2!
    total: MoneyV2!
    totalPaid: MoneyV2!
    totalRefunded: MoneyV2!
    financialStatus: OrderFinancialStatus!
    fulfillmentStatus: OrderFulfillmentStatus!
    fulfillments: [Fulfillment!]!
    refunds: [Refund!]!
    transactions: [OrderTransaction!]!
    note: String
    sourceName: String!
    cancelledAt: DateTime
    cancelReason: String
    createdAt: DateTime!
    updatedAt: DateTime!
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

  type Location implements Node {
    id: ID!
    legacyResourceId: String!
    name: String!
    address1: String
    city: String
    countryCode: String
    zip: String
    isActive: Boolean!
    inventoryLevels(first: Int, after: String, last: Int, before: String): InventoryLevelConnection
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type LocationEdge {
    cursor: String!
    node: Location!
  }

  type LocationConnection {
    edges: [LocationEdge!]!
    nodes: [Location!]!
    pageInfo: PageInfo!
  }

  """
  A variant's stock at a location: available for sale, committed to orders, and on hand (the two together).
  """
  type InventoryLevel implements Node {
    id: ID!
    available: Int!
    committed: Int!
    onHand: Int!
    variant: ProductVariant
    location: Location
    updatedAt: DateTime!
  }

  type InventoryLevelEdge {
    cursor: String!
    node: InventoryLevel!
  }

  type InventoryLevelConnection {
    edges: [InventoryLevelEdge!]!
    nodes: [InventoryLevel!]!
    pageInfo: PageInfo!
  }

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

  type GiftCardEdge {
    cursor: String!
    node: GiftCard!
  }

  type GiftCardConnection {
    edges: [GiftCardEdge!]!
    nodes: [GiftCard!]!
    pageInfo: PageInfo!
  }

  enum CouponType {
    PERCENTAGE
    FIXED_AMOUNT
    FREE_SHIPPING
  }

  type Coupon implements Node {
    id: ID!
    legacyResourceId: String!
    code: String!
    type: CouponType!
    """
    A percentage (1-100) for PERCENTAGE; minor units of the store's currency for FIXED_AMOUNT; null for FREE_SHIPPING.
    """
    value: Int
    minimumSubtotal: MoneyV2
    usageLimit: Int
    usageLimitPerCustomer: Int
    usageCount: Int!
    startsAt: DateTime
    endsAt: DateTime
    active: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type CouponEdge {
    cursor: String!
    node: Coupon!
  }

  type CouponConnection {
    edges: [CouponEdge!]!
    nodes: [Coupon!]!
    pageInfo: PageInfo!
  }

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

  type WebhookSubscriptionEdge {
    cursor: String!
    node: WebhookSubscription!
  }

  type WebhookSubscriptionConnection {
    edges: [WebhookSubscriptionEdge!]!
    nodes: [WebhookSubscription!]!
    pageInfo: PageInfo!
  }

  """
  A media file of the store (an image), with a URL that expires.
  """
  type MediaImage implements Node {
    id: ID!
    filename: String!
    contentType: String!
    size: Int!
    width: Int
    height: Int
    alt: String
    url: String
    createdAt: DateTime!
  }

  """
  The app's own installation in this store (an app's token only).
  """
  type AppInstallation implements Node {
    id: ID!
    status: String!
    accessScopes: [String!]!
    installedAt: DateTime!
  }

  enum BulkOperationStatus {
    CREATED
    RUNNING
    COMPLETED
    FAILED
    CANCELING
    CANCELED
    EXPIRED
  }

  """
  An admin query exported as a JSONL file by the bulk worker (docs/bulk.md).
  """
  type BulkOperation implements Node {
    id: ID!
    status: BulkOperationStatus!
    query: String!
    """
    Lines written: every object, root and nested.
    """
    objectCount: UnsignedInt64!
    rootObjectCount: UnsignedInt64!
    """
    The root connection's objects in the store when it started.
    """
    estimatedRootObjectCount: UnsignedInt64!
    """
    rootObjectCount over estimatedRootObjectCount, 0 to 1 (1 once completed).
    """
    progress: Float!
    fileSize: UnsignedInt64
    """
    The completed file, presigned until urlExpiresAt.
    """
    url: String
    """
    What a failed or canceled export wrote.
    """
    partialDataUrl: String
    urlExpiresAt: DateTime
    errorCode: String
    createdAt: DateTime!
    completedAt: DateTime
  }

  type BulkOperationEdge {
    cursor: String!
    node: BulkOperation!
  }

  type BulkOperationConnection {
    edges: [BulkOperationEdge!]!
    nodes: [BulkOperation!]!
    pageInfo: PageInfo!
  }

  type BulkOperationPayload {
    bulkOperation: BulkOperation
    userErrors: [UserError!]!
  }

  type QueryRoot {
    """
    The store the request acts on.
    """
    shop: Shop!
    """
    Any object by its global id, if it is this store's and the caller may read it; null otherwise.
    """
    node(id: ID!): Node
    """
    Objects by their global ids, in order; null for each that is not this store's or not readable.
    """
    nodes(ids: [ID!]!): [Node]!
    product(id: ID!): Product
    productByHandle(handle: String!): Product
    products(first: Int, after: String, last: Int, before: String, query: String): ProductConnection
    productVariant(id: ID!): ProductVariant
    collection(id: ID!): Collection
    collections(first: Int, after: String, last: Int, before: String): CollectionConnection
    customer(id: ID!): Customer
    customers(first: Int, after: String, last: Int, before: String, query: String): CustomerConnection
    order(id: ID!): Order
    orders(first: Int, after: String, last: Int, before: String): OrderConnection
    """
    The app's own installation in this store: for an app's token; null for a merchant.
    """
    currentAppInstallation: AppInstallation
    """
    The caller's running bulk operation in the store, else its newest one.
    """
    currentBulkOperation: BulkOperation
    bulkOperation(id: ID!): BulkOperation
    """
    The bulk operations the caller sees (a merchant the store's, an app its own), newest first.
    """
    bulkOperations(first: Int, after: String, last: Int, before: String): BulkOperationConnection!
    location(id: ID!): Location
    locations(first: Int, after: String, last: Int, before: String, active: Boolean): LocationConnection
    giftCard(id: ID!): GiftCard
    giftCards(first: Int, after: String, last: Int, before: String, status: GiftCardStatus): GiftCardConnection
    coupon(id: ID!): Coupon
    """
    Coupons whose code starts with query (as REST's query), or all.
    """
    coupons(first: Int, after: String, last: Int, before: String, query: String): CouponConnection
    """
    The merchant's webhook subscriptions (merchants only: an app's are in its manifest).
    """
    webhookSubscription(id: ID!): WebhookSubscription
    webhookSubscriptions(first: Int, after: String, last: Int, before: String): WebhookSubscriptionConnection
  }
  """
  A problem with a mutation's input or a rule it broke: the input path (["input", "variants", "0", "price"]), what is wrong, and a code.
  """
  type UserError {
    field: [String!]
    message: String!
    code: String
  }

  input ProductOptionInput {
    name: String!
    values: [String!]!
  }

  """
  A variant. Amounts are integers in minor units of the store's currency, as in REST. id: a variant to keep (updates).
  """
  input ProductVariantInput {
    id: ID
    optionValues: [String!]
    sku: String
    price: Int!
    compareAtPrice: Int
    weightGrams: Int
    inventoryTracked: Boolean
    inventoryPolicy: InventoryPolicy
  }

  input ProductCreateInput {
    title: String!
    handle: String
    descriptionHtml: String
    vendor: String
    productType: String
    tags: [String!]
    status: ProductStatus
    options: [ProductOptionInput!]
    variants: [ProductVariantInput!]!
  }

  input ProductUpdateInput {
    title: String
    handle: String
    descriptionHtml: String
    vendor: String
    productType: String
    tags: [String!]
    status: ProductStatus
    options: [ProductOptionInput!]
    variants: [ProductVariantInput!]
  }

  type ProductPayload {
    product: Product
    userErrors: [UserError!]!
  }

  type DeletePayload {
    deletedId: ID
    userErrors: [UserError!]!
  }

  """
  A manual collection and its products (rule collections are made through REST).
  """
  input CollectionCreateInput {
    title: String!
    handle: String
    descriptionHtml: String
    productIds: [ID!]
  }

  input CollectionUpdateInput {
    title: String
    handle: String
    descriptionHtml: String
    productIds: [ID!]
  }

  type CollectionPayload {
    collection: Collection
    userErrors: [UserError!]!
  }

  enum InventoryAdjustReason {
    RECEIVED
    CORRECTION
    DAMAGED
    SHRINKAGE
    RESTOCK
    OTHER
  }

  input InventoryAdjustInput {
    variantId: ID!
    locationId: ID!
    delta: Int!
    reason: InventoryAdjustReason
  }

  type InventoryLevelPayload {
    inventoryLevel: InventoryLevel
    userErrors: [UserError!]!
  }

  input MailingAddressInput {
    firstName: String
    lastName: String
    company: String
    address1: String!
    address2: String
    city: String!
    provinceCode: String
    countryCode: String!
    zip: String
    phone: String
  }

  """
  A line of the catalog (variantId and quantity) or a custom one (title, price in minor units, quantity).
  """
  input OrderLineInput {
    variantId: ID
    title: String
    price: Int
    quantity: Int!
    sku: String
    taxable: Boolean
  }

  input ShippingLineInput {
    title: String!
    code: String
    price: Int!
  }

  enum OrderCreateFinancialStatus {
    PENDING
    PAID
  }

  input OrderCreateInput {
    customerId: ID
    email: String
    lineItems: [OrderLineInput!]!
    couponCode: String
    shippingLine: ShippingLineInput
    shippingAddress: MailingAddressInput
    billingAddress: MailingAddressInput
    financialStatus: OrderCreateFinancialStatus
    locationId: ID
    note: String
  }

  input OrderLineQuantityInput {
    lineItemId: ID!
    quantity: Int!
  }

  input OrderFulfillInput {
    locationId: ID!
    lineItems: [OrderLineQuantityInput!]!
    trackingCompany: String
    trackingNumber: String
    trackingUrl: String
  }

  input OrderRefundInput {
    amount: Int
    lineItems: [OrderLineQuantityInput!]
    reason: String
    restock: Boolean
    locationId: ID
  }

  type OrderPayload {
    order: Order
    userErrors: [UserError!]!
  }

  input CustomerCreateInput {
    email: String!
    firstName: String
    lastName: String
    phone: String
    acceptsMarketing: Boolean
    tags: [String!]
    note: String
  }

  input CustomerUpdateInput {
    email: String
    firstName: String
    lastName: String
    phone: String
    acceptsMarketing: Boolean
    tags: [String!]
    note: String
  }

  type CustomerPayload {
    customer: Customer
    userErrors: [UserError!]!
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

  """
  The main writes, each through the same service as its REST twin: each answers userErrors (every
  input problem at its path, or the rule broken) instead of failing. A mutation costs 10 plus what
  its payload selects. An Idempotency-Key header makes a retry answer the first response, as in REST.
  """
  type Mutation {
    productCreate(input: ProductCreateInput!): ProductPayload
    productUpdate(id: ID!, input: ProductUpdateInput!): ProductPayload
    productDelete(id: ID!): DeletePayload
    collectionCreate(input: CollectionCreateInput!): CollectionPayload
    collectionUpdate(id: ID!, input: CollectionUpdateInput!): CollectionPayload
    collectionDelete(id: ID!): DeletePayload
    inventoryAdjustQuantity(input: InventoryAdjustInput!): InventoryLevelPayload
    orderCreate(input: OrderCreateInput!): OrderPayload
    orderFulfill(id: ID!, input: OrderFulfillInput!): OrderPayload
    orderRefund(id: ID!, input: OrderRefundInput!): OrderPayload
    customerCreate(input: CustomerCreateInput!): CustomerPayload
    customerUpdate(id: ID!, input: CustomerUpdateInput!): CustomerPayload
    webhookSubscriptionCreate(input: WebhookSubscriptionCreateInput!): WebhookSubscriptionPayload
    """
    Start exporting an admin query as JSONL (docs/bulk.md); one running per caller in the store.
    """
    bulkOperationRunQuery(query: String!): BulkOperationPayload!
    bulkOperationCancel(id: ID!): BulkOperationPayload!
  }
`;
