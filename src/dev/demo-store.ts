import { apiClient, type Json } from './api-client.js';
import { createHash } from 'node:crypto';
import { DEMO_COLLECTIONS, DEMO_PRODUCTS, type DemoCollection } from './demo-catalog.js';
import { fillDemoContent, withDemoCopy } from './demo-content.js';
import { demoProductImage } from './demo-images.js';
import type { SellableVariant } from './demo-orders.js';
import { themeFixture } from './theme-fixtures.js';

/**
 * The demo store (`npm run demo`, docs/storefront.md "A demo store"), made through the platform's
 * own HTTP API at `base` so every piece goes through the same validation as a merchant's: the
 * merchant, the store, its catalogue with pictures and stock, shipping rates, the sandbox payment
 * provider and the Aurora theme, live (its customers and orders: src/dev/demo-orders.ts). Run again, it keeps the merchant, the store, its settings
 * and orders, and **resets the catalogue** (deletes the store's products, collections and media,
 * then makes them anew), so it always ends in the same demo.
 */
export const DEMO_MERCHANT = { email: 'demo@example.com', password: 'demo-password', name: 'Demo Merchant' } as const;
export const DEMO_STORE = { name: 'Lumen & Loom', subdomain: 'demo' } as const;
export const DEMO_LOCATION = 'Lumen & Loom Studio';

export type DemoSummary = {
  storeId: string;
  products: number;
  collections: string[];
  theme: { slug: string; id: string };
  /** Where the stock is, and every variant with the stock it was given (what the demo's orders sell). */
  locationId: string;
  variants: SellableVariant[];
};

export class DemoError extends Error {}

/** A JSON API client: throws a DemoError on anything but 2xx, with the method, path and answer. */
const api = (base: string) => apiClient(base, (message) => new DemoError(message));

