import { execute, type DocumentNode, type GraphQLSchema } from 'graphql';
import { getInstallation } from '../../apps/index.js';
import type { AppPrincipal, MerchantPrincipal } from '../../http/context.js';
import { ownValue } from '../../own-keys.js';
import type { Platform } from '../../platform.js';
import { findStoreById } from '../../stores/index.js';
import { adminLoaders, type AdminContext } from '../admin/context.js';
import { fromGlobalId } from '../ids.js';
import { readsOf } from './projection.js';
import { nestedPagesQuery, rootPageQuery, type BulkPlan, type ChildPages, type PlannedConnection } from './query.js';
import type { BulkOperationDocument } from './models.js';

/**
 * How the export (export.ts) reads (docs/bulk.md, The export): the caller as it is now, its
 * queries run with loaders of their own, pages of root objects with their nested connections as
 * lines, sized by what the last read brought, and read ahead of what is written.
 */

export type Json = Record<string, unknown>;

/** Why an export failed: the operation's error code and message. */
export class ExportError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The caller as it is now: the merchant, or the app's installation with its current scopes (an
 * uninstalled app's export fails); and the admin schema its queries run on (the export job is
 * given it: the schema's bulk fields start exports, so the export may not import the schema).
 */
export type Caller = Omit<AdminContext, 'loaders'> & { schema: GraphQLSchema };

/** The caller's context as it is now (each query gets its own loaders: `run`). */
export async function contextOf(platform: Platform, op: BulkOperationDocument, schema: GraphQLSchema): Promise<Caller> {
  const storeId = op.store_id.toHexString();
  const store = await findStoreById(platform, storeId);
  if (!store) throw new ExportError('STORE_GONE', 'The store no longer exists');
  let principal: MerchantPrincipal | AppPrincipal;
  if (op.caller.type === 'app') {
    const installation = await getInstallation(platform, storeId, op.caller.id.toHexString()).catch(() => null);
    if (!installation || installation.status !== 'active')
      throw new ExportError('ACCESS_DENIED', 'The app that started it is no longer installed in the store');
    principal = {
      kind: 'app',
      appId: op.caller.app_id.toHexString(),
      installationId: installation.id,
      storeId,
      scopes: installation.scopes,
      onlineMerchantId: null,
    };
  } else {
    principal = { kind: 'merchant', merchantId: op.caller.id.toHexString(), sessionId: 'bulk' } as MerchantPrincipal;
  }
  return { platform, store, principal, schema };
}

/**
 * Run one of the export's queries, with loaders of its own (nothing cached from page to page),
 * reading of each object only the fields the query selects: its data, or the first error as the
 * operation's error code.
 */
export async function run({ schema, ...ctx }: Caller, document: DocumentNode): Promise<Json> {
  const reads = readsOf(schema, document);
  const result = await execute({ schema, document, contextValue: { ...ctx, reads, loaders: adminLoaders(ctx.platform, ctx.store.id, reads) } });
  if (result.errors?.length) {
    const first = result.errors[0]!;
    throw new ExportError(String(first.extensions?.code ?? 'QUERY_FAILED'), first.message);
  }
  return result.data as Json;
}

type PageInfo = { hasNextPage: boolean; endCursor: string | null };
export type Page = { nodes: Json[]; pageInfo: PageInfo };
/** A nested connection's page, as lines. */
export type Lines = { lines: string[]; pageInfo: PageInfo };
/** A root object as read: its line, and the first page of each of its connections by key (null: deleted before they were read). */
export type ReadObject = { id: string; line: string; children: Map<string, Lines> | null };
/** A page of root objects as read. */
export type ReadPage = { objects: ReadObject[]; pageInfo: PageInfo };

/**
 * About how much of the file one read of the database brings (its lines' length): what the
 * number of objects each read asks for is sized by, so that large objects come a few at a time
 * and small ones a page at a time (docs/bulk.md, The export).
 */
const READ_BYTES = 4 * 1024 * 1024;
/** The objects a first read asks for, before there is a size to go by. */
const FIRST_READ = 10;

/**
 * How many objects the next read asks for: as many as make READ_BYTES, by the largest object
 * (with its connections, for root objects) the last read brought, from 1 to `max`.
 */
export class ReadSize {
  count: number;
  constructor(private readonly max: number) {
    this.count = Math.min(max, FIRST_READ);
  }
  observe(largest: number): void {
    this.count = Math.max(1, Math.min(this.max, Math.floor(READ_BYTES / Math.max(1, largest))));
  }
}

/**
 * How an export reads: its nested connections read with their parents' page (`carried`) or apart;
 * and the sizes of its reads: root objects a page by their lines and those of their carried
 * connections, root objects a page by the lines of their connections read apart, and items of
 * each connection a page.
 */
export type ReadSizes = {
  carried: readonly PlannedConnection[];
  apart: readonly PlannedConnection[];
  roots: ReadSize;
  parents: ReadSize;
  items: Map<string, ReadSize>;
};

