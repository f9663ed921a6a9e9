import { ObjectId } from 'mongodb';
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
export type Page = { limit: number; cursor?: ObjectId | undefined };

export function encodeCursor(id: ObjectId): string {
  return Buffer.from(JSON.stringify({ after: id.toHexString() })).toString('base64url');
}

/** Given up to limit+1 documents in `_id` order, the page and the cursor of the next one. */
export function pageOf<T extends { _id: ObjectId }>(docs: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: docs.length > limit && last ? encodeCursor(last._id) : null };
}

export const afterCursor = (page: Page) => (page.cursor ? { _id: { $gt: page.cursor } } : {});