/** At most `limit` of `items` through `work` at once, results in order. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}

export async function fillDemoStore(base: string, log: (line: string) => void = () => {}): Promise<DemoSummary> {
  const call = api(base);

  // The merchant: signing up an email that has an account answers 202 too (and changes nothing).
  await call('POST', '/v1/auth/signup', DEMO_MERCHANT);
  const signin = await fetch(`${base}/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_MERCHANT.email, password: DEMO_MERCHANT.password }),
  });
  if (signin.status !== 200) {
    throw new DemoError(
      `cannot sign in as ${DEMO_MERCHANT.email} (${signin.status}): the account exists with another password. Reset it, or start from an empty database.`,
    );
  }
  const token: string = ((await signin.json()) as Json).data.session.token;
  const auth = { authorization: `Bearer ${token}` };

  // The store: the merchant's `demo`, or a new one.
  const owned: Json[] = (await call('GET', '/v1/stores?limit=100', undefined, auth)).data;
  let store = owned.find((s) => s.subdomain === DEMO_STORE.subdomain);
  if (!store) {
    const res = await fetch(`${base}/v1/stores`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(DEMO_STORE),
    });
    const body = (await res.json()) as Json;
    if (res.status === 409) throw new DemoError(`the subdomain "${DEMO_STORE.subdomain}" belongs to another merchant's store: start from an empty database`);
    if (res.status !== 201) throw new DemoError(`POST /v1/stores: ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
    store = body.data;
    log(`created the store ${DEMO_STORE.subdomain}`);
  } else {
    log(`reusing the store ${DEMO_STORE.subdomain}: resetting its catalogue`);
  }
  const as = { ...auth, 'x-store-id': store.id as string };

  await resetCatalogue(call, as);

  // Stock lives at one location.
  const locations: Json[] = (await call('GET', '/v1/inventory/locations?limit=250', undefined, as)).data;
  const location =
    locations.find((l) => l.name === DEMO_LOCATION && l.active) ??
    (
      await call(
        'POST',
        '/v1/inventory/locations',
        { name: DEMO_LOCATION, address1: '12 Rua das Flores', city: 'Lisbon', country_code: 'PT', zip: '1200-195' },
        as,
      )
    ).data;

  // The products, each with its picture and its stock; made in catalogue order (the storefront lists oldest first).
  const media: Json[] = await inBatches(DEMO_PRODUCTS, 4, async (p, i) => {
    const form = new FormData();
    form.append('file', new Blob([demoProductImage(p.shape, (i * 137.5 + 20) % 360)], { type: 'image/png' }), `${p.handle}.png`);
    const res = await fetch(`${base}/v1/media`, { method: 'POST', headers: as, body: form });
    if (res.status !== 201) throw new DemoError(`POST /v1/media: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return ((await res.json()) as Json).data;
  });
  const products: Json[] = [];
  for (const [i, p] of DEMO_PRODUCTS.entries()) {
    const product = (
      await call(
        'POST',
        '/v1/products',
        {
          title: p.title,
          handle: p.handle,
          description_html: `<p>${p.description}</p>`,
          vendor: DEMO_STORE.name,
          product_type: p.product_type,
          tags: [p.department, ...p.tags],
          status: 'active',
          options: p.option ? [{ name: p.option, values: p.variants.map((v) => v.option_values[0]!) }] : [],
          variants: p.variants.map((v, n) => ({
            option_values: v.option_values,
            sku: `LL-${String(i + 1).padStart(3, '0')}-${n + 1}`,
            price: v.price,
            compare_at_price: v.compare_at_price ?? null,
            inventory_tracked: true,
            inventory_policy: 'deny',
          })),
          media_ids: [media[i].id],
        },
        as,
      )
    ).data;
    products.push(product);
  }
  const variants: SellableVariant[] = DEMO_PRODUCTS.flatMap((p, i) =>
    p.variants.map((v, n) => ({ variantId: products[i].variants[n].id as string, stock: v.stock })),
  );
  await inBatches(variants, 4, (v) => call('POST', '/v1/inventory/levels/set', { variant_id: v.variantId, available: v.stock, location_id: location.id }, as));
  log(`made ${products.length} products with pictures and stock`);

  // Collections: the departments, and every collection the theme names by handle.
  const theme = withDemoCopy(themeFixture('aurora') as Json);
  const collections = [...DEMO_COLLECTIONS];
  for (const handle of collectionHandlesOf(theme)) {
    if (handle !== 'all' && !collections.some((c) => c.handle === handle)) {
      collections.push({ title: titleOf(handle), handle, description: '', handles: DEMO_PRODUCTS.slice(0, 8).map((p) => p.handle) });
    }
  }
  for (const c of collections) await call('POST', '/v1/products/collections', collectionBody(c, products), as);

  // Its pages, journal and menu.
  await fillDemoContent(call, as);
  log('wrote its pages, journal and main menu');

  // Checkout: shipping rates to everywhere, and the sandbox payment provider.
  await call(
    'PUT',
    '/v1/shipping',
    {
      rates: [
        { code: 'standard', name: 'Standard (3–5 days)', price: 495, country_code: '*' },
        { code: 'express', name: 'Express (next day)', price: 1495, country_code: '*' },
        { code: 'free', name: 'Free shipping over $75', price: 0, country_code: '*', min_subtotal: 7500 },
      ],
    },
    as,
  );
  await call('PUT', '/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: 'sandbox_key_secret_for_the_demo' } }, as);

  // The Aurora theme, a private install of the merchant's own, live. Its slug carries the
  // fixture's digest: the same fixture again is the same upload, a changed one a new package.
  const digest = createHash('sha256').update(JSON.stringify(theme)).digest('hex').slice(0, 10);
  theme.package.slug = `aurora-demo-${digest}`;
  theme.package.pricing_type = 'free';
  theme.package.price = 0;
  await call('POST', '/v1/themes/packages/upload', { bundle: theme, submission_mode: 'private_install' }, as);
  const installed: Json[] = (await call('GET', '/v1/themes/installed?limit=250', undefined, as)).data;
  let live = installed.find((t) => t.slug === theme.package.slug);
  if (!live) live = (await call('POST', `/v1/themes/${theme.package.slug}/install`, { store_id: store.id, publish: true }, auth)).data;
  else if (live.role !== 'live') await call('POST', `/v1/themes/installed/${live.id}/publish`, undefined, as);
  log(`the Aurora theme is live (${theme.package.slug})`);

  return {
    storeId: store.id,
    products: products.length,
    collections: collections.map((c) => c.handle),
    theme: { slug: theme.package.slug, id: live.id },
    locationId: location.id,
    variants,
  };
}

/** Deletes the store's products, collections and media (every page of each). */
async function resetCatalogue(call: ReturnType<typeof api>, as: Record<string, string>): Promise<void> {
  for (const [list, remove] of [
    ['/v1/products?limit=250', '/v1/products/'],
    ['/v1/products/collections?limit=250', '/v1/products/collections/'],
    ['/v1/media?limit=250', '/v1/media/'],
  ] as const) {
    for (;;) {
      const items: Json[] = (await call('GET', list, undefined, as)).data;
      if (items.length === 0) break;
      await inBatches(items, 4, (item) => call('DELETE', remove + item.id, undefined, as));
    }
  }
}

function collectionBody(c: DemoCollection, products: Json[]) {
  const common = { title: c.title, handle: c.handle, description_html: c.description ? `<p>${c.description}</p>` : '' };
  if ('tag' in c) return { ...common, type: 'rule', rules: { match: 'all', conditions: [{ field: 'tag', relation: 'equals', value: c.tag }] } };
  return { ...common, type: 'manual', product_ids: c.handles.map((h) => products.find((p) => p.handle === h)?.id).filter(Boolean) };
}

/** Every collection handle a theme names: its sections' `collection` settings and its `/collections/<handle>` links. */
export function collectionHandlesOf(theme: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, key: string | null) => {
    if (typeof value === 'string') {
      if (key === 'collection' && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)) found.add(value);
      for (const m of value.matchAll(/\/collections\/([a-z0-9]+(?:-[a-z0-9]+)*)/g)) found.add(m[1]!);
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v, null);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, k);
    }
  };
  const t = theme as { templates?: unknown; sections?: unknown; config?: unknown };
  visit({ templates: t.templates, config: t.config }, null);
  return [...found];
}

const titleOf = (handle: string) => handle.charAt(0).toUpperCase() + handle.slice(1).replace(/-/g, ' ');
