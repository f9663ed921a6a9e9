import type { PublicProductView } from '../../storefront/index.js';
import type { StoreView } from '../../stores/index.js';
import type { Platform } from '../../platform.js';

/** What each storefront resolver gets: the store, the cart token and the signed-in customer, if any. */
export type StorefrontContext = { platform: Platform; store: StoreView; cartToken: string | null; customerId: string | null };

/*
 * What the storefront resolvers answer for the types that are not a public REST view as it is
 * (the mappers of the generated resolver types, src/dev/graphql-types.ts).
 */

/** A published variant with its product's options (what its selected options name). */
export type PublicVariant = PublicProductView['variants'][number] & { options: PublicProductView['options'] };

/** A collection as the public storefront shows it. */
export type PublicCollection = { id: string; title: string; handle: string; description_html: string };
