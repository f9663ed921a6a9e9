import { FIXTURE_THEMES, themeFixtureText, type FixtureTheme } from './theme-fixtures.js';

/**
 * `node dist/src/dev/theme-bundle.js <name>`: prints a fixture theme's bundle (fixtures/themes/<name>/,
 * `themeFixtureText`) as one JSON document, as an upload sends it (docs/themes.md).
 */
const name = process.argv[2] ?? '';
if (!(FIXTURE_THEMES as readonly string[]).includes(name)) {
  process.stderr.write(`usage: node dist/src/dev/theme-bundle.js ${FIXTURE_THEMES.join('|')}\n`);
  process.exit(2);
}
process.stdout.write(themeFixtureText(name as FixtureTheme));
