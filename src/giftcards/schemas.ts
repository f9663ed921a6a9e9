import { z } from 'zod';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';
import { MERCHANT_CODE, normalizeCode } from './code.js';

/** Highest initial value, in minor units (100 000.00 in a two-decimal currency). */
export const MAX_INITIAL_VALUE = 10_000_000;

export const GiftCardCode = z
  .string()
  .max(64, 'must be at most 64 characters')
  .transform(normalizeCode)
  .refine((c) => MERCHANT_CODE.test(c), 'must be 8 to 20 letters A-Z or digits 0-9 (spaces and dashes are ignored)');

export const CustomerId = IdString('customer');

const IsoDate = z.iso.date('must be a date as YYYY-MM-DD');

export const CreateGiftCardBody = z.strictObject({
  initial_value: z.number().int('must be an integer amount in minor units').positive().max(MAX_INITIAL_VALUE),
  code: GiftCardCode.optional(),
  expires_on: IsoDate.nullable().optional(),
  note: z.string().trim().max(500).nullable().optional(),
  customer_id: CustomerId.nullable().optional(),
});
export type CreateGiftCardBody = z.infer<typeof CreateGiftCardBody>;

export const ListGiftCardsQuery = PageQuery.extend({ status: z.enum(['active', 'disabled']).optional() }).strict();
export type ListGiftCardsQuery = z.infer<typeof ListGiftCardsQuery>;
