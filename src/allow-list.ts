/**
 * A presenter's allow-list of fields shown as they are (a field reaches a response only where a
 * presenter names it): `pick(product, ['id', 'title'])` is `{ id: product.id, title: product.title }`,
 * typed `Pick<ProductView, 'id' | 'title'>`, its keys in the order named.
 */
export function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}

/** A document's `created_at` and `updated_at` as a response shows them (ISO 8601), for a presenter to spread. */
export const stamps = (doc: { created_at: Date; updated_at: Date }) => ({ created_at: doc.created_at.toISOString(), updated_at: doc.updated_at.toISOString() });
