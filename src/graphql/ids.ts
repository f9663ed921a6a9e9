import { ObjectId } from 'mongodb';

/**
 * Global ids (docs/graphql.md, Ids): `gid://emporium/<Type>/<24-hex id>`, the id REST answers,
 * under the type it names, as Shopify's `gid://shopify/Product/123`. `legacyResourceId` is the
 * REST id alone.
 */
const GID = /^gid:\/\/emporium\/([A-Za-z]+)\/([0-9a-f]{24})$/;

export const toGlobalId = (type: string, id: string) => `gid://emporium/${type}/${id}`;

/** The type and REST id a global id names, or null for anything else (a malformed id resolves to nothing, never an error of ours). */
export function fromGlobalId(gid: string): { type: string; id: string } | null {
  const m = GID.exec(gid);
  return m && ObjectId.isValid(m[2]!) ? { type: m[1]!, id: m[2]! } : null;
}

/** The REST id of a global id of `type`, or null (another type's id, or not a global id). */
export function idOf(gid: string, type: string): string | null {
  const parsed = fromGlobalId(gid);
  return parsed && parsed.type === type ? parsed.id : null;
}
