import { z } from 'zod';
import { addressFormat, provinceName } from './address-formats.js';

/*
 * Postal addresses: what an order's shipping and billing address is, and the country and
 * subdivision codes that tax rates and inventory locations name. One place, so a field means the
 * same everywhere (docs/orders.md, Addresses).
 */

/** ISO 3166-1 alpha-2 by its format: two upper-case letters (`FR`); the list of assigned codes is AssignedCountryCode. */
export const CountryCode = z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code');

/** The country part of ISO 3166-2 is CountryCode; this is the subdivision's own: 1–3 upper-case letters or digits (`ON`, `NSW`, `75`). */
export const SubdivisionCode = z.string().regex(/^[A-Z0-9]{1,3}$/, 'must be a subdivision code such as CA or NSW');

/** ISO 3166-1 alpha-2: the 249 officially assigned codes (no reserved or withdrawn ones). */
export const ASSIGNED_COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ ' +
    'BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR ' +
    'CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ' +
    'ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ ' +
    'LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
    'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF ' +
    'PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI ' +
    'SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR ' +
    'TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** One of the assigned ISO 3166-1 alpha-2 codes (a customer's saved address, docs/customers.md). */
export const AssignedCountryCode = z
  .string()
  .refine((c) => ASSIGNED_COUNTRY_CODES.has(c), 'must be an ISO 3166-1 alpha-2 country code in upper case, such as US');

const Line = (max: number) => z.string().trim().min(1).max(max);

/**
 * An order's shipping or billing address (an admin order, a storefront checkout): optional fields
 * default to null. A province, when given for a country whose addresses name subdivisions, must be
 * one of its subdivisions (src/address-formats.ts); whether one is required is the shop's form's
 * rule, not the API's (docs/orders.md, Addresses).
 */
export const PostalAddress = z
  .strictObject({
    first_name: Line(255).nullable().default(null),
    last_name: Line(255).nullable().default(null),
    company: Line(255).nullable().default(null),
    address1: Line(255),
    address2: Line(255).nullable().default(null),
    city: Line(255),
    province_code: SubdivisionCode.nullable().default(null),
    country_code: CountryCode,
    zip: Line(32).nullable().default(null),
    phone: Line(32).nullable().default(null),
  })
  .superRefine((a, ctx) => {
    if (a.province_code && addressFormat(a.country_code).provinces.length > 0 && !provinceName(a.country_code, a.province_code))
      ctx.addIssue({ code: 'custom', path: ['province_code'], message: `is not a subdivision of ${a.country_code} (ISO 3166-2, such as US-CA's CA)` });
  });
export type PostalAddress = z.infer<typeof PostalAddress>;
