import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** fixtures/themes/ of the repository (this file runs as dist/test/helpers/themes.js). */
const FIXTURES = new URL('../../../fixtures/themes/', import.meta.url).pathname;
const cache = new Map<string, string>();

/** A theme bundle of fixtures/themes/ (`aurora`, `ember-liquid`), a fresh deep copy each call, for a test to change. */
export function loadFixture(name: string): Record<string, unknown> {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(`${FIXTURES}${name}.json`, 'utf8');
    cache.set(name, text);
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** An inline asset entry with its size and SHA-256 computed. */
export function inlineAsset(path: string, contentType: string, content: string) {
  return {
    path,
    content_type: contentType,
    size: Buffer.byteLength(content, 'utf8'),
    sha256: createHash('sha256').update(content, 'utf8').digest('hex'),
    content,
  };
}