/** A nested item's line: its JSON with `tail` (`__parentId`) added at the end (an item has `id`, so its JSON is never `{}`). */
export const itemLine = (item: Json, tail: string) => JSON.stringify(item).slice(0, -1) + tail;
export const parentTail = (parentId: string) => `,"__parentId":${JSON.stringify(parentId)}}`;

/**
 * The next page of root objects, after `cursor`: their own fields and the connections stored in
 * their documents (`carried`) in one read, then the first page of each of their other
 * connections in another (`nodes(ids:)`), as lines. It asks for as many root objects as the sizes
 * say (by the largest object, and the largest object's connections read apart, of the page
 * before), and measures what it brought for the next.
 */
export async function readPage(ctx: Caller, plan: BulkPlan, sizes: ReadSizes, cursor: string | null): Promise<ReadPage> {
  const { carried, apart } = sizes;
  const pages = (children: readonly PlannedConnection[]): ChildPages => children.map((c) => [c, sizes.items.get(c.key)!.count] as const);
  const count = apart.length ? Math.min(sizes.roots.count, sizes.parents.count) : sizes.roots.count;
  const page = ownValue(await run(ctx, rootPageQuery(plan, count, cursor, pages(carried))), plan.connection.key) as Page;
  if (!page.nodes.length) return { objects: [], pageInfo: page.pageInfo };
  const largestItem = new Map(plan.connection.children.map((c) => [c.key, 0]));
  /** Each child's page as lines, measured. */
  const linesOf = (node: Json, children: readonly PlannedConnection[], tail: string): [string, Lines][] =>
    children.map((child) => {
      const { nodes, pageInfo } = ownValue(node, child.key) as Page;
      const lines = nodes.map((item) => itemLine(item, tail));
      for (const line of lines) largestItem.set(child.key, Math.max(largestItem.get(child.key)!, line.length));
      return [child.key, { lines, pageInfo }];
    });
  const lengthOf = (children: Iterable<Lines>) => [...children].reduce((n, c) => c.lines.reduce((m, l) => m + l.length, n), 0);

  let largestObject = 0;
  const objects: ReadObject[] = page.nodes.map((node) => {
    const id = node.id as string;
    const own = carried.length ? Object.fromEntries(Object.entries(node).filter(([k]) => !carried.some((c) => c.key === k))) : node;
    const children = new Map(linesOf(node, carried, parentTail(id)));
    const line = JSON.stringify(own);
    largestObject = Math.max(largestObject, line.length + lengthOf(children.values()));
    return { id, line, children };
  });
  sizes.roots.observe(largestObject);

  if (apart.length) {
    const nested = (
      await run(
        ctx,
        nestedPagesQuery(
          plan,
          objects.map((o) => o.id),
          pages(apart),
        ),
      )
    ).nodes as (Json | null)[];
    let largestApart = 0;
    objects.forEach((object, i) => {
      // An object deleted since its page was read is written without its connections.
      if (!nested[i]) {
        object.children = null;
        return;
      }
      const read = linesOf(nested[i]!, apart, parentTail(object.id));
      for (const [key, lines] of read) object.children!.set(key, lines);
      largestApart = Math.max(largestApart, lengthOf(read.map(([, lines]) => lines)));
    });
    sizes.parents.observe(largestApart);
  }
  for (const [key, length] of largestItem) if (length) sizes.items.get(key)!.observe(length);
  return { objects, pageInfo: page.pageInfo };
}

/** How many pages of the root connection an export reads ahead of what it writes. */
export const READ_AHEAD = 1;

export type Step = [ReadPage, Caller | null];

/**
 * Pages read ahead, in order: the page after `first`, then each next one asked for (by its
 * predecessor's last id) as soon as that predecessor arrives, while fewer than `depth` wait to be
 * taken. It ends after a last page, a page answering a cancel (null context) or an error (which
 * the taker gets from that page's promise). `next()` is null once every page is taken.
 */
export function readAhead(first: string | null, read: (cursorId: string | null) => Promise<Step>, depth: number): { next(): Promise<Step> | null } {
  const queue: Promise<Step>[] = [];
  let parked: ReadPage | null = null;
  const lastIdOf = (page: ReadPage) => fromGlobalId(page.objects.at(-1)!.id)?.id ?? null;
  const request = (cursorId: string | null) => {
    const step = read(cursorId);
    queue.push(step);
    step.then(
      ([page, verdict]) => {
        if (!verdict || !page.pageInfo.hasNextPage || page.objects.length === 0) return;
        if (queue.length < depth) request(lastIdOf(page));
        else parked = page;
      },
      () => undefined, // the taker gets the error from this step
    );
  };
  request(first);
  return {
    next() {
      const step = queue.shift() ?? null;
      if (parked && queue.length < depth) {
        const page = parked;
        parked = null;
        request(lastIdOf(page));
      }
      return step;
    },
  };
}
