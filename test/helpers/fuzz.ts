import { z } from 'zod';
import { ENDPOINT_SPEC, type DeclaredEndpoint } from '../../src/http/endpoint.js';
import type { AppRouter } from '../../src/http/context.js';

/**
 * What test/platform/fuzz-routes.test.ts sends: the routes read from the routers themselves, request
 * bodies and queries built from each endpoint's own schemas, and the hostile input mixed in.
 */

/** One route as its router declares it: `path` is the full template (`/v1/products/:id`). */
export type FuzzRoute = { method: string; path: string; spec: DeclaredEndpoint | null; internal: boolean };

/**
 * Every method and path of these routers, from their layers (a router's own `use` middleware has
 * no methods and is not a route). `mount` is the router's mount path; `/v1/products/` is
 * answered as `/v1/products`, so the trailing slash goes.
 */
export function routesOf(mounts: readonly { path: string; router: AppRouter }[], internal = false): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const { path: mount, router } of mounts) {
    for (const layer of router.stack) {
      const spec = layer.stack.map((fn) => (fn as unknown as { [ENDPOINT_SPEC]?: DeclaredEndpoint })[ENDPOINT_SPEC]).find(Boolean) ?? null;
      const full = `${mount}${layer.path}`.replace(/(.)\/$/, '$1');
      for (const method of layer.methods) if (method !== 'HEAD') routes.push({ method, path: full, spec, internal });
    }
  }
  return routes;
}

/**
 * `:id`, `:addressId`, `{*path}`: each parameter of a path template, with the segment before it
 * (`after`: `addresses`) and the two before it (`within`: `customer/addresses`).
 */
export function paramsOf(path: string): { name: string; after: string; within: string }[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)|\{\*([A-Za-z0-9_]+)\}/g)].map((m) => {
    const before = path.slice(0, m.index).split('/').filter(Boolean);
    return { name: (m[1] ?? m[2])!, after: before.at(-1) ?? '', within: before.slice(-2).join('/') };
  });
}

/** The path with each parameter's value (already URL-encoded as it should travel). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/:([A-Za-z0-9_]+)|\{\*([A-Za-z0-9_]+)\}/g, (_, a: string | undefined, b: string | undefined) => values[(a ?? b)!] ?? 'x');
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
};

/** A zod schema as JSON Schema (input side), or null when it has no such form. */
export function jsonSchemaOf(schema: z.ZodType | undefined): JsonSchema | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  } catch {
    return null;
  }
}

/** Values the sample may use for a field, by its name (`variant_id` → the ids of `variant`). */
export type Hints = (field: string) => string | undefined;

const KNOWN_PATTERNS: [RegExp, string][] = [
  [/^\^\[A-Z\]\{2\}\$$/, 'FR'],
  [/\[0-9a-f\]\{24\}/, '0123456789abcdef01234567'],
  [/^\^\[a-z0-9\]\+\(-\[a-z0-9\]\+\)\*\$$/, 'fuzz-handle'],
  [/\\d\{4\}-\\d\{2\}-\\d\{2\}|\[0-9\]\{4\}-/, '2030-01-01'],
];

/** Strings that fields of these names take wherever they appear (a refinement, not a pattern, may say so). */
const BY_NAME: Record<string, string> = {
  method: 'GET',
  country_code: 'FR',
  currency: 'EUR',
  locale: 'en',
  phone: '+33123456789',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  password: 'fuzz password 1234',
  new_password: 'fuzz password 5678',
};

function sampleString(s: JsonSchema, field: string, hints: Hints): string {
  const hinted = hints(field) ?? (Object.hasOwn(BY_NAME, field) ? BY_NAME[field] : undefined);
  if (hinted !== undefined) return hinted;
  if (s.format === 'email' || /email/.test(field)) return 'fuzz@example.com';
  if (s.format === 'uri' || s.format === 'url' || /url|uri|href/.test(field)) return 'https://fuzz.example.com/x';
  if (s.format === 'date-time' || /_at$/.test(field)) return '2030-01-01T00:00:00.000Z';
  if (s.format === 'date' || /_on$|date/.test(field)) return '2030-01-01';
  if (s.pattern) for (const [re, value] of KNOWN_PATTERNS) if (re.test(s.pattern)) return value;
  const length = Math.min(Math.max(s.minLength ?? 1, 8), s.maxLength ?? 8);
  return 'fuzzfuzz'.repeat(Math.ceil(length / 8)).slice(0, length);
}

/**
 * A value the schema would likely accept: enums' first member, the minimum of a range, one item
 * of a non-empty list; objects with their required properties (`required`; `minimal`: the
 * first property when none is required, as updates need one) or with every property (`full`).
 */
