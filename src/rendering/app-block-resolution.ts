import { resolveAppBlocks } from '../apps/index.js';
import type { Platform } from '../platform.js';
import { appBlockDefaults } from './app-blocks.js';
import type { RenderedSection } from './sections.js';

/**
 * The page's app blocks against the store's extension registry (docs/extensions.md, Storefront
 * app blocks): a block whose `@app/<app>/<block>` is an enabled theme_app_block of an installed
 * app takes that extension's config under the theme's settings; any other (the bare `@app`, an
 * app not installed, a block disabled or revoked) is marked unavailable. Read for every page.
 */
export async function resolvePageAppBlocks(platform: Platform, storeId: string, sections: RenderedSection[]): Promise<RenderedSection[]> {
  const types = [...new Set(sections.flatMap((s) => s.blocks.filter((b) => b.app).map((b) => b.type)))];
  if (types.length === 0) return sections;
  const live = await resolveAppBlocks(platform, storeId, types);
  return sections.map((section) => ({
    ...section,
    blocks: section.blocks.map((block) => {
      if (!block.app) return block;
      const found = live.get(block.type);
      if (!found) return { ...block, settings: {}, unavailable: true };
      return { ...block, settings: { ...appBlockDefaults(found.config), ...block.settings } };
    }),
  }));
}
