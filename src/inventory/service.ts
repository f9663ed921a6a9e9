import { ObjectId } from 'mongodb';
import { findVariants } from '../catalog/index.js';
import { isDuplicateKeyError, findInStore } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { carried, carrying } from '../events/index.js';
import { findViewPage, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentLevel, presentLocation, type LevelView, type LocationView } from './present.js';
import type { CreateLocationBody, UpdateLocationBody } from './schemas.js';
import { levels, locations, type LevelDocument, type LocationDocument } from './models.js';
import { parseObjectId } from '../ids.js';

/** A location update retries this often when a concurrent change got there first. */
const UPDATE_ATTEMPTS = 5;
/**
 * A level is a hot counter: many set/adjust requests may race on one level. Every lost race is
 * another request's committed write (the version moved), so with this many attempts that many
 * concurrent writers of one level all succeed; a short random pause spreads them out.
 */
const LEVEL_ATTEMPTS = 32;
const pauseAfterLostRace = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(attempt, 10)));

export async function createLocation(platform: Platform, storeId: string, input: CreateLocationBody): Promise<LocationView> {
  const now = platform.clock.now();
  const doc: LocationDocument = { _id: new ObjectId(), store_id: new ObjectId(storeId), ...input, active: true, version: 1, created_at: now, updated_at: now };
  const view = presentLocation(doc);
  const pending = [platform.events.pending('inventory_location.created', doc.store_id, { location: view }, `inventory_location.created:${view.id}`)];
  await platform.events.insert(locations(platform.db), doc, pending);
  return view;
}

export async function listLocations(platform: Platform, storeId: string, query: Page & { active?: boolean | undefined }) {
  const filter = { store_id: new ObjectId(storeId), ...(query.active !== undefined ? { active: query.active } : {}) };
  return findViewPage(locations(platform.db), filter, query, presentLocation);
}

export async function getLocation(platform: Platform, storeId: string, locationId: string): Promise<LocationView> {
  const doc = await findInStore(locations(platform.db), storeId, locationId, 'Location');
  return presentLocation(doc);
}

async function changeLocation(
  platform: Platform,
  storeId: string,
  locationId: string,
  set: Partial<LocationDocument>,
  changed: string[],
): Promise<LocationView> {
  const id = parseObjectId(locationId);
  if (!id) throw notFound('Location');
  for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
    const current = await locations(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) });
    if (!current) throw notFound('Location');
    const fields: Partial<LocationDocument> = { ...set, updated_at: platform.clock.now() };
    // Conditional on the version read, so the location as it becomes is known now: its event travels with the write.
    const view = presentLocation({ ...current, ...fields, version: current.version + 1 });
    const pending = [
      platform.events.pending(
        'inventory_location.updated',
        current.store_id,
        { location: view, changed },
        `inventory_location.updated:${view.id}:v${current.version + 1}`,
      ),
    ];
    const result = await locations(platform.db).updateOne(
      { _id: current._id, store_id: current.store_id, version: current.version },
      carrying({ $set: fields, $inc: { version: 1 } }, pending),
    );
    if (result.matchedCount === 0) continue;
    await platform.events.settle(locations(platform.db), current._id, pending);
    return view;
  }
  throw new PlatformError('conflict', 'location_busy', 'The location kept changing while it was being updated; try again');
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
  const filter = {
    store_id: new ObjectId(storeId),
    ...(query.variant_id ? { variant_id: new ObjectId(query.variant_id) } : {}),
    ...(query.location_id ? { location_id: new ObjectId(query.location_id) } : {}),
  };
  return findViewPage(levels(platform.db), filter, query, presentLevel);
}

/**
 * The levels of these products' variants at every location (the admin's products): one read on
 * the `store_id_product_id` index. By product, not by variant: each id is a key range to walk, and
 * a list of 50 products of 2 or 3 variants read by variant cost the embedded database 2–3 times as
 * many (bench:admin: 10–16 ms for 100 variants, 6–7 ms for their 50 products).
 */
export async function levelsOfProducts(platform: Platform, storeId: string, productIds: readonly string[]): Promise<LevelView[]> {
  const ids = productIds.flatMap((id) => parseObjectId(id) ?? []);
  const found = await levels(platform.db)
    .find({ store_id: new ObjectId(storeId), product_id: { $in: ids } })
    .toArray();
  return found.map(presentLevel);
}

/**
 * The store's tracked variants running out (the merchant admin's Home): levels with at most
 * `threshold` units for sale, the lowest first, `limit` of them, with their variant's and
 * location's names; a level of a variant no longer tracked (or gone) is left out. Read on the
 * `store_id_available` index: the few lowest levels, however many the store has.
 */
export async function lowStockLevels(platform: Platform, storeId: string, threshold: number, limit: number) {
  const store = new ObjectId(storeId);
  const low = await levels(platform.db)
    .find({ store_id: store, available: { $lte: threshold } })
    .sort({ available: 1, _id: 1 })
    .limit(limit * 2)
    .toArray();
  const [variants, places] = await Promise.all([
    findVariants(
      platform,
      storeId,
      low.map((l) => l.variant_id.toHexString()),
    ),
    locations(platform.db)
      .find({ store_id: store, _id: { $in: [...new Set(low.map((l) => l.location_id))] } }, { projection: { name: 1 } })
      .toArray(),
  ]);
  const placeName = new Map(places.map((p) => [p._id.toHexString(), p.name]));
  return low
    .flatMap((l) => {
      const v = variants.get(l.variant_id.toHexString());
      if (!v?.inventory_tracked) return [];
      return [
        {
          ...presentLevel(l),
          product_title: v.product_title,
          variant_title: v.variant_title,
          sku: v.sku,
          location_name: placeName.get(l.location_id.toHexString()) ?? null,
        },
      ];
    })
    .slice(0, limit);
}
export type LowStockLevel = Awaited<ReturnType<typeof lowStockLevels>>[number];

