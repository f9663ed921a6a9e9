import { GraphQLError } from 'graphql';
import { ObjectId } from 'mongodb';
import { encodeCursor } from '../pagination.js';

/** The most `first` or `last` may be (docs/graphql.md, Connections). */
export const MAX_PAGE = 250;

export type ConnectionArgs = { first?: number | null; after?: string | null; last?: number | null; before?: string | null };
export type Connection<T> = {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
};

/** How many a connection asks for, forwards or backwards; the cost rule has already refused a missing or out-of-range size. */
export function pageSize(args: ConnectionArgs): { size: number; backwards: boolean } {
  if (typeof args.last === 'number') return { size: args.last, backwards: true };
  return { size: typeof args.first === 'number' ? args.first : 0, backwards: false };
}

/** A page's items with their ids; a cursor is made only when a query asks for it (most ask for nodes alone). */
function connectionOf<T>(items: { id: string; node: T }[], hasNextPage: boolean, hasPreviousPage: boolean): Connection<T> {
  return {
    get edges() {
      return items.map(({ id, node }) => ({
        node,
        get cursor() {
          return idCursor(id);
        },
      }));
    },
    nodes: items.map((i) => i.node),
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      get startCursor() {
        return items.length ? idCursor(items[0]!.id) : null;
      },
      get endCursor() {
        return items.length ? idCursor(items.at(-1)!.id) : null;
      },
    },
  };
}

/** The cursor of an item by its id (the REST pages' own `after` cursor, so a cursor works on either edge). */
export const idCursor = (id: string) => encodeCursor(new ObjectId(id));

/** The REST id a cursor names (a cursor that is not one of ours is the caller's error). */
export function cursorId(cursor: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown; id?: unknown };
    const id = typeof decoded.after === 'string' ? decoded.after : decoded.id;
    if (typeof id === 'string' && /^[0-9a-f]{24}$/.test(id)) return id;
  } catch {
    // below
  }
  throw new GraphQLError('The cursor is not one this API returned', { extensions: { code: 'BAD_USER_INPUT' } });
}

/** The ObjectId a page resumes from, for the services that page by `_id`. */
export const cursorObjectId = (cursor: string | undefined) => (cursor ? new ObjectId(cursorId(cursor)) : undefined);

/** The SDL of a type's connection (Relay's): its edge and connection types. */
export const connectionTypeDefs = (type: string) => /* GraphQL */ `
  type ${type}Edge {
    cursor: String!
    node: ${type}!
  }

  type ${type}Connection {
    edges: [${type}Edge!]!
    nodes: [${type}!]!
    pageInfo: PageInfo!
  }
`;

/**
 * A type read one by id and many as a connection: its connection types, and the two root fields
 * `one(id: ID!)` and `many(first, after, last, before, …filters)`, with the list field's description.
 */
export const listedTypeDefs = (type: string, one: string, many: string, o: { filters?: string; description?: string } = {}) => /* GraphQL */ `
  ${connectionTypeDefs(type)}

  extend type QueryRoot {
    ${one}(id: ID!): ${type}${o.description ? `\n    """\n    ${o.description}\n    """` : ''}
    ${many}(first: Int, after: String, last: Int, before: String${o.filters ? `, ${o.filters}` : ''}): ${type}Connection
  }
`;

/** A connection over a list already in hand (a product's variants, an order's line items), in its order. */
export function arrayConnection<T extends { id: string }, N>(items: readonly T[], args: ConnectionArgs, shape: (item: T) => N): Connection<N> {
  const { size, backwards } = pageSize(args);
  let start = 0;
  let end = items.length;
  if (args.after) start = items.findIndex((i) => i.id === cursorId(args.after!)) + 1;
  if (args.before) {
    const at = items.findIndex((i) => i.id === cursorId(args.before!));
    end = at < 0 ? items.length : at;
  }
  const window = items.slice(start, Math.max(start, end));
  const page = backwards ? window.slice(Math.max(0, window.length - size)) : window.slice(0, size);
  const first = items.indexOf(page[0]!);
  return connectionOf(
    page.map((item) => ({ id: item.id, node: shape(item) })),
    page.length > 0 ? first + page.length < items.length : false,
    page.length > 0 ? first > 0 : false,
  );
}

/** A read of one page of a REST service's list: `limit` items after `cursor` (or, backwards, before it, newest first), and whether more follow. */
export type PageFetch<T> = (page: { limit: number; cursor: string | undefined; backwards: boolean }) => Promise<{ items: T[]; nextCursor: string | null }>;

/**
 * A connection over one of the REST services' pages, in `_id` order: `fetch` reads `limit` items
 * after `cursor` (or, backwards, before it, newest first) and says whether more follow.
 */
export async function pagedConnection<T extends { id: string }, N>(args: ConnectionArgs, fetch: PageFetch<T>, shape: (item: T) => N): Promise<Connection<N>> {
  const { size, backwards } = pageSize(args);
  const cursor = backwards ? (args.before ?? undefined) : (args.after ?? undefined);
  if (cursor !== undefined) cursorId(cursor); // a malformed cursor is the caller's error, not an empty page
  if (size === 0) return connectionOf([], false, false);
  const { items, nextCursor } = await fetch({ limit: size, cursor, backwards });
  const inOrder = backwards ? [...items].reverse() : items;
  const page = inOrder.map((item) => ({ id: item.id, node: shape(item) }));
  return backwards ? connectionOf(page, cursor !== undefined, nextCursor !== null) : connectionOf(page, nextCursor !== null, cursor !== undefined);
}
