import { ObjectId } from 'mongodb';
import { findVariants } from '../catalog/index.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { afterCursor, pageOf, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentLevel, presentLocation, type LevelView, type LocationView } from './present.js';
import type { CreateLocationBody, UpdateLocationBody } from './schemas.js';
import { levels, locations, type LevelDocument, type LocationDocument } from './store.js';
import { parseObjectId } from '../ids.js';


export async function createLocation(platform: Platform, storeId: string, input: CreateLocationBody): Promise<LocationView> {
  const now = platform.clock.now();
  const doc: LocationDocument = { _id: new ObjectId(), store_id: new ObjectId(storeId), ...input, active: true, version: 1, created_at: now, updated_at: now };
  await locations(platform.db).insertOne(doc);
  const view = presentLocation(doc);
  await platform.events.emit('inventory_location.created', doc.store_id, { location: view }, `inventory_location.created:${view.id}`);
  return view;
}

export async function listLocations(platform: Platform, storeId: string, query: Page & { active?: boolean | undefined }) {
  const docs = await locations(platform.db)
    .find({ store_id: new ObjectId(storeId), ...(query.active !== undefined ? { active: query.active } : {}), ...afterCursor(query) })
    .sort({ _id: 1 })
    .limit(query.limit + 1)
    .toArray();
  const { items, nextCursor } = pageOf(docs, query.limit);
  return { items: items.map(presentLocation), nextCursor };
}

export async function getLocation(platform: Platform, storeId: string, locationId: string): Promise<LocationView> {
  const id = parseObjectId(locationId);
  const doc = id ? await locations(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
  if (!doc) throw notFound('Location');
  return presentLocation(doc);
}

async function changeLocation(platform: Platform, storeId: string, locationId: string, set: Partial<LocationDocument>, changed: string[]): Promise<LocationView> {
  const id = parseObjectId(locationId);
  const doc = id
    ? await locations(platform.db).findOneAndUpdate(
        { _id: id, store_id: new ObjectId(storeId) },
        { $set: { ...set, updated_at: platform.clock.now() }, $inc: { version: 1 } },
        { returnDocument: 'after' },
      )
    : null;
  if (!doc) throw notFound('Location');
  const view = presentLocation(doc);
  await platform.events.emit('inventory_location.updated', doc.store_id, { location: view, changed }, `inventory_location.updated:${view.id}:v${doc.version}`);
  return view;
}

export function updateLocation(platform: Platform, storeId: string, locationId: string, input: UpdateLocationBody): Promise<LocationView> {
  const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<LocationDocument>;
  return changeLocation(platform, storeId, locationId, set, Object.keys(set));
}

/** An inactive location keeps its stock records but takes no adjustments or fulfilments. */
export function setLocationActive(platform: Platform, storeId: string, locationId: string, active: boolean): Promise<LocationView> {
  return changeLocation(platform, storeId, locationId, { active }, ['active']);
}

export async function listLevels(platform: Platform, storeId: string, query: Page & { variant_id?: string | undefined; location_id?: string | undefined }) {
  const docs = await levels(platform.db)
    .find({
      store_id: new ObjectId(storeId),
      ...(query.variant_id ? { variant_id: new ObjectId(query.variant_id) } : {}),
      ...(query.location_id ? { location_id: new ObjectId(query.location_id) } : {}),
      ...afterCursor(query),
    })
    .sort({ _id: 1 })
    .limit(query.limit + 1)
    .toArray();
  const { items, nextCursor } = pageOf(docs, query.limit);
  return { items: items.map(presentLevel), nextCursor };
}

/** The variant and the active location a stock change names, both the store's. */
async function resolveTarget(platform: Platform, storeId: string, variantId: string, locationId: string) {
  const variant = (await findVariants(platform, storeId, [variantId])).get(variantId);
  if (!variant) throw notFound('Variant');
  const location = await locations(platform.db).findOne({ _id: new ObjectId(locationId), store_id: new ObjectId(storeId) });
  if (!location) throw notFound('Location');
  if (!location.active) throw new PlatformError('conflict', 'location_inactive', 'The location is deactivated');
  return { variant, scope: { store_id: new ObjectId(storeId), variant_id: new ObjectId(variantId), location_id: location._id } };
}

async function recordChange(platform: Platform, doc: LevelDocument, change: Record<string, unknown>): Promise<LevelView> {
  const view = presentLevel(doc);
  await platform.events.emit('inventory_level.updated', doc.store_id, { inventory_level: view, ...change }, `inventory_level.updated:${view.id}:v${doc.version}`);
  return view;
}

/** Set the units for sale outright (a stock count of what is not held for orders); committed units stay as they are. */
export async function setLevel(platform: Platform, storeId: string, input: { variant_id: string; location_id: string; available: number }): Promise<LevelView> {
  const { variant, scope } = await resolveTarget(platform, storeId, input.variant_id, input.location_id);
  const doc = await upsertLevel(platform, scope, new ObjectId(variant.product_id), { $set: { available: input.available } });
  return recordChange(platform, doc, { reason: 'set' });
}

export type Adjustment = { variant_id: string; location_id: string; delta: number; reason: string };

/**
 * Change the units for sale by a delta, atomically: one conditional single-document update. A
 * decrease never takes them below zero unless the variant allows overselling (`continue`);
 * otherwise it is refused whole with 409 insufficient_stock. (Orders change stock through
 * commitments.ts.)
 */
export async function adjustInventory(platform: Platform, storeId: string, input: Adjustment): Promise<LevelView> {
  const { variant, scope } = await resolveTarget(platform, storeId, input.variant_id, input.location_id);
  const floorApplies = input.delta < 0 && variant.inventory_policy === 'deny';
  let doc: LevelDocument | null;
  if (floorApplies) {
    doc = await levels(platform.db).findOneAndUpdate(
      { ...scope, available: { $gte: -input.delta } },
      { $inc: { available: input.delta, version: 1 }, $set: { updated_at: platform.clock.now() } },
      { returnDocument: 'after' },
    );
    if (!doc) {
      const current = await levels(platform.db).findOne(scope);
      throw new PlatformError('conflict', 'insufficient_stock', `Only ${current?.available ?? 0} in stock at this location; cannot remove ${-input.delta}`);
    }
  } else {
    doc = await upsertLevel(platform, scope, new ObjectId(variant.product_id), { $inc: { available: input.delta } });
  }
  return recordChange(platform, doc, { delta: input.delta, reason: input.reason });
}

async function upsertLevel(
  platform: Platform,
  scope: { store_id: ObjectId; variant_id: ObjectId; location_id: ObjectId },
  productId: ObjectId,
  change: { $set: { available: number } } | { $inc: { available: number } },
): Promise<LevelDocument> {
  const update = {
    ...('$set' in change ? { $set: { ...change.$set, updated_at: platform.clock.now() }, $inc: { version: 1 } } : { $set: { updated_at: platform.clock.now() }, $inc: { ...change.$inc, version: 1 } }),
    $setOnInsert: { product_id: productId },
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await levels(platform.db).findOneAndUpdate(scope, update, { upsert: true, returnDocument: 'after' });
      if (doc) return doc;
    } catch (err) {
      // Two first writes for one (variant, location) race on the unique index; the loser retries as an update.
      if (!isDuplicateKeyError(err) || attempt > 0) throw err;
    }
  }
}
