import { themeFixture } from '../../src/dev/theme-fixtures.js';

export { inlineAsset } from '../../src/dev/theme-fixtures.js';

/** A theme bundle of fixtures/themes/ (`aurora`, `ember-liquid`; src/dev/theme-fixtures.ts), a fresh deep copy each call, for a test to change. */
export function loadFixture(name: string): Record<string, unknown> {
  return themeFixture(name);
}