export function sampleOf(s: JsonSchema | undefined, field: string, hints: Hints, depth = 0, mode: 'required' | 'minimal' | 'full' = 'minimal'): unknown {
  if (!s || depth > 8) return null;
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options) {
    const first = options.find((o) => o.type !== 'null') ?? options[0];
    return sampleOf(first, field, hints, depth + 1, mode);
  }
  if (s.allOf && s.allOf.length > 0) return sampleOf(s.allOf[0], field, hints, depth + 1, mode);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type) {
    case 'object': {
      const names = Object.keys(s.properties ?? {});
      const required = s.required ?? [];
      const keys = mode === 'full' ? names : required.length > 0 || mode === 'required' ? required : names.slice(0, 1);
      return Object.fromEntries(keys.map((key) => [key, sampleOf(s.properties?.[key], key, hints, depth + 1, mode)]));
    }
    case 'array': {
      const item = s.items ?? s.prefixItems?.[0];
      return (s.minItems ?? 0) > 0 || depth === 0 || mode === 'full' ? [sampleOf(item, field.replace(/s$/, ''), hints, depth + 1, mode)] : [];
    }
    case 'string':
      return sampleString(s, field, hints);
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1, 1) <= (s.maximum ?? Infinity) ? Math.max(s.minimum ?? 1, 1) : (s.minimum ?? 0);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // Unknown (checked by the handler itself): an object at the top, a word inside.
      return s.default ?? (depth === 0 ? {} : 'fuzz');
  }
}

/**
 * Where a hostile value can go: each property, and the properties of objects (and of list items)
 * one level down; in a map (a record of any keys: metadata, form fields, settings), keys that are
 * names of Object.prototype.
 */
export function mutationPoints(s: JsonSchema | null): string[][] {
  const points: string[][] = [];
  const objectOf = (x: JsonSchema | undefined): JsonSchema | undefined => {
    if (!x) return undefined;
    if (x.properties) return x;
    const options = x.anyOf ?? x.oneOf;
    if (options) return options.map(objectOf).find(Boolean);
    if (x.items) return objectOf(x.items);
    return undefined;
  };
  const isList = (x: JsonSchema | undefined): boolean => Boolean(x && (x.type === 'array' || x.items || (x.anyOf ?? x.oneOf ?? []).some(isList)));
  const isMap = (x: JsonSchema | undefined): boolean =>
    Boolean(x && ((x.type === 'object' && !x.properties && x.additionalProperties !== false) || (x.anyOf ?? x.oneOf ?? []).some(isMap)));
  const top = objectOf(s ?? undefined);
  for (const [key, child] of Object.entries(top?.properties ?? {})) {
    points.push([key]);
    // (`__proto__` itself is refused by the body parser: docs/conventions.md, Bodies.)
    if (isMap(child)) for (const name of PROTOTYPE_NAMES.filter((n) => n !== '__proto__')) points.push([key, name]);
    const inner = objectOf(child);
    if (inner && inner !== top) for (const sub of Object.keys(inner.properties ?? {})) points.push(isList(child) ? [key, '0', sub] : [key, sub]);
  }
  return points;
}

const PLACEHOLDER = '\u0000fuzz-hole\u0000';

/**
 * JSON text of `base` with `raw` (JSON text, possibly not what JSON.stringify makes: `1e999`,
 * `"\ud800"`) at `point`; the objects on the way are made if missing.
 */
export function withValueAt(base: unknown, point: string[], raw: string): string {
  const copy = JSON.parse(JSON.stringify(base ?? {})) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const [i, key] of point.entries()) {
    if (i === point.length - 1) {
      Object.defineProperty(at, key, { value: PLACEHOLDER, enumerable: true, writable: true, configurable: true });
    } else {
      const next = Object.hasOwn(at, key) ? at[key] : undefined;
      const made = next !== null && typeof next === 'object' ? (next as Record<string, unknown>) : /^\d+$/.test(point[i + 1]!) ? [] : {};
      Object.defineProperty(at, key, { value: made, enumerable: true, writable: true, configurable: true });
      at = made as Record<string, unknown>;
    }
  }
  return JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), raw);
}

/**
 * The parameters of the routes that read their own bodies rather than declare a schema: the
 * OAuth token endpoints (RFC 6749 4.1.3, 6; RFC 7636 4.5; RFC 8693 2.1), form or JSON.
 */
export const OAUTH_PARAMETERS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
  'refresh_token',
  'scope',
  'subject_token',
  'subject_token_type',
  'actor_token',
  'requested_token_type',
  'audience',
  'resource',
];

/** Names that a plain object answers from its prototype. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'];

/** Hostile JSON values, as JSON text. */
export const HOSTILE_VALUES: readonly string[] = [
  ...PROTOTYPE_NAMES.map((n) => JSON.stringify(n)),
  '{"constructor":{"prototype":{"polluted":true}},"toString":1,"hasOwnProperty":null}',
  '{"prototype":"x","valueOf":[]}',
  '1e999',
  '-1e999',
  '1e308',
  '9007199254740993',
  '-0',
  '0.5',
  '-1',
  '4294967296',
  JSON.stringify('x'.repeat(200_000)),
  '"\\ud800"',
  '"a\\udfffb"',
  '"\\u0000"',
  '"\\u202e\\u0301"',
  'null',
  'true',
  '[]',
  '{}',
  '[[[[[[]]]]]]',
  '""',
  '"   "',
  '{"$gt":""}',
  '"$where"',
  '[{"$where":"1"}]',
];

