import { ObjectId, type Filter, type UpdateFilter } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import type { Platform } from '../platform.js';
import { presentLevel, type LevelView } from './present.js';
import { levels, locations, type LevelDocument } from './models.js';

/**
 * Stock changes made by orders (docs/inventory.md, "Stock and orders"): each one single-document
 * conditional update of one level, named by a key unique to the order step that makes it. The
 * key is pushed onto the level in the same update (`pending_ops`), so a step retried after a
 * crash finds it there and is not applied twice; the order clears the keys once it has recorded
 * its steps as done.
 */
export type StockChange = {
  /** Unique to the order step: `<operation id>.<n>`. */
  key: string;
  variant_id: string;
  product_id: string;
  location_id: string;
  /** Change of the units for sale (negative: units leave it). */
  available: number;
  /** Change of the units held for open orders. */
  committed: number;
  /** Refuse, without writing, a change that would take `available` below zero (the variant denies overselling). */
  floor: boolean;
  reason: 'order_reserved' | 'order_released' | 'fulfillment' | 'fulfillment_moved' | 'restock';
  order_id: string;
};

export type StockOutcome =
  /** Applied now or by an earlier attempt: the level as it is. */
  | { outcome: 'applied'; level: LevelView }
  /** Refused by the floor: the level as it is (null if the variant has no level there). */
  | { outcome: 'insufficient'; level: LevelView | null }
  /** Undone for good by another process: the step must not go on. */
  | { outcome: 'voided' };

const scopeOf = (storeId: string, c: Pick<StockChange, 'variant_id' | 'location_id'>) => ({
  store_id: new ObjectId(storeId),
  variant_id: new ObjectId(c.variant_id),
  location_id: new ObjectId(c.location_id),
});

const notYet = (key: string): Filter<LevelDocument> => ({ pending_ops: { $ne: key }, voided_ops: { $ne: key } });

/** Apply a change once. A change with a floor never creates a level; one without creates it at 0 first if there is none. */
export async function applyStockChange(platform: Platform, storeId: string, change: StockChange): Promise<StockOutcome> {
  const scope = scopeOf(storeId, change);
  const update: UpdateFilter<LevelDocument> = {
    $inc: { available: change.available, committed: change.committed, version: 1 },
    $set: { updated_at: platform.clock.now() },
    $push: { pending_ops: change.key },
  };
  const floored = change.floor && change.available < 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    let doc: LevelDocument | null = null;
    try {
      doc = floored
        ? await levels(platform.db).findOneAndUpdate({ ...scope, ...notYet(change.key), available: { $gte: -change.available } }, update, {
            returnDocument: 'after',
          })
        : await levels(platform.db).findOneAndUpdate(
            { ...scope, ...notYet(change.key) },
            { ...update, $setOnInsert: { product_id: new ObjectId(change.product_id) } },
            { upsert: true, returnDocument: 'after' },
          );
    } catch (err) {
      // The upsert found a level with this key (applied or voided), or raced a first write of the level.
      if (!isDuplicateKeyError(err)) throw err;
    }
    if (doc) return { outcome: 'applied', level: presentLevel(doc) };
    const current = await levels(platform.db).findOne(scope);
    if (current?.pending_ops?.includes(change.key)) return { outcome: 'applied', level: presentLevel(current) };
    if (current?.voided_ops?.includes(change.key)) return { outcome: 'voided' };
    if (floored) return { outcome: 'insufficient', level: current ? presentLevel(current) : null };
  }
  throw new Error(`stock change ${change.key}: the level kept changing`);
}

/**
 * Undo a change if it was applied (its key is on the level). With `void`, also make sure it can
 * never be applied later: a process that started the step and is still running (a slow
 * request whose lease ran out) then finds it voided. Only the process that applied a change
 * itself, and knows nothing of it is still in flight, undoes without `void`.
 */
