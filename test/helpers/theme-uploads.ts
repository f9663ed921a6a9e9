import { randomBytes } from 'node:crypto';
import { inlineAsset, loadFixture } from './themes.js';

/** A fixture bundle (a fresh copy) with its own slug, so tests never share a package. */
export function bundleOf(fixture: 'aurora' | 'ember-liquid', slug = `${fixture}-${randomBytes(4).toString('hex')}`): Record<string, any> {
  const bundle = loadFixture(fixture) as Record<string, any>;
  bundle.package.slug = slug;
  return bundle;
}

/** Replace (or add) an inline asset, with its size and SHA-256 recomputed as the contract requires. */
export function setAsset(
  bundle: Record<string, any>,
  path: string,
  content: string,
  contentType = path.endsWith('.liquid') ? 'text/x-liquid' : 'text/css',
): void {
  const entry = inlineAsset(path, contentType, content);
  const assets = bundle.renderer.assets as { path: string }[];
  const i = assets.findIndex((a) => a.path === path);
  if (i >= 0) assets[i] = entry;
  else assets.push(entry);
}

/** A Liquid bundle's JSON area files (templates/*.json, sections/manifest.json, locales/*.json) rewritten from its areas, after a test changed them. */
export function syncLiquidFiles(bundle: Record<string, any>) {
  for (const key of Object.keys(bundle.templates)) setAsset(bundle, `templates/${key}.json`, JSON.stringify(bundle.templates[key]), 'application/json');
  for (const code of Object.keys(bundle.locales)) setAsset(bundle, `locales/${code}.json`, JSON.stringify(bundle.locales[code]), 'application/json');
  setAsset(bundle, 'sections/manifest.json', JSON.stringify(bundle.sections), 'application/json');
}

const APP_IFRAME = 'https://apps.example.com/widget?x=1&y=2';

/** An app block with text to escape, a call to action on the store and an https iframe. */
export const appBlock = (heading = 'Reviews <script>alert(1)</script>') => ({
  type: '@app/reviews-app/star-rating',
  settings: { heading, body: 'Rated "5" by <b>you</b>', cta_label: 'Read all', cta_href: '/pages/reviews', iframe_url: APP_IFRAME, kind: 'iframe' },
});

/**
 * A fixture bundle whose home hero accepts app blocks and holds one (`reviews`), and a plain
 * `@app` block; Liquid bundles get their layout files rewritten to agree.
 */
export function bundleWithAppBlocks(fixture: 'aurora' | 'ember-liquid', heading?: string): Record<string, any> {
  const bundle = bundleOf(fixture);
  const hero = fixture === 'aurora' ? 'hero' : 'hero-banner';
  bundle.sections[hero].accepts_app_blocks = true;
  const section = bundle.templates.home.sections.hero;
  section.blocks.reviews = appBlock(heading);
  section.blocks.note = { type: '@app', settings: { body: 'Plain app note' } };
  if (section.block_order) section.block_order = [...section.block_order, 'reviews', 'note'];
  if (fixture === 'ember-liquid') syncLiquidFiles(bundle);
  return bundle;
}