/** Hostile query values, as they travel (some deliberately not valid percent-encoding). */
export const HOSTILE_QUERY_VALUES: readonly string[] = [
  ...PROTOTYPE_NAMES,
  '1e999',
  '-1',
  '0',
  '9007199254740993',
  'x'.repeat(3000),
  '%00',
  '%ED%A0%80',
  '%ZZ',
  '',
  'null',
  '%5B%5D',
  '%7B%22%24gt%22%3A%22%22%7D',
  '%F0%9F%98%80',
];

/** Whole queries, as they travel. */
export const HOSTILE_QUERIES: readonly string[] = [
  '__proto__[polluted]=1&constructor[prototype][x]=1',
  'constructor=1&toString=2&hasOwnProperty=3&prototype=4',
  'limit=1e999&cursor=%7B%7D',
  'limit=-1&limit=2',
  `cursor=${'A'.repeat(5000)}`,
  'a=%ZZ&b=%E0%A4%A',
  'q=%ED%A0%80',
  'k=v&'.repeat(1500),
];

/** Path parameter values that are not ids: malformed, too long, encoded oddly, prototype names. */
export const HOSTILE_PARAMS: readonly string[] = [
  'x',
  '0',
  '000000000000000000000000',
  'ffffffffffffffffffffffff',
  'FFFFFFFFFFFFFFFFFFFFFFFF',
  'a'.repeat(2000),
  '%00',
  '%ZZ',
  '%ED%A0%80',
  '..%2F..%2Fetc%2Fpasswd',
  ...PROTOTYPE_NAMES.map(encodeURIComponent),
  '%F0%9F%98%80',
  '-1',
  '1e999',
];

/** A request body as it travels: its text and media type (and any header that goes with it). */
export type RawBody = { text: string; type?: string; headers?: Record<string, string> };

/** Whole bodies that are malformed, deeply nested, of another shape or media type. */
export const HOSTILE_BODIES: readonly RawBody[] = [
  { text: '' },
  { text: '{' },
  { text: '{"a":1,}' },
  { text: "{'a':1}" },
  { text: '{"a":1} trailing' },
  { text: 'nul' },
  { text: '"text"' },
  { text: '42' },
  { text: 'null' },
  { text: '[]' },
  { text: '[{}]' },
  { text: '\ufeff{}' },
  { text: '{"__proto__":{"admin":true}}' },
  { text: '{"constructor":{"prototype":{"admin":true}},"toString":"x","hasOwnProperty":"y","prototype":1,"valueOf":{}}' },
  { text: '['.repeat(20_000) + ']'.repeat(20_000) },
  { text: '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) },
  { text: '{"a":'.repeat(65) + '1' + '}'.repeat(65) },
  { text: '{"a":"\\ud800","b":1e999,"c":-0,"d":9007199254740993}' },
  { text: '{}', type: 'application/json; charset=klingon' },
  { text: '{}', type: 'text/plain' },
  { text: 'a[b][c]=1&__proto__[admin]=1&constructor=1&grant_type=constructor', type: 'application/x-www-form-urlencoded' },
  { text: `a${'[b]'.repeat(70)}=1`, type: 'application/x-www-form-urlencoded' },
  {
    text: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--x--\r\n',
    type: 'multipart/form-data; boundary=x',
  },
  { text: '--x\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\n1\r\n--', type: 'multipart/form-data; boundary=x' },
  { text: '{}', headers: { 'content-encoding': 'gzip' } },
  { text: '{}', headers: { 'content-encoding': 'br' } },
];

/** Headers that are hostile whatever the route: odd store ids, tokens, keys and addresses. */
export const HOSTILE_HEADERS: readonly Record<string, string>[] = [
  { 'x-store-id': 'constructor' },
  { 'x-store-id': '000000000000000000000000' },
  { 'x-store-id': 'x'.repeat(4000) },
  { authorization: 'Bearer constructor' },
  { authorization: `Bearer emp_session_${'a'.repeat(200)}` },
  { authorization: `Bearer emp_at_${'b'.repeat(43)}` },
  { authorization: 'Basic Og==' },
  { authorization: 'Bearer' },
  { 'idempotency-key': 'k'.repeat(300) },
  { 'idempotency-key': '__proto__' },
  { 'x-cart-token': 'constructor' },
  { 'x-forwarded-for': 'garbage, ::1, 999.1.1.1' },
  { 'x-request-id': '../../etc' },
];
