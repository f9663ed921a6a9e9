import type { ErrorObject } from 'ajv';
import type { InputIssue } from './errors.js';

/**
 * ajv's errors in the platform's words, at dotted input paths (`redirect_urls.1`): what the
 * JSON-contract validators (app manifests, theme bundles) report for the structure their schema
 * checks. A schema may give a pattern (or a map key's schema) its own words with `x-message`.
 */
export const pathOf = (instancePath: string) =>
  instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
export const joinPath = (path: string, key: string) => (path ? `${path}.${key}` : key);
export const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const TYPE_WORDS = new Map([
  ['object', 'an object'],
  ['array', 'an array'],
  ['string', 'a string'],
  ['boolean', 'true or false'],
  ['null', 'null'],
  ['number', 'a number'],
  ['integer', 'an integer'],
]);

/** An ajv error in our words, at its path. */
export function schemaIssue(e: ErrorObject): InputIssue {
  const path = pathOf(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const custom = (e.parentSchema as Record<string, unknown> | undefined)?.['x-message'];
  // An error of a map's key (propertyNames): at the key, in the key schema's words.
  if (e.propertyName !== undefined) return { path: joinPath(path, e.propertyName), message: typeof custom === 'string' ? custom : 'is not a valid key' };
  switch (e.keyword) {
    case 'required':
      return { path: joinPath(path, String(p.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { path: joinPath(path, String(p.additionalProperty)), message: 'is not a known field' };
    case 'type': {
      const types = ([] as string[]).concat(p.type as string | string[]);
      return { path, message: `must be ${types.map((t) => TYPE_WORDS.get(t) ?? t).join(' or ')}` };
    }
    case 'const':
      return { path, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'enum':
      return { path, message: `must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}` };
    case 'minLength':
      return { path, message: p.limit === 1 ? 'must not be empty' : `must be at least ${plural(Number(p.limit), 'character')}` };
    case 'maxLength':
      return { path, message: `must be at most ${plural(Number(p.limit), 'character')}` };
    case 'minItems':
      return { path, message: `must have at least ${plural(Number(p.limit), 'item')}` };
    case 'maxItems':
      return { path, message: `must have at most ${plural(Number(p.limit), 'item')}` };
    case 'maxProperties':
      return { path, message: `must have at most ${plural(Number(p.limit), 'entry')}`.replace('entrys', 'entries') };
    case 'minimum':
      return { path, message: `must be at least ${String(p.limit)}` };
    case 'maximum':
      return { path, message: `must be at most ${String(p.limit)}` };
    case 'exclusiveMinimum':
      return { path, message: `must be greater than ${String(p.limit)}` };
    case 'uniqueItems':
      return { path, message: `must not repeat an item (items ${String(p.j)} and ${String(p.i)} are the same)` };
    case 'pattern':
      return { path, message: typeof custom === 'string' ? custom : 'has an invalid format' };
    default:
      return { path, message: e.message ?? 'is invalid' };
  }
}
