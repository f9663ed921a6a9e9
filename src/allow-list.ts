/**
 * A presenter's allow-list of fields shown as they are (a field reaches a response only where a
 * presenter names it): `pick(product, ['id', 'title'])` is `{ id: product.id, title: product.title }`,
 * typed `Pick<ProductView, 'id' | 'title'>`, its keys in the order named.
 */
export function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}
