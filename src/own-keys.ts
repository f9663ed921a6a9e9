/**
 * Lookups of a name that may be anything (a client's grant type, a theme's section type, a
 * query key) in a plain object. `record[name]` finds Object.prototype's members for names such
 * as `constructor`, `toString` or `__proto__`; this never does. ESLint's
 * `emporium/no-open-key-lookup` (tools/eslint) refuses the plain lookup in src/ and jobs/.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
