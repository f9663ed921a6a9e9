import {
  MongoBulkWriteError,
  MongoClient,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  ObjectId,
  type AnyBulkWriteOperation,
  type Collection,
  type Filter,
  type Db,
  type Document,
  type IndexDescription,
  type OptionalUnlessRequiredId,
  type WithId,
} from 'mongodb';
import { notFound, PlatformError } from './errors.js';
import { parseObjectId } from './ids.js';
import type { Log } from './log.js';

/**
 * Collections declare their indexes beside their owner (each domain's models.ts) and register
 * them here; every process creates them at start-up. createIndexes is idempotent for an
 * identical definition, so concurrent starts are safe.
 */
export type IndexDeclaration = { collection: string; indexes: IndexDescription[] };

export class DatabaseUnavailableError extends Error {}

export async function connectDatabase(url: string, dbName: string, timeoutMs: number): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    appName: 'emporium',
  });
  try {
    await client.connect();
    const db = client.db(dbName);
    await db.command({ ping: 1 });
    return { client, db };
  } catch (err) {
    await client.close().catch(() => {});
    throw new DatabaseUnavailableError(`cannot reach the database at ${redactUrl(url)}: ${(err as Error).message}`);
  }
}

/** What a client is told to wait before trying again while the database is down (a restart or an election takes seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** How often, at most, a process asks the driver to look at a database that is down (the driver's own minimum between checks). */
const PROBE_EVERY_MS = 500;

type Reachability = { down: boolean; probing: boolean; probedAt: number; mark(down: boolean): void };
const reachability = new WeakMap<MongoClient, Reachability>();

/**
 * Follow whether the database answers (docs/operations.md, While the database is down). It is down
 * once a connection to it cannot be made (the driver retries such an operation a few times with a
 * pause, taking it for an overloaded server, and keeps its server "known"), or once the driver's
 * monitor finds no server that takes writes (every server unknown, a replica set without a
 * primary). It is up again when the monitor finds one or a probe (probeDatabase) is answered. Each
 * change is logged once (`database.unreachable`, `database.reachable`).
 */
export function watchDatabase(client: MongoClient, log: Log): void {
  const state: Reachability = {
    down: false,
    probing: false,
    probedAt: 0,
    mark(down) {
      if (down === state.down) return;
      state.down = down;
      if (down) log.warn({ event: 'database.unreachable' });
      else log.info({ event: 'database.reachable' });
    },
  };
  reachability.set(client, state);
  client.on('connectionCheckOutFailed', ({ reason }) => {
    if (reason === 'connectionError') state.mark(true);
  });
  client.on('topologyDescriptionChanged', ({ newDescription }) => state.mark(![...newDescription.servers.values()].some((server) => server.isWritable)));
}

/** Whether the database is known to be down now (watchDatabase): a request that needs it is refused at once, not held. */
export const databaseDown = (db: Db): boolean => reachability.get(db.client)?.down === true;

/**
 * While the database is down, ping it (one ping at a time, at most every PROBE_EVERY_MS), so that
 * traffic finds it back within about that, where the driver's monitor alone looks every 10 s.
 */
export function probeDatabase(db: Db): void {
  const state = reachability.get(db.client);
  if (!state?.down || state.probing || performance.now() - state.probedAt < PROBE_EVERY_MS) return;
  state.probing = true;
  state.probedAt = performance.now();
  db.command({ ping: 1 })
    .then(
      () => state.mark(false),
      () => undefined,
    )
    .finally(() => (state.probing = false));
}

/** The driver could not reach the database for this operation: no server to select, a broken connection, a client closing. */
export const isDatabaseUnreachable = (err: unknown): boolean =>
  err instanceof MongoServerSelectionError || err instanceof MongoNetworkError || err instanceof MongoTopologyClosedError;

export const databaseUnavailable = () =>
  new PlatformError('unavailable', 'database_unavailable', 'The platform cannot reach its database just now; try again in a few seconds', {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });

/**
 * Create the declared indexes that do not exist yet, one at a time. (FerretDB 1.24 drops the
 * connection when one createIndexes command names several indexes that already exist; one
 * index per command works on both it and MongoDB, and listing first keeps restarts cheap.)
 */
export async function ensureIndexes(db: Db, declarations: readonly IndexDeclaration[]): Promise<void> {
  for (const { collection, indexes } of declarations) {
    const existing = new Set(
      (
        await db
          .collection(collection)
          .listIndexes()
          .toArray()
          .catch(() => [])
      ).map((i) => String(i.name)),
    );
    for (const index of indexes) {
      if (!index.name || !existing.has(index.name)) await db.collection(collection).createIndexes([index]);
    }
  }
}

/**
 * A unique index refused the write. MongoDB says so with code 11000, and so does the embedded
 * database; FerretDB without its key indexes (LOCALDB_INDEX_ENGINE=sqlite) answers an update
 * that breaks a unique index with InternalError (code 1) carrying SQLite's "UNIQUE constraint
 * failed".
 */
