import { ObjectId, type Collection, type Filter, type WithId } from 'mongodb';
import { z } from 'zod';

/**
 * Cursor pagination (ARCHITECTURE.md): `limit` 1..250 (default 50) and an opaque `cursor`
 * naming the last item of the previous page. Lists walk `_id` order, which an index that
 * starts with the scoping field (store_id, owner_id) serves.
 */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;

const Cursor = z
  .string()
  .max(200)
  .transform((raw, ctx) => {
    try {
      const decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { after?: unknown };
      if (typeof decoded.after === 'string' && ObjectId.isValid(decoded.after) && decoded.after.length === 24) {
        return new ObjectId(decoded.after);
      }
    } catch {
      // fall through to the issue below
    }
    ctx.addIssue({ code: 'custom', message: 'is not a cursor this API returned' });
    return z.NEVER;
  });

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  cursor: Cursor.optional(),
});
/** `backwards`: newest first, before the cursor (GraphQL's `last`/`before`; REST pages always go forwards). */
export type Page = { limit: number; cursor?: ObjectId | undefined; backwards?: boolean | undefined };

export function encodeCursor(id: ObjectId): string {
  return Buffer.from(JSON.stringify({ after: id.toHexString() })).toString('base64url');
}

/** Given up to limit+1 documents in `_id` order, the page and the cursor of the next one. */
export function pageOf<T extends { _id: ObjectId }>(docs: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: docs.length > limit && last ? encodeCursor(last._id) : null };
}

/**
 * One page of a collection in `_id` order (newest first with `direction` -1): the documents
 * matching `filter` (which carries the cursor: `afterCursor(page)`, or `$lt` the cursor when descending), `limit` of them, and the cursor of the next page (null on the
 * last). It reads `limit + 1` to know whether another page follows; with `projection`, only
 * those fields (src/projection.ts).
 */
export async function findPage<T extends { _id: ObjectId }>(
  collection: Collection<T>,
  filter: Filter<T>,
  limit: number,
  direction: 1 | -1 = 1,
  projection?: Record<string, 1>,
): Promise<{ items: WithId<T>[]; nextCursor: string | null }> {
  const docs = await collection
    .find(filter, projection ? { projection } : {})
    .sort({ _id: direction })
    .limit(limit + 1)
    .toArray();
  return pageOf(docs, limit);
}

export const afterCursor = (page: Page) => (page.cursor ? { _id: { [page.backwards ? '$lt' : '$gt']: page.cursor } } : {});

/** The `_id` order a page walks: ascending, or descending for a backwards page. */
export const pageDirection = (page: Page): 1 | -1 => (page.backwards ? -1 : 1);

/** A page of the documents `filter` selects, in `_id` order from the page's cursor, each as `present` shows it. */
export async function findViewPage<T extends { _id: ObjectId }, V>(
  collection: Collection<T>,
  filter: Filter<T>,
  page: Page,
  present: (doc: WithId<T>) => V,
): Promise<{ items: V[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(collection, { ...filter, ...afterCursor(page) } as Filter<T>, page.limit, pageDirection(page));
  return { items: items.map(present), nextCursor };
}

/**
 * Keyset pagination on another field than `_id` (a sort the client chose): the cursor carries
 * the last item's sort value and id, and the next page starts strictly after that pair.
 * The index that serves it is `{ <scope>: 1, <field>: 1, _id: 1 }`.
 */
export type SortValue = string | number | Date;
export type KeysetCursor = { v: SortValue; id: ObjectId };

export const KeysetCursorParam = z
  .string()
  .max(500)
  .transform((raw, ctx): KeysetCursor => {
    try {
      const decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { v?: unknown; t?: unknown; id?: unknown };
      if (typeof decoded.id === 'string' && /^[0-9a-f]{24}$/.test(decoded.id) && (typeof decoded.v === 'string' || typeof decoded.v === 'number')) {
        const v = decoded.t === 'date' && typeof decoded.v === 'string' ? new Date(decoded.v) : decoded.v;
        if (!(v instanceof Date) || !Number.isNaN(v.getTime())) return { v, id: new ObjectId(decoded.id) };
      }
    } catch {
      // fall through to the issue below
    }
    ctx.addIssue({ code: 'custom', message: 'is not a cursor this API returned' });
    return z.NEVER;
  });

export function encodeKeysetCursor(v: SortValue, id: ObjectId): string {
  const payload = v instanceof Date ? { v: v.toISOString(), t: 'date', id: id.toHexString() } : { v, id: id.toHexString() };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** The filter for "after the cursor" and the sort, for ascending (1) or descending (-1) order. */
export function keysetQuery(field: string, direction: 1 | -1, cursor: KeysetCursor | undefined) {
  const op = direction === 1 ? '$gt' : '$lt';
  const filter = cursor ? { $or: [{ [field]: { [op]: cursor.v } }, { [field]: cursor.v, _id: { [op]: cursor.id } }] } : {};
  return { filter, sort: { [field]: direction, _id: direction } as Record<string, 1 | -1> };
}

/** Given up to limit+1 documents in keyset order, the page and the cursor of the next one. */
export function keysetPageOf<T extends { _id: ObjectId }>(
  docs: T[],
  limit: number,
  sortValue: (doc: T) => SortValue,
): { items: T[]; nextCursor: string | null } {
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: docs.length > limit && last ? encodeKeysetCursor(sortValue(last), last._id) : null };
}