/** The variant and the active location a stock change names, both the store's. */
async function resolveTarget(platform: Platform, storeId: string, variantId: string, locationId: string) {
  const variant = (await findVariants(platform, storeId, [variantId])).get(variantId);
  if (!variant) throw notFound('Variant');
  const location = await locations(platform.db).findOne({ _id: new ObjectId(locationId), store_id: new ObjectId(storeId) });
  if (!location) throw notFound('Location');
  if (!location.active) throw new PlatformError('conflict', 'location_inactive', 'The location is deactivated');
  return { variant, scope: { store_id: new ObjectId(storeId), variant_id: new ObjectId(variantId), location_id: location._id } };
}

/** Set the units for sale outright (a stock count of what is not held for orders); committed units stay as they are. */
export async function setLevel(platform: Platform, storeId: string, input: { variant_id: string; location_id: string; available: number }): Promise<LevelView> {
  const { variant, scope } = await resolveTarget(platform, storeId, input.variant_id, input.location_id);
  return writeLevel(platform, scope, new ObjectId(variant.product_id), { reason: 'set' }, () => ({ $set: { available: input.available } }));
}

export type Adjustment = { variant_id: string; location_id: string; delta: number; reason: string };

/**
 * Change the units for sale by a delta: a read, then a single-document update conditional on
 * the version read (retried when another change got there first), so no concurrent change is
 * lost and the event shows the level exactly as this change made it. A decrease never takes
 * them below zero unless the variant allows overselling (`continue`); otherwise it is refused
 * whole with 409 insufficient_stock. (Orders change stock through commitments.ts.)
 */
export async function adjustInventory(platform: Platform, storeId: string, input: Adjustment): Promise<LevelView> {
  const { variant, scope } = await resolveTarget(platform, storeId, input.variant_id, input.location_id);
  const floorApplies = input.delta < 0 && variant.inventory_policy === 'deny';
  return writeLevel(platform, scope, new ObjectId(variant.product_id), { delta: input.delta, reason: input.reason }, (current) => {
    if (floorApplies && (current?.available ?? 0) < -input.delta) {
      throw new PlatformError('conflict', 'insufficient_stock', `Only ${current?.available ?? 0} in stock at this location; cannot remove ${-input.delta}`);
    }
    return { $inc: { available: input.delta } };
  });
}

type LevelScope = { store_id: ObjectId; variant_id: ObjectId; location_id: ObjectId };
type LevelChange = { $set: { available: number } } | { $inc: { available: number } };

/**
 * Write one level (creating it at the first write) as `decide` says from the level read (it may
 * throw to refuse), conditional on the version read, carrying its `inventory_level.updated`
 * event with the level as this write makes it. Every change of `available` or `committed`
 * (commitments.ts too) increments the version, so a write that matches saw the exact level.
 */
async function writeLevel(
  platform: Platform,
  scope: LevelScope,
  productId: ObjectId,
  change: Record<string, unknown>,
  decide: (current: LevelDocument | null) => LevelChange,
): Promise<LevelView> {
  for (let attempt = 1; attempt <= LEVEL_ATTEMPTS; attempt++) {
    const current = await levels(platform.db).findOne(scope);
    const op = decide(current);
    const now = platform.clock.now();
    const available = '$set' in op ? op.$set.available : (current?.available ?? 0) + op.$inc.available;
    const next: LevelDocument = current
      ? { ...current, available, version: current.version + 1, updated_at: now }
      : { _id: new ObjectId(), ...scope, product_id: productId, available, version: 1, updated_at: now };
    const view = presentLevel(next);
    const pending = [
      platform.events.pending(
        'inventory_level.updated',
        scope.store_id,
        { inventory_level: view, ...change },
        `inventory_level.updated:${view.id}:v${next.version}`,
      ),
    ];
    let written: boolean;
    if (current) {
      const update =
        '$set' in op
          ? { $set: { available, updated_at: now }, $inc: { version: 1 } }
          : { $set: { updated_at: now }, $inc: { available: op.$inc.available, version: 1 } };
      const result = await levels(platform.db).updateOne({ _id: current._id, ...scope, version: current.version }, carrying<LevelDocument>(update, pending));
      written = result.matchedCount === 1;
    } else {
      try {
        await levels(platform.db).insertOne({ ...next, ...carried(pending) });
        written = true;
      } catch (err) {
        // Two first writes for one (variant, location) race on the unique index; the loser reads the winner's level.
        if (!isDuplicateKeyError(err)) throw err;
        written = false;
      }
    }
    if (written) {
      await platform.events.settle(levels(platform.db), next._id, pending);
      return view;
    }
    await pauseAfterLostRace(attempt);
  }
  throw new PlatformError('conflict', 'inventory_level_busy', 'The stock level kept changing while it was being updated; try again');
}
