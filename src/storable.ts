import type { InputIssue } from './errors.js';

/** How deep a client's free-form JSON may nest (objects and arrays). */
export const MAX_JSON_DEPTH = 20;

/**
 * Problems that make a client's free-form JSON object unstorable as a document value (app
 * metadata, an extension's config, theme setting values and locales): a key that starts with
 * `$`, contains `.` or a NUL (MongoDB refuses or misreads such field names in updates), nesting
 * deeper than MAX_JSON_DEPTH, and what FerretDB 1.24 cannot store (docs/database.md,
 * Database): a number that is not finite (JSON's `1e999` parses as Infinity) and a list directly
 * inside a list. Paths are under `path`; each key's problem is reported once.
 */
export function unstorableJson(value: unknown, path: string, depth = 0): InputIssue[] {
  if (typeof value === 'number' && !Number.isFinite(value)) return [{ path, message: 'must be a finite number' }];
  if (value === null || typeof value !== 'object') return [];
  if (depth >= MAX_JSON_DEPTH) return [{ path, message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }];
  const issues: InputIssue[] = [];
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const at = path ? `${path}.${key}` : key;
    if (!Array.isArray(value) && (key.startsWith('$') || key.includes('.') || key.includes('\u0000'))) {
      issues.push({ path: at, message: 'keys must not start with "$" or contain "." or NUL characters' });
      continue;
    }
    if (Array.isArray(value) && Array.isArray(child)) {
      issues.push({ path: at, message: 'must not be a list inside a list (nested arrays cannot be stored)' });
      continue;
    }
    issues.push(...unstorableJson(child, at, depth + 1));
  }
  return issues;
}