export async function undoStockChange(platform: Platform, storeId: string, change: StockChange, options: { void: boolean }): Promise<void> {
  const scope = scopeOf(storeId, change);
  const now = platform.clock.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    const undone = await levels(platform.db).updateOne(
      { ...scope, pending_ops: change.key },
      {
        $inc: { available: -change.available, committed: -change.committed, version: 1 },
        $set: { updated_at: now },
        $pull: { pending_ops: change.key },
        ...(options.void ? { $push: { voided_ops: change.key } } : {}),
      },
    );
    if (undone.matchedCount === 1 || !options.void) return;
    try {
      // Not applied: void it, creating the level if there is none (a change without a floor would create it).
      await levels(platform.db).updateOne(
        { ...scope, ...notYet(change.key) },
        {
          $push: { voided_ops: change.key },
          $setOnInsert: { product_id: new ObjectId(change.product_id), available: 0, committed: 0, version: 1, updated_at: now },
        },
        { upsert: true },
      );
      return;
    } catch (err) {
      // The level has the key after all (applied meanwhile, or voided already): look again.
      if (!isDuplicateKeyError(err)) throw err;
      const current = await levels(platform.db).findOne(scope);
      if (current?.voided_ops?.includes(change.key)) return;
    }
  }
  throw new Error(`stock change ${change.key}: could not be undone`);
}

/** The level a change was applied to, as it is now (for its event when the change was made by an earlier attempt). */
export async function readStockLevel(platform: Platform, storeId: string, change: Pick<StockChange, 'variant_id' | 'location_id'>): Promise<LevelView | null> {
  const doc = await levels(platform.db).findOne(scopeOf(storeId, change));
  return doc ? presentLevel(doc) : null;
}

/** Record `inventory_level.updated` for an applied change; idempotent on the change's key. */
export async function announceStockChange(platform: Platform, storeId: string, level: LevelView, change: StockChange): Promise<void> {
  await platform.events.emit(
    'inventory_level.updated',
    storeId,
    { inventory_level: level, delta: change.available, committed_delta: change.committed, reason: change.reason, order_id: change.order_id },
    `inventory_level.updated:${level.id}:${change.key}`,
  );
}

/** Forget the keys of changes their order has recorded as done (one write for all the levels they touched). */
export async function clearStockKeys(platform: Platform, storeId: string, changes: readonly StockChange[]): Promise<void> {
  if (changes.length === 0) return;
  await levels(platform.db).updateMany(
    {
      store_id: new ObjectId(storeId),
      variant_id: { $in: [...new Set(changes.map((c) => c.variant_id))].map((id) => new ObjectId(id)) },
      location_id: { $in: [...new Set(changes.map((c) => c.location_id))].map((id) => new ObjectId(id)) },
    },
    { $pullAll: { pending_ops: changes.map((c) => c.key) } },
  );
}

/** The store's active locations, oldest first (where an order commits stock when it names none). */
export async function activeLocationIds(platform: Platform, storeId: string): Promise<string[]> {
  const docs = await locations(platform.db)
    .find({ store_id: new ObjectId(storeId), active: true }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .limit(250)
    .toArray();
  return docs.map((d) => d._id.toHexString());
}

/** Units for sale of these variants at these locations (one read): `available[variant][location]`. */
export async function availableAt(
  platform: Platform,
  storeId: string,
  variantIds: readonly string[],
  locationIds: readonly string[],
): Promise<Map<string, Map<string, number>>> {
  const docs = await levels(platform.db)
    .find(
      {
        store_id: new ObjectId(storeId),
        variant_id: { $in: variantIds.map((id) => new ObjectId(id)) },
        location_id: { $in: locationIds.map((id) => new ObjectId(id)) },
      },
      { projection: { variant_id: 1, location_id: 1, available: 1 } },
    )
    .toArray();
  const out = new Map<string, Map<string, number>>();
  for (const d of docs) {
    const byLocation = out.get(d.variant_id.toHexString()) ?? new Map<string, number>();
    byLocation.set(d.location_id.toHexString(), d.available);
    out.set(d.variant_id.toHexString(), byLocation);
  }
  return out;
}

/**
 * The products with a unit for sale at one of these locations: the ids only, read through the
 * levels' `store_id, available` index (the shop's "in stock" filter, src/catalog/browse.ts).
 */
export async function productIdsInStock(platform: Platform, storeId: string, locationIds: readonly string[]): Promise<ObjectId[]> {
  if (locationIds.length === 0) return [];
  return levels(platform.db).distinct('product_id', {
    store_id: new ObjectId(storeId),
    available: { $gt: 0 },
    location_id: { $in: locationIds.map((id) => new ObjectId(id)) },
  });
}
