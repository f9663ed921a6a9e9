import { z } from 'zod';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';
import { CountryCode } from '../postal-address.js';
import { updateBody } from '../http/validate.js';

const VariantId = IdString('variant');
const LocationId = IdString('location');
const Text = (max: number) => z.string().trim().min(1).max(max);
/** Stock quantities: whole units, bounded so sums stay exact. */
const Quantity = z.number().int('must be a whole number').min(-1_000_000_000).max(1_000_000_000);

const LocationFields = {
  name: Text(255),
  address1: Text(255).nullable(),
  city: Text(255).nullable(),
  country_code: CountryCode.nullable(),
  zip: Text(32).nullable(),
};

export const CreateLocationBody = z.strictObject({
  name: LocationFields.name,
  address1: LocationFields.address1.default(null),
  city: LocationFields.city.default(null),
  country_code: LocationFields.country_code.default(null),
  zip: LocationFields.zip.default(null),
});
export type CreateLocationBody = z.infer<typeof CreateLocationBody>;

export const UpdateLocationBody = updateBody(LocationFields);
export type UpdateLocationBody = z.infer<typeof UpdateLocationBody>;

export const ListLocationsQuery = PageQuery.extend({
  active: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
}).strict();

export const ListLevelsQuery = PageQuery.extend({ variant_id: VariantId.optional(), location_id: LocationId.optional() }).strict();

export const SetLevelBody = z.strictObject({ variant_id: VariantId, location_id: LocationId, available: Quantity.min(0, 'must be 0 or more') });
export const AdjustLevelBody = z.strictObject({
  variant_id: VariantId,
  location_id: LocationId,
  delta: Quantity.refine((d) => d !== 0, 'must not be 0'),
  reason: z.enum(['received', 'correction', 'damaged', 'shrinkage', 'restock', 'other']).default('correction'),
});
