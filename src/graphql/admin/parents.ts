import type { getInstallation } from '../../apps/index.js';
import type { ProductView, VariantView } from '../../catalog/index.js';
import type { OrderView } from '../../orders/index.js';
import type { createSubscription } from '../../webhooks/index.js';
import type { UserError } from './mutation.js';

/*
 * What the admin resolvers answer for the types that are not a REST view as it is (the mappers of
 * the generated resolver types, src/dev/graphql-types.ts): each with what its fields read of its
 * parent.
 */

/** A variant with what its fields read of its product. */
export type VariantNode = VariantView & { product_id: string; options: ProductView['options'] };

/** An order's line item with its order's currency. */
export type LineNode = OrderView['line_items'][number] & { currency: string };

/** An app's installation as the apps domain presents it. */
export type InstallationNode = Awaited<ReturnType<typeof getInstallation>>;

/** webhookSubscriptionCreate's payload: the subscription it made carries its signing secret, this once. */
export type SubscriptionCreatedPayload = { webhookSubscription: Awaited<ReturnType<typeof createSubscription>> | null; userErrors: UserError[] };
