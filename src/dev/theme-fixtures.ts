import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** fixtures/themes/ of the repository (this file runs as dist/src/dev/theme-fixtures.js). */
const FIXTURES = new URL('../../../fixtures/themes/', import.meta.url).pathname;

/** The fixture themes: complete, valid bundles (fixtures/README.md). */
export const FIXTURE_THEMES = ['aurora', 'ember-liquid'] as const;
export type FixtureTheme = (typeof FIXTURE_THEMES)[number];

type AssetEntry = { path: string; content_type: string };

/** An inline asset entry with its size and SHA-256 computed (docs/themes.md, the bundle's assets). */
export function inlineAsset(path: string, contentType: string, content: string) {
  return {
    path,
    content_type: contentType,
    size: Buffer.byteLength(content, 'utf8'),
    sha256: createHash('sha256').update(content, 'utf8').digest('hex'),
    content,
  };
}

const cache = new Map<string, string>();

/**
 * A fixture theme's bundle as an upload sends it: `fixtures/themes/<name>/theme.json` with each
 * asset it lists (`renderer.assets`: path and content type) read from the file of that path
 * beside it, its size and SHA-256 computed. The assets are files so that a theme's CSS, script
 * and Liquid are edited, diffed and merged as what they are. Returned as JSON text (cached; a
 * caller parses its own copy).
 */
export function themeFixtureText(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const dir = `${FIXTURES}${name}/`;
    const bundle = JSON.parse(readFileSync(`${dir}theme.json`, 'utf8')) as { renderer: { assets: AssetEntry[] } };
    bundle.renderer.assets = bundle.renderer.assets.map((a) => inlineAsset(a.path, a.content_type, readFileSync(`${dir}${a.path}`, 'utf8')));
    text = JSON.stringify(bundle);
    cache.set(name, text);
  }
  return text;
}

/** A fixture theme's bundle (`themeFixtureText`), a fresh copy each call, for a caller to change. */
export function themeFixture(name: string): Record<string, unknown> {
  return JSON.parse(themeFixtureText(name)) as Record<string, unknown>;
}
