import type { Collection, ObjectId } from 'mongodb';
import { findManyInStore } from './db.js';

/**
 * Reading some fields of a view (a bulk export reads only what its query selects: docs/bulk.md,
 * The export). A domain says which document fields each field of its view is presented from
 * (`Sources`), reads those alone, and completes what it did not read with blank values (empty
 * lists, the epoch) so that its presenter, written for whole documents, still runs: the fields
 * asked for are presented as ever, the others are blank and read by nobody.
 */
export type ViewFields<V> = readonly (keyof V & string)[];
export type Sources<V, D> = { readonly [K in keyof V]-?: readonly (keyof D & string)[] };

/**
 * The projection that reads what `fields` of a view are presented from, and `also` (what the
 * read itself needs: a sort key, a field it filters on in code); undefined, the whole document,
 * when no fields are named.
 */
export function projectionOf<V, D>(
  sources: Sources<V, D>,
  fields: ViewFields<V> | undefined,
  also: readonly (keyof D & string)[] = [],
): Record<string, 1> | undefined {
  if (!fields) return undefined;
  const read = new Set<string>(['_id', ...also]);
  for (const field of fields) for (const source of sources[field]) read.add(source);
  return Object.fromEntries([...read].map((name) => [name, 1 as const]));
}

/**
 * The presenter of documents read with `projection`: what a read lacks is completed with
 * `unread`'s values first, in place (each document was read for this presentation alone; a copy
 * of every document of an export costs more than its reading saves).
 */
export function presenting<D extends object, V>(present: (doc: D) => V, unread: Partial<D>, projection: Record<string, 1> | undefined): (doc: D) => V {
  if (!projection) return present;
  const blanks = Object.entries(unread) as [keyof D, D[keyof D]][];
  return (doc) => {
    for (const [field, blank] of blanks) if (doc[field] === undefined) doc[field] = blank;
    return present(doc);
  };
}

/**
 * The store's documents with these ids, each presented, by id (what a GraphQL loader batches): with
 * `fields`, only what those are presented from is read. `hidden`: documents not shown (read by the
 * fields it names), such as orders still being made.
 */
export async function viewsByIds<D extends { _id: ObjectId; store_id: ObjectId }, V>(
  collection: Collection<D>,
  storeId: string,
  ids: readonly string[],
  view: { sources: Sources<V, D>; present: (doc: D) => V; unread: Partial<D>; hidden?: { by: readonly (keyof D & string)[]; test: (doc: D) => boolean } },
  fields: ViewFields<V> | undefined,
): Promise<Map<string, V>> {
  const projection = projectionOf(view.sources, fields, view.hidden?.by);
  const present = presenting(view.present, view.unread, projection);
  const docs = (await findManyInStore(collection, storeId, ids, projection)) as D[];
  return new Map(docs.filter((d) => !view.hidden?.test(d)).map((d) => [d._id.toHexString(), present(d)]));
}

/** The time a blank date field is presented as. */
export const NEVER = new Date(0);
