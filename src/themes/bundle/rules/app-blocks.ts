import { unstorableJson } from '../../../storable.js';
import { entries, isObj, quote } from '../json.js';
import { APP_BLOCK_TEXT_MAX, isAppNamespace, isHostile, type BundleRule, type Report } from '../rule.js';
import { isAppBlockType } from '../schema.js';
import { isHttpsUrl, isSettingUrl } from '../settings.js';

const APP_BLOCK_KINDS = ['inline', 'iframe'];

/**
 * App blocks (docs/themes.md, App blocks): a block of the `@app` namespace has no definition, so
 * its type must be well formed, its section must accept app blocks, and its settings are the
 * renderer's own: text, a call to action to an https URL or a store path, an https iframe.
 */
export const appBlocks: BundleRule = {
  code: 'app_blocks',
  blocking: true,
  description:
    'An app block (@app or @app/<app handle>/<block>) is well formed, in a section with accepts_app_blocks, with only the app block settings, each valid.',
  run(bundle, report) {
    for (const { at, type, def, raw } of bundle.templateSections()) {
      for (const [blockId, block] of entries(raw.blocks)) {
        if (!isObj(block) || typeof block.type !== 'string' || !isAppNamespace(block.type)) continue;
        const blockAt = `${at}.blocks.${blockId}`;
        if (!isAppBlockType(block.type)) {
          report(
            `${blockAt}.type`,
            `${quote(block.type)} is not an app block type: "@app" or "@app/<app handle>/<block>", each lowercase kebab-case of at most 64 characters`,
          );
        } else if (def && def.accepts_app_blocks !== true) {
          report(`${blockAt}.type`, `app blocks are only allowed in sections with accepts_app_blocks (section ${quote(type!)} does not accept them)`);
        }
        checkSettings(block.settings, `${blockAt}.settings`, report);
      }
    }
  },
};

function checkSettings(raw: unknown, path: string, report: Report): void {
  if (!isObj(raw)) return;
  const hostile = unstorableJson(raw, path);
  for (const h of hostile) report(h.path, h.message);
  for (const [key, value] of Object.entries(raw)) {
    const at = `${path}.${key}`;
    if (isHostile(hostile, at)) continue;
    switch (key) {
      case 'heading':
      case 'body':
      case 'cta_label': {
        const max = APP_BLOCK_TEXT_MAX[key];
        if (typeof value !== 'string' || value.length > max) report(at, `must be a string of at most ${max} characters (app block ${key})`);
        break;
      }
      case 'cta_href':
        if (typeof value !== 'string' || !isSettingUrl(value) || !(value.startsWith('/') || isHttpsUrl(value))) {
          report(at, 'must be an https URL or a path starting with "/" (app block cta_href)');
        }
        break;
      case 'iframe_url':
        if (typeof value !== 'string' || !isSettingUrl(value) || !isHttpsUrl(value))
          report(at, 'must be an https URL without credentials (app block iframe_url)');
        break;
      case 'kind':
        if (typeof value !== 'string' || !APP_BLOCK_KINDS.includes(value))
          report(at, `must be one of ${APP_BLOCK_KINDS.map(quote).join(', ')} (app block kind)`);
        break;
      default:
        report(at, 'is not a setting of an app block (heading, body, cta_label, cta_href, iframe_url, kind)');
    }
  }
}
