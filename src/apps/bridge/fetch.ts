import { z } from 'zod';
import { ListProductsQuery, getProduct, listProducts } from '../../catalog/index.js';
import { PlatformError, issueDetails } from '../../errors.js';
import type { AppPrincipal, ScopedStore } from '../../http/context.js';
import { ListOrdersQuery, getOrder, listOrders } from '../../orders/index.js';
import type { Platform } from '../../platform.js';
import { requireBridgeCapability } from './embedding.js';
import { getMetadata } from '../installations/service.js';

/** spec 2.4: the bridge request. Only GET; the store must be the token's. */
export const BridgeFetchBody = z.strictObject({
  method: z.string().min(1).max(10),
  path: z.string().min(1).max(2048),
  store_id: z.string().regex(/^[0-9a-f]{24}$/, 'must be a store id'),
});
export type BridgeFetchBody = z.infer<typeof BridgeFetchBody>;

/** What the bridge answers (spec 2.4): the upstream read's status, its data or its error. */
export type BridgeResult = { ok: boolean; status: number; data: unknown; error: { code: string; message: string; details?: string[] } | null };

type Read = { scope: string | null; run: (id: string | null, query: Record<string, string>) => Promise<unknown> };

/**
 * The approved read paths (docs/apps.md, The app bridge), by first segment: each runs the same
 * read as the app API with the token's scopes, so a bridge call never reads more than the token
 * could directly.
 */
function approvedReads(platform: Platform, principal: AppPrincipal, store: ScopedStore): ReadonlyMap<string, Read> {
  const page = <T extends z.ZodType>(schema: T, query: Record<string, string>) => {
    const parsed = schema.safeParse(query);
    if (!parsed.success) {
      throw new PlatformError('invalid_data', 'invalid_input', 'The path has an invalid query', {
        details: issueDetails(
          parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
          'query',
        ),
      });
    }
    return parsed.data as z.infer<T>;
  };
  const list = <T>(p: Promise<{ items: T[]; nextCursor: string | null }>) => p.then((r) => ({ items: r.items, next_cursor: r.nextCursor }));
  // A Map: the path's first segment is the app's choice, and `/constructor` is no read.
  return new Map<string, Read>([
    [
      'products',
      {
        scope: 'read_products',
        run: (id, query) => (id ? getProduct(platform, store.id, id) : list(listProducts(platform, store.id, page(ListProductsQuery, query)))),
      },
    ],
    [
      'orders',
      {
        scope: 'read_orders',
        run: (id, query) => (id ? getOrder(platform, store.id, id) : list(listOrders(platform, store.id, page(ListOrdersQuery, query)))),
      },
    ],
    [
      'installation',
      {
        scope: null,
        run: async (id) => {
          if (id !== 'metadata') throw new PlatformError('not_found', 'route_not_found', 'The bridge reads installation/metadata');
          return getMetadata(platform, principal.installationId);
        },
      },
    ],
    [
      'shop',
      {
        scope: null,
        run: async (id) => {
          if (id) throw new PlatformError('not_found', 'route_not_found', 'The bridge reads shop without an id');
          return { id: store.id, name: store.name, subdomain: store.subdomain, currency: store.currency };
        },
      },
    ],
  ]);
}

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A read-only fetch for an embedded app (spec 2.4, 7): `GET` only; `path` is a relative read
 * path (`/products`, `/products/<id>`, `/orders?limit=10`, `/installation/metadata`, `/shop`) of
 * one or two plain segments and an optional query; traversal, encoded characters, absolute URLs,
 * fragments and repeated query keys are refused before anything runs. Problems of the request
 * are 4xx; the read's own outcome (403 insufficient_scope, 404) is in the answer, as `status`.
 */
export async function bridgeFetch(platform: Platform, principal: AppPrincipal, store: ScopedStore, body: BridgeFetchBody): Promise<BridgeResult> {
  if (body.method !== 'GET') throw new PlatformError('invalid_data', 'bridge_method_not_allowed', 'The bridge proxies GET only');
  if (body.store_id !== principal.storeId) throw new PlatformError('not_allowed', 'store_forbidden', "store_id must be the store of the app's access token");
  await requireBridgeCapability(platform, principal, 'api.fetch');
  const refused = (why: string) => new PlatformError('invalid_data', 'invalid_bridge_path', `path ${why}`);
  const raw = body.path;
  if (!raw.startsWith('/') || raw.startsWith('//')) throw refused('must be a relative read path starting with one "/" (no absolute URLs)');
  if (/[%\\#\s]|\.\./.test(raw) || [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw refused('must not contain encoded characters, "..", "\\\\", "#", spaces or control characters');
  const [pathname, search = ''] = raw.split('?', 2) as [string, string?];
  if (raw.split('?').length > 2) throw refused('must have at most one "?"');
  const segments = pathname.slice(1).split('/');
  if (segments.length > 2 || segments.some((s) => !SEGMENT.test(s))) throw refused('must be one or two plain segments, e.g. /products or /products/<id>');
  const query = new Map<string, string>();
  for (const pair of search ? search.split('&') : []) {
    const [key, value = ''] = pair.split('=', 2) as [string, string?];
    if (!/^[a-z_]{1,32}$/.test(key) || !/^[A-Za-z0-9_.:+-]{0,200}$/.test(value) || query.has(key))
      throw refused('has a query that is not plain key=value pairs, each key once');
    query.set(key, value);
  }
  const reads = approvedReads(platform, principal, store);
  const read = reads.get(segments[0]!);
  if (!read) throw refused(`must start with an approved read path: ${[...reads.keys()].join(', ')}`);
  if (read.scope !== null && !principal.scopes.includes(read.scope)) {
    return {
      ok: false,
      status: 403,
      data: null,
      error: { code: 'insufficient_scope', message: `This app's access token was not granted the ${read.scope} scope` },
    };
  }
  try {
    return { ok: true, status: 200, data: await read.run(segments[1] ?? null, Object.fromEntries(query)), error: null };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    const status = err.kind === 'not_found' ? 404 : err.kind === 'invalid_data' ? 400 : err.kind === 'not_allowed' ? 403 : 409;
    return { ok: false, status, data: null, error: { code: err.code, message: err.message, ...(err.extra.details ? { details: err.extra.details } : {}) } };
  }
}
