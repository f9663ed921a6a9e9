import { randomBytes } from 'node:crypto';
import { inlineAsset, loadFixture } from './themes.js';

/** A fixture bundle (a fresh copy) with its own slug, so tests never share a package. */
export function bundleOf(fixture: 'aurora' | 'ember-liquid', slug = `${fixture}-${randomBytes(4).toString('hex')}`): Record<string, any> {
  const bundle = loadFixture(fixture) as Record<string, any>;
  bundle.package.slug = slug;
  return bundle;
}

/** Replace (or add) an inline asset, with its size and SHA-256 recomputed as the contract requires. */
export function setAsset(bundle: Record<string, any>, path: string, content: string, contentType = path.endsWith('.liquid') ? 'text/x-liquid' : 'text/css'): void {
  const entry = inlineAsset(path, contentType, content);
  const assets = bundle.renderer.assets as { path: string }[];
  const i = assets.findIndex((a) => a.path === path);
  if (i >= 0) assets[i] = entry;
  else assets.push(entry);
}