export function isDuplicateKeyError(err: unknown): boolean {
  return err instanceof MongoServerError && isDuplicateKeyCode(err.code, err.message);
}

/**
 * `write`, with a refusal by a unique index answered as `conflict()` instead: the driver's error
 * is translated where the write is (`handle_taken`, `email_taken`, …), every other one is thrown on.
 */
export async function onDuplicateKey<T>(write: Promise<T>, conflict: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isDuplicateKeyError(err)) throw conflict();
    throw err;
  }
}

/** Each document's outcome in insertEach: written, refused by a unique index, or another write error. */
export type InsertOutcome = 'inserted' | 'duplicate' | MongoServerError;

/**
 * Insert documents in one unordered command and answer each one's outcome. A write error of one
 * document (a unique index's refusal, say) is that document's outcome; the others are written.
 * An error of the whole command (the connection, say) is thrown.
 */
export async function insertEach<T extends Document>(collection: Collection<T>, docs: OptionalUnlessRequiredId<T>[]): Promise<InsertOutcome[]> {
  if (docs.length === 0) return [];
  try {
    await collection.insertMany(docs, { ordered: false });
    return docs.map(() => 'inserted');
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError) || err.writeErrors === undefined) throw err;
    const outcomes: InsertOutcome[] = docs.map(() => 'inserted');
    for (const e of Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]) {
      outcomes[e.index] = isDuplicateKeyCode(e.code, e.errmsg ?? '') ? 'duplicate' : new MongoServerError({ message: e.errmsg ?? 'write error', code: e.code });
    }
    return outcomes;
  }
}

/**
 * Counter upserts (`$inc` with `upsert: true`) in one unordered command. Two processes creating
 * the same counter at once: the loser's upserts are refused as duplicates and now find the
 * document, so those (only those: the others are written) are written again once.
 */
export async function upsertCounters<T extends Document>(collection: Collection<T>, ops: AnyBulkWriteOperation<T>[]): Promise<void> {
  if (ops.length === 0) return;
  try {
    await collection.bulkWrite(ops, { ordered: false });
  } catch (err) {
    const failed =
      err instanceof MongoBulkWriteError
        ? [err.writeErrors]
            .flat()
            .filter((e) => isDuplicateKeyCode(e.code, e.errmsg ?? ''))
            .map((e) => e.index)
        : [];
    if (failed.length === 0) throw err;
    await collection.bulkWrite(
      failed.map((i) => ops[i]!),
      { ordered: false },
    );
  }
}

const isDuplicateKeyCode = (code: unknown, message: string) => code === 11000 || (code === 1 && /UNIQUE constraint failed/.test(message));

/** Hide credentials in a connection string before it reaches a log or an error line. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]+)@/, '//***@');
}

/** The store's document with this id (a client's id, checked: a malformed one is not found), or 404 `not_found` naming `what`. */
export async function findInStore<T extends { _id: ObjectId; store_id: ObjectId }>(
  collection: Collection<T>,
  storeId: string,
  rawId: string,
  what: string,
): Promise<WithId<T>> {
  const id = parseObjectId(rawId);
  const doc = id ? await collection.findOne({ _id: id, store_id: new ObjectId(storeId) } as Filter<T>) : null;
  if (!doc) throw notFound(what);
  return doc;
}

/**
 * The store's documents with these ids (clients' ids: malformed ones are skipped, other stores'
 * are not found), in one read: what a GraphQL loader batches its nodes with; with `projection`,
 * only those fields (src/projection.ts).
 */
export async function findManyInStore<T extends { _id: ObjectId; store_id: ObjectId }>(
  collection: Collection<T>,
  storeId: string,
  rawIds: readonly string[],
  projection?: Record<string, 1>,
): Promise<WithId<T>[]> {
  const ids = [...new Set(rawIds)].flatMap((raw) => parseObjectId(raw) ?? []);
  if (ids.length === 0) return [];
  return collection.find({ _id: { $in: ids }, store_id: new ObjectId(storeId) } as Filter<T>, projection ? { projection } : {}).toArray();
}

/** What a count for the operators' overview reads at most: a figure at it means "at least that many". */
export const COUNT_CAP = 100_000;

/**
 * Documents matching each filter, counted up to COUNT_CAP, by name: the operators' overview's
 * figures (docs/operations.md), whose filters are an index's prefix (an indexed count, never a
 * scan of the collection).
 */
export async function countsBy<T extends Document>(collection: Collection<T>, filters: Record<string, Filter<T>>): Promise<Record<string, number>> {
  const entries = await Promise.all(
    Object.entries(filters).map(async ([name, filter]) => [name, await collection.countDocuments(filter, { limit: COUNT_CAP })] as const),
  );
  return Object.fromEntries(entries);
}
