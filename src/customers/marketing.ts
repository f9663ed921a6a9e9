import { ObjectId } from 'mongodb';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { customers, type CustomerDocument } from './models.js';
import { createCustomer, updateCustomer, type StoreRef } from './service.js';

/**
 * A shopper's newsletter sign-up (docs/customer-accounts.md, "Newsletter"): the store's customer
 * of that email (made when there is none: a record of the merchant's, never an account) accepts
 * email marketing, with the consent recorded as Shopify's is: subscribed, single opt-in, when,
 * and from where. Repeating it changes nothing (no event, no new date).
 */
export type NewsletterSignUp = { customer_id: string; created: boolean; changed: boolean };

const consent = (now: Date): NonNullable<CustomerDocument['email_marketing_consent']> => ({
  state: 'subscribed',
  opt_in_level: 'single_opt_in',
  consent_updated_at: now,
  source: 'newsletter',
});

export async function subscribeToNewsletter(platform: Platform, store: StoreRef, email: string, tags: readonly string[]): Promise<NewsletterSignUp> {
  const storeId = new ObjectId(store.id);
  // Twice at most: a sign-up of the same email at the same moment made the record first.
  for (let round = 0; round < 2; round++) {
    const existing = await customers(platform.db).findOne({ store_id: storeId, email });
    if (!existing) {
      try {
        const created = await createCustomer(platform, store, { email, accepts_marketing: true, tags: [...new Set(tags)] });
        await recordConsent(platform, storeId, created.id);
        return { customer_id: created.id, created: true, changed: true };
      } catch (err) {
        if (!(err instanceof PlatformError && err.code === 'email_taken')) throw err;
        continue;
      }
    }
    const missing = tags.filter((t) => !existing.tags.includes(t));
    const id = existing._id.toHexString();
    if (existing.accepts_marketing && missing.length === 0) return { customer_id: id, created: false, changed: false };
    await updateCustomer(platform, store.id, id, { accepts_marketing: true, ...(missing.length ? { tags: [...existing.tags, ...missing].slice(0, 50) } : {}) });
    if (!existing.accepts_marketing) await recordConsent(platform, storeId, id);
    return { customer_id: id, created: false, changed: true };
  }
  throw new PlatformError('conflict', 'edit_conflict', 'The customer kept changing while the sign-up was recorded; try again');
}

async function recordConsent(platform: Platform, storeId: ObjectId, customerId: string): Promise<void> {
  await customers(platform.db).updateOne(
    { _id: new ObjectId(customerId), store_id: storeId },
    { $set: { email_marketing_consent: consent(platform.clock.now()) } },
  );
  platform.log.info({ event: 'customers.newsletter_subscribed', store_id: storeId.toHexString(), customer_id: customerId });
}
